"""The AI players: legal moves only, from the seat's view only, reproducible; and the engine's
``determinize`` that they search from.

Positions come from games played by a seeded mix of levels, for 2, 3, 4 and 5 players. Plain
pytest, no database; the hard player searches with a tiny simulation count here (its strength
and speed are measured by ``bench/bench_ai.py``, not by tests).
"""

from __future__ import annotations

import ast
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from games.bots import LEVELS, choose_action, halving, policy
from games.bots.knowledge import Values
from games.bots.puerto_rico import BOTS, search
from games.engines import puerto_rico as pr
from games.engines.puerto_rico.state import Ship
from games.registry import get_engine

HARD_SIMULATIONS = 2


def positions(num_players: int, seed: int, every: int = 1, edition: str = "base"):
    """(state, view) at each ``every``-th decision of a game played by random and easy
    players, with hidden VP in odd seeds."""
    rng = random.Random(seed)
    options = {"hidden_vp": seed % 2 == 1, "edition": edition}
    state = pr.new_game(num_players, seed, options)
    move = 0
    while not pr.is_over(state):
        seat = pr.current_player(state)
        view = pr.player_view(state, seat)
        if move % every == 0:
            yield state, view
        level = "random" if rng.random() < 0.3 else "easy"
        state = pr.apply(
            state, choose_action(pr, view, bots=BOTS, level=level, seed=seed * 1000 + move)
        )
        move += 1


def kwargs(level: str) -> dict:
    return {"simulations": HARD_SIMULATIONS} if level == "hard" else {}


@pytest.mark.parametrize("num_players", pr.PLAYER_COUNTS)
def test_determinize_keeps_what_the_view_shows_and_the_legal_actions(num_players):
    for seed in range(3):
        for state, view in positions(num_players, seed, every=3):
            guess = pr.determinize(view, seed)
            assert pr.player_view(guess, view["seat"]) == view
            assert list(pr.legal_actions(guess)) == list(pr.legal_actions(state))
            assert sorted(guess.stack) == sorted(state.stack)


def test_determinize_estimates_hidden_vp_from_the_chips_given_out():
    state = pr.new_game(4, 5, {"hidden_vp": True})
    for seat, vp in enumerate([7, 3, 4, 0]):
        state.players[seat].vp = vp
    state.vp_chips -= 14
    view = pr.player_view(state, 1)
    guess = pr.determinize(view, 0)
    assert [pl.vp for pl in guess.players] == [4, 3, 4, 3]
    assert guess.vp_chips == state.vp_chips


def test_determinize_draws_the_stack_from_the_seed():
    state = pr.new_game(4, 9)
    view = pr.player_view(state, 0)
    assert pr.to_json(pr.determinize(view, 1)) == pr.to_json(pr.determinize(view, 1))
    stacks = {tuple(pr.determinize(view, s).stack) for s in range(5)}
    assert len(stacks) > 1


def test_determinize_is_part_of_the_engine_protocol():
    assert get_engine("puerto_rico").determinize is pr.determinize


@pytest.mark.parametrize("num_players", pr.PLAYER_COUNTS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_moves(level, num_players):
    every = 7 if level == "hard" else 1
    for seed in range(2 if level == "hard" else 4):
        for state, view in positions(num_players, 100 + seed, every=every):
            action = choose_action(pr, view, bots=BOTS, level=level, seed=seed, **kwargs(level))
            pr.check(state, action)


@pytest.mark.parametrize("num_players", [2, 3])
@pytest.mark.parametrize("level", LEVELS)
def test_whole_games_between_bots_finish(level, num_players):
    state = pr.new_game(num_players, 42)
    move = 0
    while not pr.is_over(state):
        seat = pr.current_player(state)
        mine = level if seat == 0 else "easy"
        view = pr.player_view(state, seat)
        action = choose_action(pr, view, bots=BOTS, level=mine, seed=move, **kwargs(mine))
        state = pr.apply(state, action)
        move += 1


def _twin_with_other_secrets(state: pr.State, seed: int) -> pr.State:
    """The same table with another face-down order and another random seed."""
    twin = state.clone()
    random.Random(seed).shuffle(twin.stack)
    twin.rng = seed
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_bots_never_read_hidden_information(level):
    assert_hidden_information_unread(level, "base")


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_bots_never_read_hidden_information_with_the_nobles(level):
    assert_hidden_information_unread(level, "nobles")


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_bots_never_read_hidden_information_with_both_expansions(level):
    assert_hidden_information_unread(level, "both")


def assert_hidden_information_unread(level: str, edition: str) -> None:
    checked = 0
    for seed in range(3):
        for state, view in positions(4, 200 + seed, every=9, edition=edition):
            twin = _twin_with_other_secrets(state, seed)
            seat = pr.current_player(state)
            twin_view = pr.player_view(twin, seat)
            assert twin_view == view
            if twin.stack == state.stack:
                continue
            mine = choose_action(pr, view, bots=BOTS, level=level, seed=seed, **kwargs(level))
            theirs = choose_action(
                pr, twin_view, bots=BOTS, level=level, seed=seed, **kwargs(level)
            )
            assert mine == theirs
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_action(level):
    for _, view in positions(5, 400, every=13):
        first = choose_action(pr, view, bots=BOTS, level=level, seed=11, **kwargs(level))
        again = choose_action(pr, dict(view), bots=BOTS, level=level, seed=11, **kwargs(level))
        assert first == again


def test_random_level_picks_uniformly_among_the_legal_actions():
    state = pr.new_game(4, 1)
    view = pr.player_view(state, 0)
    picks = {choose_action(pr, view, bots=BOTS, level="random", seed=s) for s in range(200)}
    assert picks == set(pr.legal_actions(state))


def test_an_unknown_level_is_refused():
    view = pr.player_view(pr.new_game(3, 1), 0)
    with pytest.raises(ValueError, match="unknown AI level"):
        choose_action(pr, view, bots=BOTS, level="grandmaster", seed=1)


def test_the_mayor_placement_is_built_directly_and_legal(monkeypatch):
    """A big city's placements run into the thousands; the bots build one, never walk them."""
    boards = [
        (state, view)
        for state, view in positions(5, 500)
        if state.phase == "mayor" and len(pr.legal_actions(state)) > 1
    ]
    assert boards

    def refuse(*args):
        raise AssertionError("the placements were walked")

    monkeypatch.setattr(pr.Arrangements, "__getitem__", refuse)
    monkeypatch.setattr(pr.Arrangements, "__iter__", refuse)
    for state, view in boards:
        for level in ("easy", "medium", "hard"):
            pr.check(
                state, choose_action(pr, view, bots=BOTS, level=level, seed=2, **kwargs(level))
            )


def test_the_hard_players_budget_is_its_moves_whatever_the_clock(monkeypatch):
    """Called as the site calls it (no budget, no simulations), the hard player plays its
    default number of moves in playouts, on a clock that crawls as on a loaded machine (0.1 s
    a playout) as on a fast one: the same playouts, the same move. The wall-time cap (20 s)
    is far off here."""
    monkeypatch.setitem(search.MOVES, "base", 6_000)
    state = pr.new_game(4, 8)
    view = pr.player_view(state, 0)
    playout = search.playout
    moves, costs = [], []
    for tick in (0.0, 0.1):
        clock = [100.0]
        played = []

        def timed_playout(*args, tick=tick, clock=clock, played=played):
            clock[0] += tick
            result = playout(*args)
            played.append(result[2] + search.OVERHEAD)
            return result

        monkeypatch.setattr(search, "playout", timed_playout)
        monkeypatch.setattr(halving, "time", SimpleNamespace(perf_counter=lambda c=clock: c[0]))
        moves.append(choose_action(pr, view, bots=BOTS, level="hard", seed=1))
        costs.append(played)
    assert moves[0] == moves[1]
    assert costs[0] == costs[1]
    assert 6_000 - 3 * max(costs[0]) < sum(costs[0]) <= 6_000


def test_two_player_games_have_a_budget_of_their_own(monkeypatch):
    """The base game's budget of moves is ``MOVES`` with three to five players, and
    ``TWO_PLAYER_MOVES`` with two (on a clock that stands still: the cap plays no part)."""
    monkeypatch.setitem(search.MOVES, "base", 6_000)
    monkeypatch.setitem(search.TWO_PLAYER_MOVES, "base", 2_000)
    monkeypatch.setattr(halving, "time", SimpleNamespace(perf_counter=lambda: 100.0))
    playout = search.playout
    spent = {}
    for players in (2, 4):
        state = pr.new_game(players, 8)
        played = []

        def counted(*args, played=played):
            result = playout(*args)
            played.append(result[2] + search.OVERHEAD)
            return result

        monkeypatch.setattr(search, "playout", counted)
        search.choose(state, pr.player_view(state, 0), 1)
        spent[players] = (sum(played), max(played))
    for players, budget in ((2, 2_000), (4, 6_000)):
        total, longest = spent[players]
        assert budget - 7 * longest < total <= budget


def test_late_in_the_game_the_same_budget_buys_more_playouts(monkeypatch):
    """A budget of moves: playouts from the last round are short, so there are many more of
    them than from the first (on a clock that stands still: the cap plays no part)."""
    monkeypatch.setitem(search.MOVES, "base", 3_000)
    monkeypatch.setattr(halving, "time", SimpleNamespace(perf_counter=lambda: 100.0))
    state = pr.new_game(4, 8)
    rng = random.Random(3)
    round_starts = []
    while state.phase != "over":
        if state.phase == "role" and state.roles_chosen == 0:
            round_starts.append(state)
        state = pr.apply(state, policy.choose(state, Values(state), rng, 0.0))
    counts = []
    playout = search.playout
    for state in (round_starts[0], round_starts[-1]):
        played = []

        def counted(*args, played=played):
            played.append(1)
            return playout(*args)

        monkeypatch.setattr(search, "playout", counted)
        search.choose(state, pr.player_view(state, state.current), 1)
        counts.append(len(played))
    assert counts[1] > 3 * counts[0]


def test_bots_and_engines_import_no_django():
    """They run in any process (a Celery worker, a benchmark, a test) without the web app."""
    root = Path(__file__).resolve().parents[2] / "games"
    for path in [*(root / "bots").rglob("*.py"), *(root / "engines").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(n.split(".")[0] == "django" for n in names), path


# The Nobles ----------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["nobles", "both"])
@pytest.mark.parametrize("num_players", pr.PLAYER_COUNTS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_moves_with_the_nobles(level, num_players, edition):
    """The Nobles alone and with the New Buildings ("both")."""
    every = 11 if level == "hard" else 2
    for state, view in positions(num_players, 700 + num_players, every, edition=edition):
        action = choose_action(pr, view, bots=BOTS, level=level, seed=3, **kwargs(level))
        pr.check(state, action)


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_whole_games_with_the_nobles_finish(level):
    state = pr.new_game(3, 43, {"edition": "nobles"})
    move = 0
    while not pr.is_over(state):
        seat = pr.current_player(state)
        view = pr.player_view(state, seat)
        state = pr.apply(state, choose_action(pr, view, bots=BOTS, level=level, seed=move))
        move += 1
    assert sum(s.parts["nobles"] for s in pr.outcome(state)) > 0


def _nobles_table(anna: dict) -> pr.State:
    data = pr.new_game(3, 5, {"edition": "nobles"}).to_json()
    empty = {"doubloons": 0, "vp": 0, "goods": dict.fromkeys(pr.GOODS, 0), "island": {}}
    data["players"] = [
        {**empty, "city": {}, "san_juan": 0, "city_nobles": {}, "san_juan_nobles": 0, **anna},
        {**empty, "city": {}, "san_juan": 0, "city_nobles": {}, "san_juan_nobles": 0},
        {**empty, "city": {}, "san_juan": 0, "city_nobles": {}, "san_juan_nobles": 0},
    ]
    return pr.from_json(data)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_mayor_takes_the_ships_noble(level):
    state = _nobles_table({"island": {"corn": {"tiles": 3, "colonists": 0}}})
    state = pr.apply(state, pr.ChooseRole("mayor"))
    action = choose_action(
        pr, pr.player_view(state, 0), bots=BOTS, level=level, seed=1, **kwargs(level)
    )
    assert action.take_noble and sum(action.noble_island) == 1


def test_the_royal_supplier_trades_barrels_no_ship_takes():
    """Coffee and tobacco fit on no ship (each carries another kind) and would spoil: a VP
    each now is better."""
    state = _nobles_table(
        {
            "goods": {**dict.fromkeys(pr.GOODS, 0), "coffee": 1, "tobacco": 1},
            "island": {"corn": {"tiles": 2, "colonists": 0, "nobles": 2}},
            "city": {"royal_supplier": 1},
            "san_juan": 2,
        }
    )
    state.ships = [
        Ship(ship.capacity, g, 1) for ship, g in zip(state.ships, (0, 1, 2), strict=True)
    ]
    for g in (0, 1, 2):
        state.goods[g] -= 1
    state = pr.apply(state, pr.ChooseRole("captain"))
    assert state.current == 0
    action = choose_action(pr, pr.player_view(state, 0), bots=BOTS, level="medium", seed=1)
    assert action == pr.RoyalSupplier((3, 4))


def test_the_bots_know_every_building_of_the_nobles():
    """Each building earns something in the bots' eyes beyond its VP (so they build it when
    it pays), and a noble goes where a noble does more."""
    from games.bots import knowledge

    nobles = [name for name, b in pr.BUILDINGS.items() if b.expansion == "nobles"]
    state = _nobles_table(
        {"island": {"corn": {"tiles": 2, "colonists": 0, "nobles": 2}}, "san_juan": 2}
    )
    values = knowledge.Values(state)
    pl = state.players[0]
    for name in nobles:
        if name in knowledge.LARGE:
            assert knowledge.large_bonus(pl, name) == 2, name
        else:
            assert values.violet_use(pl, name) > 0, name
    island, city = [0] * 6, {"chapel": 1, "land_office": 1}
    assert knowledge.noble_placement(pl, island, city, 1) == (
        [0] * 6,
        {"chapel": 1, "land_office": 0},
    )


# Both expansions ----------------------------------------------------------------------------


def test_a_whole_game_with_both_expansions_finishes():
    state = pr.new_game(4, 47, {"edition": "both"})
    move = 0
    while not pr.is_over(state):
        view = pr.player_view(state, pr.current_player(state))
        state = pr.apply(state, choose_action(pr, view, bots=BOTS, level="medium", seed=move))
        move += 1
    assert state.drafted and sum(s.parts["nobles"] for s in pr.outcome(state)) > 0
