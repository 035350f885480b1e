"""What the hard player's search makes of a position (``analyse``): the estimates hints and
reviews show. From the seat's view only, reproducible, and the choice a player took among
them even where the search would not have looked."""

from __future__ import annotations

import pytest

from games.bots import amerigo as amerigo_bots
from games.bots import analyse_position, search
from games.engines import amerigo, puerto_rico
from games.engines.puerto_rico.actions import ChooseRole

GAMES = [(puerto_rico, search.analyse), (amerigo, amerigo_bots.analyse)]


def first_choice(rules, seed: int):
    """A new game's state and the view of the seat to act."""
    state = rules.new_game(4, seed)
    return state, rules.player_view(state, rules.current_player(state))


@pytest.mark.parametrize(("rules", "analyst"), GAMES)
def test_estimates_depend_on_the_seats_view_only(rules, analyst):
    """Two deals that look alike to the seat (same view) get the same estimates: nothing the
    seat may not know reaches them."""
    state, view = first_choice(rules, 5)
    estimates = analyse_position(rules, view, analyst=analyst, seed=9, simulations=24)
    other = rules.determinize(view, 1234)  # the hidden parts drawn anew
    assert rules.to_json(other) != rules.to_json(state)
    again = analyse_position(
        rules,
        rules.player_view(other, rules.current_player(other)),
        analyst=analyst,
        seed=9,
        simulations=24,
    )
    assert again == estimates
    assert sum(e.playouts for e in estimates) > 0


@pytest.mark.parametrize(("rules", "analyst"), GAMES)
def test_the_played_choice_is_estimated_even_where_the_search_would_not_look(rules, analyst):
    """Puerto Rico's governor after taking the settler (the search looks at the heuristic's
    best four plantations of six), Amerigo's first choice (its best three)."""
    state, view = first_choice(rules, 6)
    if rules is puerto_rico:
        state = rules.apply(state, ChooseRole("settler"))
        view = rules.player_view(state, rules.current_player(state))
    searched = [
        e.action for e in analyse_position(rules, view, analyst=analyst, seed=3, simulations=8)
    ]
    outside = next(a for a in rules.legal_actions(state) if a not in searched)
    estimates = analyse_position(
        rules, view, analyst=analyst, seed=3, simulations=40, played=outside
    )
    (played,) = [e for e in estimates if e.action == outside]
    assert played.playouts > 0 and played.finalist
    assert 0.0 <= played.win <= 1.0


@pytest.mark.parametrize(("rules", "analyst"), GAMES)
def test_estimates_come_best_first(rules, analyst):
    _, view = first_choice(rules, 7)
    estimates = analyse_position(rules, view, analyst=analyst, seed=4, simulations=60)
    finalists = [e.win for e in estimates if e.finalist]
    assert finalists == sorted(finalists, reverse=True)
    assert estimates[: len(finalists)] == [e for e in estimates if e.finalist]
