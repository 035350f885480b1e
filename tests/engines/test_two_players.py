"""The game for two players ("Das Spiel zu zweit", German rulebook of the 2011 edition, p. 12),
one test per statement of the rulebook. All other rules are those of the base game."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import Arrange, ChooseRole, IllegalAction
from games.engines.puerto_rico.actions import PASS
from games.engines.puerto_rico.data import BUILDINGS, GOODS

from .positions import ANNA, BOB, choose, play, player, position


def _new() -> pr.State:
    return pr.new_game(2, seed=12)


def _json() -> dict:
    return _new().to_json()


def test_two_players_are_offered():
    assert 2 in pr.PLAYER_COUNTS


def test_each_player_gets_3_doubloons():
    assert [p["doubloons"] for p in _json()["players"]] == [3, 3]


def test_the_start_player_takes_indigo_and_the_governor_card_the_second_player_corn():
    data = _json()
    assert data["governor"] == ANNA
    assert [p["island"] for p in data["players"]] == [
        {"indigo": {"tiles": 1, "colonists": 0}},
        {"corn": {"tiles": 1, "colonists": 0}},
    ]


def test_3_of_each_plantation_and_3_quarries_go_out_of_the_game():
    data = _json()
    p = data["plantations"]
    tiles = Counter(p["stack"]) + Counter(p["face_up"]) + Counter(p["discards"])
    for pl in data["players"]:
        tiles.update({kind: t["tiles"] for kind, t in pl["island"].items()})
    # The box: 10 corn, 12 indigo, 11 sugar, 9 tobacco, 8 coffee, 8 quarries; less 3 each.
    assert dict(tiles) == {"corn": 7, "indigo": 9, "sugar": 8, "tobacco": 6, "coffee": 5}
    assert data["quarries"] == 5


def test_three_plantations_lie_face_up_one_more_than_players():
    assert len(_json()["plantations"]["face_up"]) == 3


def test_one_of_each_violet_building_and_two_of_each_production_building():
    board = _json()["buildings"]
    production = {name for name, b in BUILDINGS.items() if b.good is not None}
    assert len(production) == 6
    assert {name: n for name, n in board.items() if name in production} == dict.fromkeys(
        production, 2
    )
    base = {name for name, b in BUILDINGS.items() if b.expansion == "base"}
    assert {name: n for name, n in board.items() if name not in production} == dict.fromkeys(
        base - production, 1
    )


def test_65_vp_chips():
    assert _json()["vp_chips"] == 65


def test_40_colonists_in_the_supply_and_2_on_the_colonist_ship():
    assert _json()["colonists"] == {"supply": 40, "ship": 2}


def test_the_4_and_the_6_ship():
    assert [s["capacity"] for s in _json()["ships"]] == [4, 6]


def test_2_of_each_good_go_out_of_the_game():
    # The box: 10 corn, 11 indigo, 11 sugar, 9 tobacco, 9 coffee.
    assert _json()["goods"] == {"corn": 8, "indigo": 9, "sugar": 9, "tobacco": 7, "coffee": 7}


def test_seven_role_cards_all_but_one_prospector():
    assert Counter(r["role"] for r in _json()["roles"]) == {
        "settler": 1,
        "mayor": 1,
        "builder": 1,
        "craftsman": 1,
        "trader": 1,
        "captain": 1,
        "prospector": 1,
    }


def _play_out_the_role(state: pr.State) -> pr.State:
    """Everyone declines or does the first thing offered, until a role is chosen again."""
    while state.phase not in ("role", "over"):
        actions = pr.legal_actions(state)
        state = pr.apply(state, PASS if PASS in actions else actions[0])
    return state


def _choosers(state: pr.State, roles: list[str]) -> tuple[pr.State, list[int]]:
    seats = []
    for role in roles:
        assert state.phase == "role"
        seats.append(state.current)
        state = _play_out_the_role(choose(state, role))
    return state, seats


ROUND_ONE = ["prospector", "builder", "trader", "settler", "craftsman", "captain"]


def test_the_governor_begins_then_alternately_until_each_has_chosen_three_roles():
    state, seats = _choosers(_new(), ROUND_ONE)
    assert seats == [ANNA, BOB, ANNA, BOB, ANNA, BOB]
    assert state.round == 2


def test_one_doubloon_goes_on_the_seventh_role_left_over():
    state, _ = _choosers(_new(), ROUND_ONE)
    assert {r.role: r.doubloons for r in state.roles} == {
        "settler": 0,
        "mayor": 1,
        "builder": 0,
        "craftsman": 0,
        "trader": 0,
        "captain": 0,
        "prospector": 0,
    }


def test_then_the_governor_changes_and_chooses_again_from_all_seven_roles():
    state, _ = _choosers(_new(), ROUND_ONE)
    assert state.governor == BOB and state.current == BOB
    assert {a.role for a in pr.legal_actions(state)} == {r.role for r in state.roles}
    assert len(pr.legal_actions(state)) == 7
    state, seats = _choosers(state, ["mayor", *ROUND_ONE[:5]])
    assert seats == [BOB, ANNA, BOB, ANNA, BOB, ANNA]
    assert state.governor == ANNA


def test_a_role_is_chosen_once_a_round_also_by_the_same_player():
    state, _ = _choosers(_new(), ["prospector", "builder"])
    with pytest.raises(IllegalAction) as refused:
        pr.check(state, ChooseRole("prospector"))
    assert refused.value.code == "role_taken"


def test_the_colonist_ship_takes_at_least_the_number_of_players_two():
    state = position(
        [player(island={"corn": 2}), player(island={"corn": 2})],
        colonists=(30, 2),
    )
    state = play(choose(state, "mayor"), Arrange((1, 0, 0, 0, 0, 0), ()))
    state = play(state, Arrange((1, 0, 0, 0, 0, 0), ()))
    assert (state.colonist_supply, state.colonist_ship) == (28, 2)


def test_the_game_ends_as_usual_when_the_vp_chips_run_out():
    state = position(
        [player(goods={"corn": 3}), player()],
        vp_chips=2,
        ships=[(None, 0), (None, 0)],
    )
    state = play(choose(state, "captain"), pr.Load(GOODS.index("corn"), 1))
    assert state.end_reasons == ["vp_chips"]
    assert state.phase == "role" and state.round == 1
