"""The AI players in the New Buildings edition: legal moves at every level (the draft, the
new choices), from the seat's view only; and they know each new building's worth."""

from __future__ import annotations

import random

import pytest

from games.bots import LEVELS, choose_action
from games.bots.knowledge import DRAFT_VALUE, Values
from games.bots.policy import GAINS, building_worth, choose
from games.bots.puerto_rico import BOTS
from games.engines import puerto_rico as pr
from games.engines.puerto_rico.actions import PASS, MoveGuest
from games.engines.puerto_rico.builder import price
from games.engines.puerto_rico.data import BUILDINGS, NEW_BUILDINGS, NOBLES
from games.engines.puerto_rico.state import Player
from tests.engines.positions import CHRIS, play, player
from tests.engines.positions import choose as choose_role
from tests.engines.test_new_buildings import nb_position

NEW = {"edition": "new_buildings"}
HARD = {"simulations": 2}


def positions(num_players: int, seed: int, every: int = 1):
    """(state, view) at each ``every``-th decision of a New Buildings game played by random
    and easy players."""
    rng = random.Random(seed)
    state = pr.new_game(num_players, seed, {**NEW, "hidden_vp": seed % 2 == 1})
    move = 0
    while not pr.is_over(state):
        view = pr.player_view(state, pr.current_player(state))
        if move % every == 0:
            yield state, view
        level = "random" if rng.random() < 0.3 else "easy"
        state = pr.apply(
            state, choose_action(pr, view, bots=BOTS, level=level, seed=seed * 1000 + move)
        )
        move += 1


@pytest.mark.parametrize("num_players", pr.PLAYER_COUNTS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_moves_with_the_new_buildings(level, num_players):
    every = 11 if level == "hard" else 2
    for state, view in positions(num_players, 300 + num_players, every=every):
        action = choose_action(
            pr, view, bots=BOTS, level=level, seed=5, **(HARD if level == "hard" else {})
        )
        pr.check(state, action)


def test_determinize_keeps_the_legal_actions_with_the_new_buildings():
    for state, view in positions(4, 7, every=5):
        guess = pr.determinize(view, 3)
        assert pr.player_view(guess, view["seat"]) == view
        assert list(pr.legal_actions(guess)) == list(pr.legal_actions(state))


def heuristic(state: pr.State) -> pr.Action:
    return choose(state, Values(state), random.Random(0))


def test_the_heuristic_moves_a_guest_to_the_storehouse_before_storage_if_it_saves_barrels():
    def before_storage(goods: dict[str, int]) -> pr.State:
        state = nb_position(
            [
                player(),
                player(),
                player(goods=goods, city={"guest_house": 1, "storehouse": 0}),
            ],
            ships=[("corn", 4), ("indigo", 5), ("sugar", 6)],
        )
        state = play(choose_role(state, "captain"), PASS)  # the window at the phase's start
        assert (state.phase, state.guests_then) == ("guests", "storage")
        return state

    assert heuristic(before_storage({"corn": 3, "tobacco": 1})) == MoveGuest("storehouse")
    assert heuristic(before_storage({"tobacco": 1})) == PASS  # nothing to save


def test_the_heuristic_moves_a_guest_to_a_large_building_before_the_final_scoring():
    def last_window(city: dict[str, int]) -> pr.State:
        state = nb_position(
            [player(), player(), player(island={"corn": (1, 0)}, city=city)],
            seat=1,
            governor=CHRIS,
            taken={"settler": CHRIS, "builder": 0},
        )
        state.end_reasons = ["city"]
        state = play(choose_role(state, "trader"), PASS)  # the window at the phase's start
        assert (state.phase, state.guests_then) == ("guests", "game_end")
        return state

    city = {"guest_house": 1, "guild_hall": 0, "small_indigo_plant": 0}
    assert heuristic(last_window(city)) == MoveGuest("guild_hall")
    assert heuristic(last_window({"guest_house": 1})) == PASS  # a plantation scores nothing


def test_medium_players_draft_and_build_new_buildings():
    built = set()
    for seed in range(2):
        state = pr.new_game(3, seed, NEW)
        move = 0
        while not pr.is_over(state):
            view = pr.player_view(state, pr.current_player(state))
            state = pr.apply(state, choose_action(pr, view, bots=BOTS, level="medium", seed=move))
            move += 1
        built |= {b for pl in state.players for b in pl.city}
    assert {b for b in built if BUILDINGS[b].expansion == NEW_BUILDINGS}


def test_the_heuristic_knows_every_new_building():
    new = [b for b in BUILDINGS.values() if b.expansion == NEW_BUILDINGS]
    # The draft's pool: the violet buildings of the base game and of Expansion I.
    drafted = {b.name for b in BUILDINGS.values() if b.violet and b.expansion != NOBLES}
    assert set(DRAFT_VALUE) == drafted
    values = Values(pr.new_game(4, 1, NEW))
    pl = Player()
    pl.tiles = [2, 2, 2, 1, 0, 1]
    pl.city = {"indigo_plant": 1, "sugar_mill": 1}
    for b in new:
        # Each is worth more than its bare VP early in a game: a bot does not pass it by
        # (the statue, which no colonist works, is its 8 VP).
        worth = building_worth(pl, [0, 3, 3, 0, 0], b.name, values)
        assert worth > b.vp if b.circles else worth == b.vp == 8, b.name


def test_the_builders_estimate_counts_every_doubloon_that_forests_save():
    """Two pairs of forests and a worked quarry take 3 doubloons off a small warehouse: a seat
    with no money can build it, and the builder's estimate for that seat must see it."""
    board = {b.name: 0 for b in BUILDINGS.values() if b.expansion != NOBLES}
    state = nb_position(
        [player(), player(island={"quarry": (1, 1)}), player()],
        forests={1: 4},
        buildings={**board, "small_warehouse": 2},
    )
    assert price(state, 1, BUILDINGS["small_warehouse"]) == 0
    gains = GAINS["builder"](state, Values(state), 0)
    assert gains[1] > 0
    assert gains[0] == 0  # no forests, no quarry: 3 doubloons short
