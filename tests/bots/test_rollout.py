"""The short playouts' parts (``rollout``): the evaluation's win chances and the fitted role
policy, and the search with them switched on."""

from __future__ import annotations

import math
import random

import pytest

from games.bots import choose_action, policy, rollout, search
from games.bots.knowledge import Values
from games.bots.puerto_rico import BOTS
from games.engines import puerto_rico as pr


def heuristic_game(num_players: int, seed: int, until_round: int | None = None) -> pr.State:
    """A game between blurred heuristic players, to its end or to the start of a round."""
    state = pr.new_game(num_players, seed)
    rng = random.Random(seed)
    values = Values(state)
    while state.phase != "over" and state.round != until_round:
        if state.phase == "role":
            values = Values(state)
        pr.apply(state, policy.choose(state, values, rng, 0.45), inplace=True)
    return state


@pytest.mark.parametrize("num_players", [2, 4])
def test_at_the_end_the_chances_are_the_result(num_players):
    for seed in range(4):
        state = heuristic_game(num_players, seed)
        firsts = [place.seat for place in pr.outcome(state) if place.placement == 1]
        chances = rollout.win_chances(state)
        assert chances == [1 / len(firsts) if s in firsts else 0.0 for s in range(num_players)]


def test_mid_game_chances_add_up_and_grow_with_vp():
    state = heuristic_game(4, 3, until_round=6)
    chances = rollout.win_chances(state)
    assert math.isclose(sum(chances), 1.0)
    assert all(0.0 < c < 1.0 for c in chances)
    state.players[2].vp += 5
    assert rollout.win_chances(state)[2] > chances[2]


def test_the_fitted_role_policy_picks_a_free_role():
    state = heuristic_game(4, 5, until_round=3)
    pr.apply(state, pr.ChooseRole("settler"), inplace=True)  # taken: never picked again
    while state.phase != "role":
        pr.apply(state, policy.choose(state, Values(state), random.Random(0)), inplace=True)
    free = {r for r, _, taken_by in state.roles if taken_by is None}
    picks = {rollout.choose_role(state, random.Random(seed)) for seed in range(40)}
    assert picks <= free and "settler" not in picks
    assert len(picks) > 1  # a softmax, not an argmax


def test_the_search_with_short_playouts_plays_legal_reproducible_moves(monkeypatch):
    monkeypatch.setitem(search.PARAMS, "horizon", 1.0)
    monkeypatch.setitem(search.PARAMS, "fitted_roles", True)
    state = heuristic_game(4, 7, until_round=4)
    view = pr.player_view(state, state.current)
    moves = [choose_action(pr, view, bots=BOTS, level="hard", seed=2, simulations=50)]
    moves.append(choose_action(pr, view, bots=BOTS, level="hard", seed=2, simulations=50))
    assert moves[0] == moves[1]
    pr.check(state, moves[0])
