"""The rulebook's notes and special cases, each its own test, and what bad input does.

Expected values come from the rulebooks in ``shared/rules/source`` (German 2011 rulebook where
the English renderings differ).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import (
    COFFEE,
    CORN,
    INDIGO,
    QUARRY,
    SUGAR,
    TOBACCO,
    Arrange,
    Build,
    ChooseRole,
    ExtraGood,
    IllegalAction,
    Load,
    MalformedAction,
    Sell,
    Settle,
    Store,
    Wharf,
)
from games.engines.puerto_rico.actions import HACIENDA, PASS

from .positions import (
    ANNA,
    BOB,
    CHRIS,
    DAVID,
    choose,
    goods_of,
    island,
    play,
    player,
    position,
    ships_of,
)

ELEVEN_SMALL = dict.fromkeys(
    (
        "small_indigo_plant",
        "small_sugar_mill",
        "indigo_plant",
        "sugar_mill",
        "tobacco_storage",
        "coffee_roaster",
        "small_market",
        "hacienda",
        "construction_hut",
        "small_warehouse",
        "hospice",
    ),
    0,
)
# Full ships of three kinds (3 and 4 players): nothing else can be loaded; they are emptied
# after storage.
BLOCKED_SHIPS = [("tobacco", 4), ("coffee", 5), ("indigo", 6)]
BLOCKED_SHIPS_4 = [("tobacco", 5), ("coffee", 6), ("indigo", 7)]


def finish_round(state: pr.State, *roles: str) -> pr.State:
    """The remaining seats take roles in which nothing happens for anybody."""
    for role in roles:
        assert state.phase == "role"
        state = choose(state, role)
    return state


def assert_illegal(state: pr.State, action: pr.Action, code: str, **params: Any) -> None:
    """Refused with the code of the rule broken and what explains it, and the state is left
    as it was."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as applied:
        pr.apply(state, action)
    with pytest.raises(IllegalAction) as checked:
        pr.check(state, action)
    assert (applied.value.code, applied.value.params) == (code, params)
    assert (checked.value.code, checked.value.params) == (code, params)
    assert state.to_json() == before
    assert action not in list(pr.legal_actions(state))


# --- Setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "doubloons", "starts", "ships", "colonists", "vp", "roles"),
    [
        (3, 2, [1, 1, 0], [4, 5, 6], (55, 3), 75, 6),
        (4, 3, [1, 1, 0, 0], [5, 6, 7], (75, 4), 100, 7),
        (5, 4, [1, 1, 1, 0, 0], [6, 7, 8], (95, 5), 122, 8),
    ],
)
def test_setup_by_player_count(n, doubloons, starts, ships, colonists, vp, roles):
    state = pr.new_game(n, 3)
    data = state.to_json()
    assert [p["doubloons"] for p in data["players"]] == [doubloons] * n
    # Governor indigo, then indigo/corn clockwise (1 = indigo, 0 = corn).
    assert [1 if "indigo" in p["island"] else 0 for p in data["players"]] == starts
    assert [s["capacity"] for s in data["ships"]] == ships
    assert (state.colonist_supply, state.colonist_ship) == colonists
    assert state.vp_chips == vp
    assert len(state.roles) == roles
    assert len(state.face_up) == n + 1
    assert data["goods"] == {"corn": 10, "indigo": 11, "sugar": 11, "tobacco": 9, "coffee": 9}
    assert len(state.stack) + len(state.face_up) + n == 50
    assert state.quarries == 8
    assert sum(state.buildings.values()) == 49


# --- Craftsman and the goods supply ----------------------------------------------------------


def test_production_goes_without_when_the_supply_runs_out_in_turn_from_the_craftsman():
    corn2 = {"corn": (2, 2)}
    state = position(
        [player(island=corn2), player(island=corn2), player(island=corn2), player(island=corn2)],
        seat=BOB,
        governor=ANNA,
        goods={"corn": 3},
    )
    state = choose(state, "craftsman")
    # Bob (craftsman) 2, Chris 1, David and Anna nothing; no corn left for Bob's privilege.
    assert [goods_of(state, s).get("corn", 0) for s in range(4)] == [0, 2, 1, 0]
    assert state.phase == "role"
    assert state.current == CHRIS


def test_craftsman_privilege_only_of_a_kind_he_produced():
    anna = player(
        island={"corn": (1, 1), "indigo": (1, 1), "sugar": (1, 1)},
        city={"small_indigo_plant": 1},
    )
    state = choose(position([anna, player(), player()]), "craftsman")
    assert goods_of(state, ANNA) == {"corn": 1, "indigo": 1}  # no sugar mill: no sugar
    assert list(pr.legal_actions(state)) == [ExtraGood(CORN), ExtraGood(INDIGO), PASS]
    assert_illegal(state, ExtraGood(SUGAR), "not_produced", good="sugar")
    log: list[dict] = []
    state = play(state, ExtraGood(INDIGO), log=log)
    assert goods_of(state, ANNA) == {"corn": 1, "indigo": 2}
    assert log == [{"event": "extra_good", "seat": ANNA, "good": "indigo"}]


def test_craftsman_who_produced_nothing_gets_no_extra_barrel():
    anna = player(island={"sugar": (2, 2)})  # no sugar mill
    bob = player(island={"corn": (1, 1)})
    state = choose(position([anna, bob, player()]), "craftsman")
    assert state.phase == "role"
    assert goods_of(state, ANNA) == {}
    assert goods_of(state, BOB) == {"corn": 1}


def test_craftsman_may_decline_his_privilege():
    state = choose(position([player(island={"corn": (1, 1)}), player(), player()]), "craftsman")
    state = play(state, PASS)
    assert goods_of(state, ANNA) == {"corn": 1}
    assert state.phase == "role"


@pytest.mark.parametrize(("kinds", "bonus"), [(1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_factory_pays_for_kinds_produced(kinds, bonus):
    plantations = ["corn", "indigo", "sugar", "tobacco", "coffee"][:kinds]
    city = {"factory": 1, "small_indigo_plant": 1, "small_sugar_mill": 1}
    city |= {"tobacco_storage": 1, "coffee_roaster": 1}
    anna = player(island=dict.fromkeys(plantations, (1, 1)), city=city)
    state = choose(position([player(), anna, player()]), "craftsman")
    assert state.players[BOB].doubloons == bonus


def test_unoccupied_factory_pays_nothing():
    anna = player(island={"corn": (1, 1), "indigo": (1, 1)}, city={"factory": 0, "indigo_plant": 1})
    state = choose(position([player(), anna, player()]), "craftsman")
    assert goods_of(state, BOB) == {"corn": 1, "indigo": 1}
    assert state.players[BOB].doubloons == 0


# --- Settler ---------------------------------------------------------------------------------


def test_short_plantation_stack_draws_what_is_left_then_reshuffles_the_discards():
    state = position(
        [player(), player(), player(), player()],
        face_up=["corn", "sugar", "sugar", "tobacco", "tobacco"],
        stack=["corn", "indigo"],
        discards=["coffee", "coffee", "coffee"],
    )
    state = choose(state, "settler")
    state = play(state, Settle(SUGAR), Settle(SUGAR), Settle(TOBACCO), PASS)
    assert state.phase == "role"
    face_up = [pr.GOODS[k] for k in state.face_up]
    assert len(face_up) == 5  # one more than the players
    # The last two of the stack come first; the rest from the reshuffled discards, which by now
    # hold the row's untaken corn and tobacco as well.
    assert (Counter(face_up) - Counter(["corn", "indigo"])).total() == 3
    rest = face_up + [pr.GOODS[k] for k in state.stack]
    assert Counter(rest) == Counter(
        ["corn", "indigo", "coffee", "coffee", "coffee", "corn", "tobacco"]
    )
    assert len(state.stack) == 2
    assert state.discards == []


def test_no_plantations_left_players_do_without():
    state = position(
        [player(), player(), player()],
        face_up=["corn", "indigo", "sugar", "tobacco"],
        stack=[],
        discards=[],
    )
    state = choose(state, "settler")
    state = play(state, Settle(CORN), Settle(INDIGO), Settle(SUGAR))
    assert [pr.GOODS[k] for k in state.face_up] == ["tobacco"]  # only the untaken one
    assert state.stack == [] and state.discards == []

    # A later settler phase with no plantation anywhere: the settler may still take a quarry,
    # the others have nothing to take and are passed over.
    state = position(
        [player(), player(), player()], face_up=[], stack=[], discards=[], seat=BOB, governor=ANNA
    )
    state = choose(state, "settler")
    assert list(pr.legal_actions(state)) == [Settle(QUARRY), PASS]
    state = play(state, Settle(QUARRY))
    assert state.phase == "role"
    assert state.face_up == []


def test_settler_phase_draws_one_more_plantation_than_players():
    state = choose(pr.new_game(3, 11), "settler")
    state = play(state, PASS, PASS, PASS)
    assert len(state.face_up) == 4
    assert len(state.discards) == 4


def test_settler_events():
    state = position(
        [player(), player(), player()],
        face_up=["corn", "indigo", "sugar", "tobacco"],
        stack=["coffee", "corn", "sugar", "indigo"],
    )
    log: list[dict] = []
    state = play(choose(state, "settler", log), Settle(INDIGO), Settle(CORN), PASS, log=log)
    assert log == [
        {"event": "role", "seat": ANNA, "role": "settler", "doubloons": 0},
        {"event": "settle", "seat": ANNA, "tile": "indigo", "colonist": False},
        {"event": "settle", "seat": BOB, "tile": "corn", "colonist": False},
        {"event": "settle_nothing", "seat": CHRIS},
        # The top of the stack is its last tile; the new row is shown sorted.
        {"event": "plantations_drawn", "tiles": ["corn", "indigo", "sugar", "coffee"]},
    ]


def test_only_the_settler_takes_a_quarry_as_privilege():
    state = choose(position([player(), player(), player()], quarries=5), "settler")
    assert Settle(QUARRY) in pr.legal_actions(state)
    state = play(state, Settle(QUARRY))
    assert state.quarries == 4
    assert state.players[ANNA].tiles[QUARRY] == 1
    assert state.current == BOB
    assert_illegal(state, Settle(QUARRY), "quarry_not_allowed")


def test_construction_hut_takes_a_quarry_instead_of_a_plantation():
    state = position(
        [player(), player(city={"construction_hut": 1}), player(city={"construction_hut": 0})]
    )
    state = choose(state, "settler")
    state = play(state, PASS)
    assert state.current == BOB
    state = play(state, Settle(QUARRY))
    assert state.players[BOB].tiles[QUARRY] == 1
    assert state.current == CHRIS  # unoccupied: no use
    assert_illegal(state, Settle(QUARRY), "quarry_not_allowed")


def test_quarries_run_out_no_settler_privilege_and_no_construction_hut():
    state = position(
        [player(city={"construction_hut": 1}), player(city={"construction_hut": 1}), player()],
        quarries=0,
    )
    state = choose(state, "settler")
    assert Settle(QUARRY) not in pr.legal_actions(state)
    assert_illegal(state, Settle(QUARRY), "quarries_gone")
    state = play(state, PASS)
    assert_illegal(state, Settle(QUARRY), "quarries_gone")


def test_hacienda_draws_before_the_face_up_tile_and_never_a_quarry():
    state = position(
        [player(), player(city={"hacienda": 1, "construction_hut": 1}), player()],
        stack=["coffee", "tobacco"],
        quarries=3,
    )
    state = choose(state, "settler")
    state = play(state, PASS)
    assert state.current == BOB
    assert pr.legal_actions(state)[0] == HACIENDA
    log: list[dict] = []
    state = play(state, HACIENDA, log=log)
    assert state.players[BOB].tiles[TOBACCO] == 1  # the top face-down tile
    assert state.quarries == 3
    assert state.current == BOB  # his normal turn follows
    assert_illegal(state, HACIENDA, "hacienda_used")
    state = play(state, Settle(QUARRY), log=log)  # construction hut: quarry instead of face-up
    assert state.players[BOB].tiles[QUARRY] == 1
    assert sum(state.players[BOB].tiles) == 2
    assert log == [
        {"event": "hacienda", "seat": BOB, "tile": "tobacco"},
        {"event": "settle", "seat": BOB, "tile": "quarry", "colonist": False},
    ]


def test_hacienda_is_optional_and_only_for_its_occupied_owner():
    state = position(
        [player(city={"hacienda": 0}), player(city={"hacienda": 1}), player()],
        stack=["coffee"],
    )
    state = choose(state, "settler")
    assert_illegal(state, HACIENDA, "no_hacienda")
    state = play(state, PASS)
    face_up = list(state.face_up)
    state = play(state, Settle(face_up[0]))  # Bob skips his hacienda
    assert sum(state.players[BOB].tiles) == 1


def test_hacienda_with_an_empty_stack():
    state = position([player(city={"hacienda": 1}), player(), player()], stack=[])
    state = choose(state, "settler")
    assert HACIENDA not in pr.legal_actions(state)
    assert_illegal(state, HACIENDA, "stack_empty")


def test_no_hospice_colonist_on_the_hacienda_tile():
    state = position(
        [player(city={"hacienda": 1, "hospice": 1}), player(), player()],
        stack=["coffee", "sugar"],
        face_up=["corn", "indigo", "indigo", "tobacco"],
        colonists=(10, 3),
    )
    state = choose(state, "settler")
    state = play(state, HACIENDA)
    assert state.players[ANNA].tiles[SUGAR] == 1
    assert state.players[ANNA].worked[SUGAR] == 0
    assert state.colonist_supply == 10
    state = play(state, Settle(TOBACCO, hospice=True))
    assert state.players[ANNA].worked[TOBACCO] == 1
    assert state.colonist_supply == 9


def test_hacienda_not_with_a_full_island():
    eleven = {"corn": 5, "indigo": 6}
    twelve = {"corn": 6, "indigo": 6}
    state = position(
        [
            player(island=eleven, city={"hacienda": 1}),
            player(island=twelve, city={"hacienda": 1}),
            player(),
        ],
        stack=["coffee", "sugar"],
    )
    state = choose(state, "settler")
    state = play(state, HACIENDA)  # the eleventh space filled with the 12th tile
    assert sum(state.players[ANNA].tiles) == 12
    assert state.players[ANNA].tiles[SUGAR] == 1
    if state.current == ANNA:  # nothing left to choose but passing
        assert list(pr.legal_actions(state)) == [PASS]
        assert_illegal(state, Settle(state.face_up[0]), "island_full")
        state = play(state, PASS)
    assert len(state.face_up) == 4  # the row is untouched
    assert state.current == CHRIS  # Bob's island is full: he takes nothing, not even by hacienda


def test_hospice_colonist_from_the_ship_when_the_supply_is_empty():
    state = position([player(city={"hospice": 1}), player(), player()], colonists=(0, 3))
    state = choose(state, "settler")
    log: list[dict] = []
    state = play(state, Settle(QUARRY, hospice=True), log=log)
    assert state.players[ANNA].worked[QUARRY] == 1
    assert (state.colonist_supply, state.colonist_ship) == (0, 2)
    assert log == [{"event": "settle", "seat": ANNA, "tile": "quarry", "colonist": True}]


def test_hospice_no_colonist_when_supply_and_ship_are_empty():
    state = position([player(city={"hospice": 1}), player(), player()], colonists=(0, 0))
    state = choose(state, "settler")
    assert not any(getattr(a, "hospice", False) for a in pr.legal_actions(state))
    assert_illegal(state, Settle(QUARRY, hospice=True), "no_colonist")
    state = play(state, Settle(QUARRY))
    assert state.players[ANNA].worked[QUARRY] == 0


def test_unoccupied_hospice_gives_no_colonist():
    state = position([player(city={"hospice": 0}), player(), player()])
    state = choose(state, "settler")
    assert_illegal(state, Settle(QUARRY, hospice=True), "no_hospice")


def test_full_island_takes_no_tile():
    full = {"corn": 6, "indigo": 6}
    state = position([player(island=full), player(), player()])
    state = choose(state, "settler")
    assert state.current == BOB  # the settler himself had nothing to take


# --- Mayor -----------------------------------------------------------------------------------


def test_mayor_cannot_take_his_privilege_when_the_supply_is_empty():
    state = position([player(island={"corn": 3}) for _ in range(3)], colonists=(0, 3))
    state = choose(state, "mayor")
    assert not any(a.privilege for a in pr.legal_actions(state))
    assert_illegal(state, Arrange(island(2), privilege=True), "colonist_supply_empty")


def test_only_the_mayor_takes_the_privilege_colonist():
    state = position([player(island={"corn": 3}) for _ in range(3)], colonists=(20, 3))
    state = choose(state, "mayor")
    state = play(state, Arrange(island(1)))  # he may decline it
    assert state.colonist_supply == 20
    assert_illegal(state, Arrange(island(2), privilege=True), "privilege_not_mayor")


def test_colonists_run_out_game_ends_at_the_end_of_the_round_not_at_once():
    boards = [player(island={"corn": 3}) for _ in range(4)]
    state = position(boards, colonists=(3, 4))
    log: list[dict] = []
    state = choose(state, "mayor", log)
    state = play(state, Arrange(island(2), privilege=True), log=log)
    state = play(state, *[Arrange(island(1))] * 3, log=log)
    # 4 needed (one per player), 2 left: they board, and the game will end this round.
    assert (state.colonist_supply, state.colonist_ship) == (0, 2)
    assert state.end_reasons == ["colonists"]
    assert log[-2:] == [
        {"event": "colonist_ship_filled", "colonists": 2, "needed": 4},
        {"event": "game_ends", "reason": "colonists"},
    ]
    assert state.phase == "role" and state.current == BOB
    state = finish_round(state, "prospector", "trader")
    assert state.phase == "role" and state.current == DAVID
    state = finish_round(state, "captain")
    assert pr.is_over(state)
    assert pr.current_player(state) is None
    assert pr.legal_actions(state) == []


def test_colonist_refill_minimum_is_the_player_count_even_with_no_empty_building_circles():
    state = position([player(island={"corn": 3}) for _ in range(3)], colonists=(30, 3))
    state = choose(state, "mayor")
    state = play(state, *[Arrange(island(1))] * 3)
    assert (state.colonist_supply, state.colonist_ship) == (27, 3)
    assert state.end_reasons == []


def test_colonist_refill_counts_empty_building_circles_of_all_players_not_plantations():
    state = position(
        [
            player(city={"indigo_plant": 0}),
            player(city={"coffee_roaster": 0, "small_market": 0}),
            player(island={"corn": 4}),
        ],
        colonists=(30, 0),
    )
    state = choose(state, "mayor")
    state = play(state, *[Arrange(island())] * 3)
    assert state.colonist_ship == 3 + 2 + 1
    assert state.colonist_supply == 24


def test_colonists_wait_in_san_juan_only_when_every_circle_is_full():
    state = position(
        [
            player(island={"corn": (1, 1)}, city={"indigo_plant": 0}),
            player(island={"corn": (1, 1)}, san_juan=1),
            player(),
        ],
        colonists=(20, 3),
    )
    state = choose(state, "mayor")
    assert state.players[ANNA].colonists() == 2
    assert_illegal(state, Arrange(island(1)), "circles_empty")
    assert_illegal(state, Arrange(island(0), (("indigo_plant", 1),)), "circles_empty")
    state = play(state, Arrange(island(1), (("indigo_plant", 1),)))
    # Bob has one circle and three colonists: two wait in San Juan.
    state = play(state, Arrange(island(1)))
    assert state.players[BOB].san_juan == 2
    assert state.players[BOB].worked[CORN] == 1


def test_mayor_phase_colonists_may_be_moved():
    state = position(
        [player(island={"corn": (1, 1)}, city={"small_market": 0}), player(), player()],
        colonists=(20, 0),
    )
    state = choose(state, "mayor")
    state = play(state, Arrange(island(0), (("small_market", 1),)))
    assert state.players[ANNA].worked[CORN] == 0
    assert state.players[ANNA].city["small_market"] == 1


def test_mayor_placement_goes_round_from_the_mayor():
    state = position([player(island={"corn": 2}) for _ in range(3)], seat=CHRIS, colonists=(20, 3))
    state = choose(state, "mayor")
    order = []
    while state.phase == "mayor":
        order.append(state.current)
        state = play(state, pr.legal_actions(state)[0])
    assert order == [CHRIS, ANNA, BOB]


# --- Builder ---------------------------------------------------------------------------------


def test_large_building_needs_two_city_spaces():
    state = position([player(doubloons=20, city=ELEVEN_SMALL), player(), player()])
    state = choose(state, "builder")
    legal = pr.legal_actions(state)
    assert Build("office") in legal
    assert not any(pr.BUILDINGS[a.building].large for a in legal if a.type == "build")
    assert_illegal(
        state, Build("city_hall"), "no_city_space", building="city_hall", spaces=2, free=1
    )


def test_twelfth_city_space_ends_the_game_at_the_end_of_the_round():
    anna = player(doubloons=4, city=ELEVEN_SMALL, vp=5)
    state = position([anna, player(doubloons=1), player(), player()])
    log: list[dict] = []
    state = choose(state, "builder", log)
    state = play(state, Build("office"), log=log)
    assert log[1:] == [
        {"event": "build", "seat": ANNA, "building": "office", "price": 4, "colonist": False},
        {"event": "game_ends", "reason": "city"},
    ]
    assert state.end_reasons == ["city"]
    assert state.current == BOB  # the builder phase goes on
    state = play(state, Build("small_market"))
    assert state.phase == "role" and state.current == BOB  # Chris and David cannot build
    state = finish_round(state, "prospector", "trader", "craftsman")
    assert pr.is_over(state)
    anna = pr.outcome(state)[ANNA]
    assert anna.score == 5 + (1 + 1 + 2 + 2 + 3 + 3) + (1 + 1 + 1 + 1 + 2) + 2
    assert anna.placement == 1 and [s.placement for s in pr.outcome(state)].count(1) == 1


def test_full_city_builds_nothing():
    city = ELEVEN_SMALL | {"office": 0}
    state = position([player(doubloons=20, city=city), player(), player()])
    state = choose(state, "builder")
    assert state.current == BOB  # Anna is passed over


def test_builder_privilege_is_lost_when_he_does_not_build():
    state = position([player(doubloons=3), player(doubloons=1), player()])
    state = choose(state, "builder")
    state = play(state, PASS)
    assert state.players[ANNA].doubloons == 3
    state = play(state, Build("small_market"))  # Bob pays the full price
    assert state.players[BOB].doubloons == 0
    assert state.phase == "role"  # Chris, without money, is passed over


def test_each_building_once_per_player():
    state = position([player(doubloons=9, city={"small_market": 0}), player(), player()])
    state = choose(state, "builder")
    assert_illegal(state, Build("small_market"), "already_built", building="small_market")


def test_no_copy_left_on_the_board():
    state = position([player(doubloons=9), player(), player()], buildings={"harbor": 0})
    state = choose(state, "builder")
    assert_illegal(state, Build("harbor"), "building_gone", building="harbor")


def test_university_colonist_from_the_supply_then_the_ship_then_none():
    def build(colonists):
        state = position(
            [player(doubloons=9, city={"university": 1}), player(), player()],
            colonists=colonists,
        )
        return choose(state, "builder")

    state = play(build((5, 3)), Build("indigo_plant", university=True))
    assert state.players[ANNA].city["indigo_plant"] == 1  # one colonist, though 3 circles
    assert (state.colonist_supply, state.colonist_ship) == (4, 3)
    state = play(build((0, 3)), Build("indigo_plant", university=True))
    assert state.players[ANNA].city["indigo_plant"] == 1
    assert (state.colonist_supply, state.colonist_ship) == (0, 2)
    state = build((0, 0))
    assert not any(getattr(a, "university", False) for a in pr.legal_actions(state))
    assert_illegal(state, Build("indigo_plant", university=True), "no_colonist")


# --- Captain ---------------------------------------------------------------------------------


def test_vp_chips_run_out_mid_captain_later_loads_still_score_game_ends_at_round_end():
    state = position(
        [
            player(goods={"corn": 2}),
            player(goods={"sugar": 3}),
            player(goods={"indigo": 1}),
            player(),
        ],
        vp_chips=3,
    )
    state = choose(state, "captain")
    state = play(state, Load(CORN, 0))  # 2 + 1: the last chips
    assert state.vp_chips == 0
    assert state.end_reasons == ["vp_chips"]
    assert state.phase == "captain"
    state = play(state, pr.legal_actions(state)[0])  # Bob's 3 sugar still count
    state = play(state, pr.legal_actions(state)[0])  # Chris's indigo
    assert [pl.vp for pl in state.players] == [3, 3, 1, 0]
    assert state.phase == "role"
    state = finish_round(state, "prospector", "trader", "craftsman")
    assert pr.is_over(state)
    assert [s.parts["chips"] for s in pr.outcome(state)] == [3, 3, 1, 0]


def test_captain_privilege_only_if_he_loads():
    state = position(
        [player(goods={"corn": 2}), player(goods={"sugar": 2}), player()],
        ships=[("corn", 4), ("indigo", 5), (None, 0)],
    )
    state = choose(state, "captain")
    assert state.current == BOB  # Anna's corn has no room
    state = play(state, Load(SUGAR, 2))
    assert [pl.vp for pl in state.players] == [0, 2, 0]


def test_captain_privilege_only_once_even_with_the_wharf():
    state = position(
        [player(goods={"corn": 2, "sugar": 3}, city={"wharf": 1}), player(), player()],
    )
    state = choose(state, "captain")
    state = play(state, Wharf(SUGAR))
    assert state.players[ANNA].vp == 3 + 1
    state = play(state, Load(CORN, 0))
    assert state.players[ANNA].vp == 4 + 2


def test_must_load_when_able_and_the_warehouse_does_not_protect():
    state = position(
        [player(goods={"corn": 2}, city={"large_warehouse": 1}), player(), player()],
    )
    state = choose(state, "captain")
    assert list(pr.legal_actions(state)) == [Load(CORN, 0), Load(CORN, 1), Load(CORN, 2)]
    assert_illegal(state, PASS, "must_load")


def test_several_empty_ships_taking_as_many_are_a_free_choice():
    state = choose(position([player(goods={"sugar": 4}), player(), player()]), "captain")
    assert list(pr.legal_actions(state)) == [Load(SUGAR, 0), Load(SUGAR, 1), Load(SUGAR, 2)]
    state = choose(position([player(goods={"sugar": 5}), player(), player()]), "captain")
    assert list(pr.legal_actions(state)) == [Load(SUGAR, 1), Load(SUGAR, 2)]
    assert_illegal(state, Load(SUGAR, 0), "not_largest_ship")


def test_a_kind_on_a_full_ship_goes_on_no_other_ship():
    state = position(
        [player(goods={"corn": 2, "tobacco": 1}), player(), player()],
        ships=[("tobacco", 4), ("sugar", 2), (None, 0)],
    )
    state = choose(state, "captain")
    assert list(pr.legal_actions(state)) == [Load(CORN, 2)]
    assert_illegal(state, Load(TOBACCO, 2), "good_on_other_ship", good="tobacco")
    assert_illegal(state, Load(TOBACCO, 0), "ship_full", capacity=4)
    assert_illegal(state, Load(CORN, 1), "ship_has_other_good", capacity=5, good="sugar")


def test_loading_one_kind_as_many_as_fit():
    state = position(
        [player(goods={"corn": 5, "sugar": 2}), player(), player()],
        ships=[("corn", 1), (None, 0), (None, 0)],
    )
    state = choose(state, "captain")
    state = play(state, Load(CORN, 0))
    assert ships_of(state)[0] == (4, "corn", 4)
    assert goods_of(state, ANNA) == {"corn": 2, "sugar": 2}
    assert state.players[ANNA].vp == 3 + 1


def test_wharf_once_per_captain_phase():
    state = position(
        [player(), player(goods={"corn": 2, "sugar": 4}, city={"wharf": 1}), player()],
        ships=[("sugar", 2), ("tobacco", 5), ("coffee", 6)],
    )
    state = choose(state, "captain")
    assert state.current == BOB
    assert set(pr.legal_actions(state)) == {Load(SUGAR, 0), Wharf(CORN), Wharf(SUGAR)}
    state = play(state, Wharf(CORN))
    assert state.players[BOB].vp == 2
    assert state.current == BOB
    assert list(pr.legal_actions(state)) == [Load(SUGAR, 0)]
    assert_illegal(state, Wharf(SUGAR), "wharf_used")


def test_wharf_may_be_used_while_a_ship_could_take_the_goods():
    state = position(
        [player(), player(goods={"sugar": 4}, city={"wharf": 1}), player()],
        ships=[("sugar", 2), (None, 0), (None, 0)],
    )
    state = choose(state, "captain")
    state = play(state, Wharf(SUGAR))
    assert state.players[BOB].vp == 4
    assert ships_of(state)[0] == (4, "sugar", 2)
    assert state.to_json()["goods"]["sugar"] == 11 - 2


def test_player_with_only_the_wharf_may_pass():
    state = position(
        [player(goods={"corn": 2, "sugar": 1}, city={"wharf": 1}), player(), player()],
        ships=BLOCKED_SHIPS,
    )
    state = choose(state, "captain")
    assert list(pr.legal_actions(state)) == [Wharf(CORN), Wharf(SUGAR), PASS]
    log: list[dict] = []
    state = play(state, PASS, log=log)
    assert log[0] == {"event": "wharf_declined", "seat": ANNA}
    # Loading is over; Anna keeps one barrel of her choice.
    assert state.phase == "storage"
    assert set(pr.legal_actions(state)) == {Store(CORN), Store(SUGAR)}


def test_unoccupied_wharf_is_no_use():
    state = position(
        [player(goods={"corn": 2}, city={"wharf": 0}), player(goods={"corn": 1}), player()],
        ships=BLOCKED_SHIPS,
    )
    state = choose(state, "captain")
    assert state.phase == "role"  # nobody could load, nobody had to store
    assert goods_of(state, ANNA) == {"corn": 1}


def test_harbor_bonus_applies_to_wharf_loads():
    state = position(
        [player(goods={"coffee": 3}, city={"wharf": 1, "harbor": 1}), player(), player()],
        seat=BOB,
        governor=ANNA,
    )
    state = choose(state, "captain")
    state = play(state, Wharf(COFFEE))
    assert state.players[ANNA].vp == 3 + 1


def test_storage_without_warehouse_keeps_one_barrel_of_the_seats_choice():
    state = position(
        [player(goods={"corn": 3, "sugar": 2}), player(), player()], ships=BLOCKED_SHIPS
    )
    state = choose(state, "captain")
    assert state.phase == "storage" and state.current == ANNA
    assert set(pr.legal_actions(state)) == {Store(CORN), Store(SUGAR)}
    assert_illegal(state, Store(), "windrose_empty")
    assert_illegal(state, Store(SUGAR, (CORN,)), "warehouse_too_small", kinds=0)
    log: list[dict] = []
    state = play(state, Store(SUGAR), log=log)
    assert goods_of(state, ANNA) == {"sugar": 1}
    assert state.to_json()["goods"]["corn"] == 10
    assert log[0] == {"event": "goods_returned", "seat": ANNA, "goods": {"corn": 3, "sugar": 1}}
    # The full ships are emptied after storing.
    assert ships_of(state) == [(4, None, 0), (5, None, 0), (6, None, 0)]


def test_storage_small_warehouse_keeps_one_kind():
    anna = player(goods={"corn": 3, "sugar": 2, "coffee": 2}, city={"small_warehouse": 1})
    state = choose(position([anna, player(), player()], ships=BLOCKED_SHIPS), "captain")
    assert len(pr.legal_actions(state)) == 3 * 2
    assert_illegal(state, Store(CORN), "warehouse_not_filled")
    assert_illegal(state, Store(CORN, (SUGAR, COFFEE)), "warehouse_too_small", kinds=1)
    assert_illegal(state, Store(CORN, (CORN,)), "windrose_in_warehouse")
    assert_illegal(state, Store(TOBACCO, (CORN,)), "no_good", good="tobacco")
    state = play(state, Store(COFFEE, (CORN,)))
    assert goods_of(state, ANNA) == {"corn": 3, "coffee": 1}


def test_storage_large_warehouse_keeps_two_kinds():
    anna = player(goods={"corn": 3, "sugar": 2, "coffee": 2}, city={"large_warehouse": 1})
    state = choose(position([anna, player(), player()], ships=BLOCKED_SHIPS), "captain")
    assert len(pr.legal_actions(state)) == 3  # which kind goes on the windrose
    state = play(state, Store(CORN, (SUGAR, COFFEE)))
    assert goods_of(state, ANNA) == {"corn": 1, "sugar": 2, "coffee": 2}


def test_storage_both_warehouses_keep_three_kinds_and_a_barrel_of_a_fourth():
    both = {"small_warehouse": 1, "large_warehouse": 1}
    state = position(
        [
            player(goods={"corn": 3, "sugar": 2, "coffee": 2, "tobacco": 2}, city=both),
            player(goods={"corn": 1, "sugar": 2, "coffee": 2, "indigo": 2}, city=both),
            player(),
        ],
        ships=BLOCKED_SHIPS,
    )
    state = choose(state, "captain")
    assert state.phase == "storage" and state.current == ANNA
    # Which kind is not warehoused and keeps a single barrel is Anna's choice.
    assert len(pr.legal_actions(state)) == 4
    assert_illegal(state, Store(None, (CORN, SUGAR, COFFEE)), "windrose_empty")
    state = play(state, Store(TOBACCO, (CORN, SUGAR, COFFEE)))
    assert goods_of(state, ANNA) == {"corn": 3, "sugar": 2, "tobacco": 1, "coffee": 2}
    # Bob keeps everything without being asked: three kinds stored, one barrel on the windrose.
    assert state.phase == "role"
    assert goods_of(state, BOB) == {"corn": 1, "indigo": 2, "sugar": 2, "coffee": 2}


def test_seats_who_can_keep_everything_are_not_asked():
    state = position(
        [
            player(goods={"corn": 1}),
            player(goods={"corn": 3, "sugar": 1}, city={"small_warehouse": 1}),
            player(goods={"corn": 3, "sugar": 2}, city={"large_warehouse": 1}),
            player(goods={"sugar": 4}),
        ],
        ships=BLOCKED_SHIPS_4,
    )
    state = choose(state, "captain")
    assert state.phase == "role"  # nobody was asked; David had one choice only
    assert goods_of(state, ANNA) == {"corn": 1}
    assert goods_of(state, BOB) == {"corn": 3, "sugar": 1}
    assert goods_of(state, CHRIS) == {"corn": 3, "sugar": 2}
    assert goods_of(state, DAVID) == {"sugar": 1}


def test_unoccupied_warehouse_stores_nothing():
    state = position(
        [player(goods={"corn": 3}, city={"small_warehouse": 0}), player(), player()],
        ships=BLOCKED_SHIPS,
    )
    state = choose(state, "captain")
    assert goods_of(state, ANNA) == {"corn": 1}


def test_partly_loaded_ships_stay_loaded_after_the_captain_phase():
    state = position(
        [player(goods={"corn": 2}), player(), player()], ships=[(None, 0), ("sugar", 3), (None, 0)]
    )
    state = choose(state, "captain")
    state = play(state, pr.legal_actions(state)[0])
    assert ships_of(state)[1] == (5, "sugar", 3)
    assert sorted(ships_of(state), key=lambda s: s[2])[-1][2] == 3


# --- Trader ----------------------------------------------------------------------------------


def test_trader_privilege_only_when_selling():
    state = position([player(goods={"sugar": 1}), player(goods={"sugar": 1}), player()])
    state = choose(state, "trader")
    state = play(state, PASS)
    assert state.players[ANNA].doubloons == 0
    state = play(state, Sell(SUGAR))
    assert state.players[BOB].doubloons == 2  # no privilege for Bob


def test_corn_sells_for_nothing():
    state = position([player(), player(goods={"corn": 1}), player()])
    state = choose(state, "trader")
    log: list[dict] = []
    state = play(state, Sell(CORN), log=log)
    assert state.players[BOB].doubloons == 0
    assert state.to_json()["trading_house"] == ["corn"]
    assert log == [{"event": "sell", "seat": BOB, "good": "corn", "price": 0}]


def test_trading_house_is_emptied_only_when_full():
    state = position(
        [player(goods={"coffee": 1}), player(goods={"sugar": 1}), player()],
        trading_house=["corn"],
    )
    state = play(choose(state, "trader"), Sell(COFFEE), Sell(SUGAR))
    assert state.to_json()["trading_house"] == ["corn", "coffee", "sugar"]  # three stay
    state = position(
        [player(goods={"coffee": 1}), player(goods={"sugar": 1}), player(goods={"indigo": 1})],
        trading_house=["corn", "tobacco"],
        seat=BOB,
        governor=ANNA,
    )
    log: list[dict] = []
    state = play(choose(state, "trader"), Sell(SUGAR), Sell(INDIGO), log=log)
    # Full after Chris: Anna cannot sell her coffee and the house is emptied.
    assert state.to_json()["trading_house"] == []
    assert goods_of(state, ANNA) == {"coffee": 1}
    assert state.to_json()["goods"] == {
        "corn": 10,
        "indigo": 11,
        "sugar": 11,
        "tobacco": 9,
        "coffee": 8,
    }
    assert log[-1] == {
        "event": "trading_house_emptied",
        "goods": ["corn", "tobacco", "sugar", "indigo"],
    }


def test_trading_house_buys_only_different_kinds_one_barrel_a_seat():
    state = position(
        [player(goods={"sugar": 2, "indigo": 1}), player(goods={"sugar": 1}), player()]
    )
    state = choose(state, "trader")
    state = play(state, Sell(SUGAR))
    # Bob's only kind is there already, and Anna does not get a second sale.
    assert state.phase == "role"
    assert goods_of(state, ANNA) == {"sugar": 1, "indigo": 1}
    assert goods_of(state, BOB) == {"sugar": 1}


# --- Rounds, roles and the end ---------------------------------------------------------------


def test_unchosen_roles_gain_a_doubloon_and_the_governor_passes_left():
    state = position(
        [player(), player(), player(), player()], role_doubloons={"settler": 2, "mayor": 1}
    )
    assert state.governor == ANNA
    order = []
    for role in ("prospector", "trader", "captain", "craftsman"):
        order.append(state.current)
        state = choose(state, role)
    assert order == [ANNA, BOB, CHRIS, DAVID]
    roles = {r["role"]: r for r in state.to_json()["roles"]}
    assert {name: r["doubloons"] for name, r in roles.items()} == {
        "settler": 3,
        "mayor": 2,
        "builder": 1,
        "craftsman": 0,
        "trader": 0,
        "captain": 0,
        "prospector": 0,
    }
    assert all(r["taken_by"] is None for r in roles.values())
    assert state.governor == BOB and state.current == BOB
    assert state.round == 2


def test_each_seat_chooses_one_role_a_round_and_a_role_once():
    state = position([player(), player(), player()])
    state = choose(state, "trader")
    assert state.current == BOB
    assert_illegal(state, ChooseRole("trader"), "role_taken", role="trader")
    state = choose(state, "captain")
    assert state.current == CHRIS
    state = choose(state, "craftsman")
    assert state.governor == BOB and state.current == BOB
    assert {a.role for a in pr.legal_actions(state)} == {
        "settler",
        "mayor",
        "builder",
        "craftsman",
        "trader",
        "captain",
    }


def test_three_player_game_has_no_prospector():
    state = position([player(), player(), player()])
    assert_illegal(
        state, ChooseRole("prospector"), "role_not_in_game", role="prospector", players=3
    )


def test_five_player_prospector_takes_the_card_with_the_doubloons():
    state = pr.new_game(5, 4)
    data = state.to_json()
    prospectors = [r for r in data["roles"] if r["role"] == "prospector"]
    assert len(prospectors) == 2
    prospectors[1]["doubloons"] = 2  # left over last round
    state = pr.State.from_json(data)
    doubloons = state.players[0].doubloons
    state = choose(state, "prospector")
    assert state.players[0].doubloons == doubloons + 2 + 1
    assert ChooseRole("prospector") in pr.legal_actions(state)  # the other one is still free
    state = choose(state, "prospector")
    assert state.players[1].doubloons == doubloons + 1
    assert ChooseRole("prospector") not in pr.legal_actions(state)


def test_bei_gleichstand_gewinnt_von_diesen_derjenige_der_mehr_dublonen_und_waren_besitzt():
    """ "Es gewinnt der Spieler mit den meisten Punkten. Bei Gleichstand gewinnt von diesen
    derjenige, der noch die größere Menge Dublonen und Waren besitzt (1 Ware = 1 Dublone)":
    the same order places every seat; seats equal in both share a placement (the rulebook
    says no more), and the next placement skips."""
    state = position(
        [
            player(vp=10, doubloons=3, goods={"corn": 1}, city={"small_market": 0}),
            player(vp=9, doubloons=2, goods={"sugar": 1, "indigo": 2}, city={"hospice": 0}),
            player(vp=11, doubloons=9),
            player(vp=8, city={"small_market": 1}),
        ]
    )
    table = pr.outcome(state)
    assert [s.score for s in table] == [11, 11, 11, 9]
    assert [s.tiebreak for s in table] == [{"doubloons_and_goods": n} for n in (4, 5, 9, 0)]
    assert [s.placement for s in table] == [3, 2, 1, 4]
    data = state.to_json()
    data["players"][CHRIS]["doubloons"] = 5
    assert [s.placement for s in pr.outcome(pr.State.from_json(data))] == [3, 1, 1, 4]


def test_nothing_is_legal_after_the_game_is_over():
    state = position([player(doubloons=4, city=ELEVEN_SMALL), player(), player()])
    state = play(choose(state, "builder"), Build("office"))
    state = finish_round(state, "trader", "captain")
    assert pr.is_over(state)
    assert_illegal(state, ChooseRole("settler"), "game_over")


def test_events_name_seats_by_number_and_survive_json():
    state = position([player(), player(goods={"corn": 1}), player()])
    log: list[dict] = []
    state = play(choose(state, "trader", log), Sell(CORN), log=log)
    assert log == [
        {"event": "role", "seat": ANNA, "role": "trader", "doubloons": 0},
        {"event": "sell", "seat": BOB, "good": "corn", "price": 0},
    ]
    assert json.loads(json.dumps(log)) == log


# --- Bad input -------------------------------------------------------------------------------


def _phase(role: str, *boards: dict[str, Any], **kw: Any) -> pr.State:
    boards = boards or (player(), player(), player())
    return choose(position(list(boards), **kw), role)


ILLEGAL = [
    ("role", lambda: position([player()] * 3), Sell(CORN), ("role_expected", {})),
    (
        "settler-build",
        lambda: _phase("settler"),
        Build("small_market"),
        ("wrong_action", {"phase": "settler"}),
    ),
    (
        "settler-missing-tile",
        lambda: _phase("settler", face_up=["corn", "corn", "corn", "corn"]),
        Settle(COFFEE),
        ("plantation_not_face_up", {"tile": "coffee"}),
    ),
    (
        "mayor-pass",
        lambda: _phase("mayor", colonists=(9, 3)),
        PASS,
        ("wrong_action", {"phase": "mayor"}),
    ),
    (
        "mayor-too-many",
        lambda: _phase("mayor", player(island={"corn": 3}), player(), player(), colonists=(9, 3)),
        Arrange(island(2)),
        ("too_many_colonists", {"placed": 2, "colonists": 1}),
    ),
    (
        "mayor-more-than-tiles",
        lambda: _phase(
            "mayor", player(island={"corn": 1}, san_juan=2), player(), player(), colonists=(9, 0)
        ),
        Arrange(island(2)),
        ("too_many_on_tiles", {"tile": "corn", "colonists": 2, "tiles": 1}),
    ),
    (
        "mayor-building-not-owned",
        lambda: _phase("mayor", colonists=(9, 3)),
        Arrange(island(), (("harbor", 1),)),
        ("no_building", {"building": "harbor"}),
    ),
    (
        "mayor-too-many-circles",
        lambda: _phase("mayor", player(city={"coffee_roaster": 0}, san_juan=2), player(), player()),
        Arrange(island(), (("coffee_roaster", 3),)),
        ("too_many_on_building", {"building": "coffee_roaster", "circles": 2}),
    ),
    (
        "builder-money",
        lambda: _phase("builder", player(doubloons=3), player(), player()),
        Build("harbor"),
        ("too_expensive", {"building": "harbor", "price": 7, "doubloons": 3}),
    ),
    (
        "builder-sell",
        lambda: _phase("builder", player(doubloons=3), player(), player()),
        Sell(CORN),
        ("wrong_action", {"phase": "builder"}),
    ),
    (
        "craftsman-sell",
        lambda: _phase("craftsman", player(island={"corn": (1, 1)}), player(), player()),
        Sell(CORN),
        ("wrong_action", {"phase": "craftsman"}),
    ),
    (
        "trader-no-goods",
        lambda: _phase("trader", player(goods={"corn": 1}), player(), player()),
        Sell(COFFEE),
        ("no_good", {"good": "coffee"}),
    ),
    (
        "trader-load",
        lambda: _phase("trader", player(goods={"corn": 1}), player(), player()),
        Load(CORN, 0),
        ("wrong_action", {"phase": "trader"}),
    ),
    (
        "captain-no-goods",
        lambda: _phase("captain", player(goods={"corn": 1}), player(), player()),
        Load(COFFEE, 0),
        ("no_good", {"good": "coffee"}),
    ),
    (
        "captain-no-ship",
        lambda: _phase("captain", player(goods={"corn": 1}), player(), player()),
        Load(CORN, 3),
        ("no_ship", {"ship": 3}),
    ),
    (
        "captain-no-wharf",
        lambda: _phase("captain", player(goods={"corn": 1}), player(), player()),
        Wharf(CORN),
        ("no_wharf", {}),
    ),
    (
        "captain-sell",
        lambda: _phase("captain", player(goods={"corn": 1}), player(), player()),
        Sell(CORN),
        ("wrong_action", {"phase": "captain"}),
    ),
    (
        "storage-load",
        lambda: _phase(
            "captain",
            player(goods={"corn": 2, "sugar": 2}),
            player(),
            player(),
            ships=BLOCKED_SHIPS,
        ),
        Load(CORN, 0),
        ("wrong_action", {"phase": "storage"}),
    ),
]


@pytest.mark.parametrize(
    ("make", "action", "refusal"), [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL]
)
def test_illegal_action_is_refused_with_a_reason_and_changes_nothing(make, action, refusal):
    code, params = refusal
    assert_illegal(make(), action, code, **params)


def test_refused_action_changes_nothing_even_in_place():
    state = _phase("captain", player(goods={"corn": 2}), player(), player())
    before = state.to_json()
    with pytest.raises(IllegalAction, match="must load"):
        pr.apply(state, PASS, inplace=True)
    assert state.to_json() == before


def test_refused_action_leaves_a_later_legal_one_working():
    state = _phase("trader", player(goods={"corn": 1}), player(), player())
    with pytest.raises(IllegalAction):
        pr.apply(state, Sell(SUGAR))
    state = play(state, Sell(CORN))
    assert state.players[ANNA].doubloons == 1


MALFORMED = [
    ("not-an-object", ["sell"], "not_an_action", {}),
    ("no-type", {"good": "corn"}, "not_an_action", {}),
    ("type-not-text", {"type": 3}, "not_an_action", {}),
    ("unknown-type", {"type": "steal"}, "unknown_type", {"type": "steal"}),
    (
        "bad-role",
        {"type": "choose_role", "role": "pirate"},
        "bad_role",
        {"choices": "settler, mayor, builder, craftsman, trader, captain, prospector"},
    ),
    (
        "bad-tile",
        {"type": "settle", "tile": "banana"},
        "bad_tile",
        {"choices": "corn, indigo, sugar, tobacco, coffee, quarry"},
    ),
    (
        "bad-flag",
        {"type": "settle", "tile": "corn", "hospice": "yes"},
        "bad_flag",
        {"field": "hospice"},
    ),
    ("island-list", {"type": "arrange", "island": [1, 2]}, "bad_placement", {}),
    ("island-kind", {"type": "arrange", "island": {"rice": 1}}, "unknown_tile", {"tile": "rice"}),
    ("negative", {"type": "arrange", "island": {"corn": -1}}, "bad_count", {"place": "corn"}),
    ("bool-count", {"type": "arrange", "island": {"corn": True}}, "bad_count", {"place": "corn"}),
    (
        "city-name",
        {"type": "arrange", "city": {"castle": 1}},
        "unknown_building",
        {"building": "castle"},
    ),
    ("build-name", {"type": "build", "building": "castle"}, "bad_building", {}),
    (
        "sell-good",
        {"type": "sell", "good": "rum"},
        "bad_good",
        {"field": "good", "choices": "corn, indigo, sugar, tobacco, coffee"},
    ),
    (
        "sell-no-good",
        {"type": "sell"},
        "bad_good",
        {"field": "good", "choices": "corn, indigo, sugar, tobacco, coffee"},
    ),
    ("ship-3", {"type": "load", "good": "corn", "ship": 3}, "bad_ship", {}),
    ("ship-bool", {"type": "load", "good": "corn", "ship": True}, "bad_ship", {}),
    ("store-list", {"type": "store", "warehouse": "corn"}, "bad_warehouse", {}),
    ("store-twice", {"type": "store", "warehouse": ["corn", "corn"]}, "warehouse_twice", {}),
    (
        "windrose",
        {"type": "store", "windrose": "gold"},
        "bad_good",
        {"field": "windrose", "choices": "corn, indigo, sugar, tobacco, coffee"},
    ),
]


@pytest.mark.parametrize(
    ("data", "code", "params"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED]
)
def test_malformed_action_json(data, code, params):
    with pytest.raises(MalformedAction) as error:
        pr.action_from_json(data)
    assert (error.value.code, error.value.params) == (code, params)


def test_a_refusal_reads_as_english_with_readable_names():
    """``str(error)`` is what logs and programs without a translation show."""
    state = _phase("builder", player(doubloons=3), player(), player())
    with pytest.raises(IllegalAction) as error:
        pr.apply(state, Build("large_market"))
    assert str(error.value) == "the large market costs you 4 doubloons; you have 3"
    with pytest.raises(MalformedAction) as malformed:
        pr.action_from_json({"type": "steal"})
    assert str(malformed.value) == "unknown action type 'steal'"


@pytest.mark.parametrize(
    "action",
    [
        ChooseRole("mayor"),
        PASS,
        HACIENDA,
        Settle(QUARRY, True),
        Arrange(island(1, 0, 2), (("office", 1),), True),
        Build("city_hall", True),
        ExtraGood(COFFEE),
        Sell(INDIGO),
        Load(TOBACCO, 2),
        Wharf(SUGAR),
        Store(CORN, (SUGAR, COFFEE)),
        Store(),
    ],
)
def test_action_json_round_trip(action):
    assert pr.action_from_json(pr.action_to_json(action)) == action
