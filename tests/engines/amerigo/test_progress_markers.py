"""Every progress-marker effect the rulebook names (pages 11-12)."""

from __future__ import annotations

import pytest

from games.engines import amerigo as am
from games.engines.amerigo import rules
from games.engines.amerigo.data import ORDER_TRACK

from .positions import acting, last_turn_of_round, play, position


def test_a_marker_with_one_action_gives_2_ap_more():
    state = position(field={"black": 3}, p0={"markers": ["ap2_black"]})
    assert play(state, {"type": "choose", "colour": "black"}).act["ap"] == 5
    assert play(state, {"type": "choose", "colour": "black"}).act["ap"] == 5
    state = position(field={"black": 3}, p1={"markers": ["ap2_black"]})
    assert play(state, {"type": "choose", "colour": "black"}).act["ap"] == 3


def test_a_marker_with_two_actions_gives_1_ap_more_for_either():
    state = position(field={"blue": 3, "green": 1, "red": 1}, p0={"markers": ["ap1_blue_green"]})
    aps = {
        c: play(state, {"type": "choose", "colour": c}).act["ap"] for c in ("blue", "green", "red")
    }
    assert aps == {"blue": 4, "green": 4, "red": 3}


@pytest.mark.parametrize(("owner", "lost"), [(1, 6 + 2), (0, 6)])
def test_pirates_are_2_stronger_for_every_other_player(owner, lost):
    state = position(field={"white": 1}, p0={"vp": 20, "cannons": 0})
    state.players[owner].markers = ["pirates_plus2"]
    state.pirates_up = [6]
    state = play(last_turn_of_round(state, 1), {"type": "gold"})
    assert state.players[0].vp == 20 - lost


def test_half_damage_loses_half_the_pirates_rounded_up_and_still_all_cannons():
    state = position(field={"white": 1}, p0={"vp": 20, "cannons": 3, "markers": ["half_damage"]})
    state.pirates_up = [2, 5]
    state = play(last_turn_of_round(state, 1), {"type": "gold"})
    assert (state.players[0].vp, state.players[0].cannons) == (20 - 4, 0)


def test_repelling_all_pirates_gives_2_gold_also_at_strength_0():
    state = position(field={"white": 1}, p0={"gold": 0, "cannons": 0, "markers": ["repel_gold"]})
    state.pirates_up = []
    state = play(last_turn_of_round(state, 1), {"type": "gold"})
    assert state.players[0].gold == 1 + 2


def test_ship_marker_gives_8_ap_once():
    state = position(field={"blue": 2}, p0={"markers": ["ship8"]})
    state = play(state, {"type": "choose", "colour": "blue"}, {"type": "marker", "name": "ship8"})
    assert state.act["ap"] == 10
    assert not [a for a in am.legal_actions(state) if a["type"] == "marker"]


def test_two_landscapes_in_one_planning():
    state = position(field={"red": 6}, p0={"markers": ["two_landscapes"]})
    state = play(
        state,
        {"type": "choose", "colour": "red"},
        {"type": "take", "tile": "2"},
        {"type": "take", "tile": "3I"},
    )
    assert state.players[0].landscapes == ["2", "3I"]
    assert not [a for a in am.legal_actions(state) if a["type"] == "take" and a["tile"] == "1"]


def test_swap_marker_planning_for_building_and_back():
    state = position(field={"green": 2}, p0={"markers": ["swap_plan_build"]})
    assert [a["colour"] for a in am.legal_actions(state) if a["type"] == "choose"] == [
        "red",
        "green",
    ]
    state = position(field={"red": 2}, p0={"markers": ["swap_plan_build"]})
    assert [a["colour"] for a in am.legal_actions(state) if a["type"] == "choose"] == [
        "red",
        "green",
    ]
    state = position(field={"red": 2, "blue": 1})
    assert [a["colour"] for a in am.legal_actions(state) if a["type"] == "choose"] == [
        "blue",
        "red",
    ]


def test_leader_marker_puts_the_disc_on_the_leaders_once():
    state = position(field={"white": 1}, p0={"markers": ["leader"]})
    for stack in state.order_track:
        for seat in (0, 1):
            if seat in stack:
                stack.remove(seat)
    state.order_track[0].append(0)
    state.order_track[9].append(1)
    state = play(state, {"type": "choose", "colour": "white"}, {"type": "leap"})
    assert rules.order_field(state, 0) == 9
    assert rules.turn_order(state)[0] == 0
    assert state.players[0].used == ["leader"]


@pytest.mark.parametrize(("marker", "gold"), [("gold3", 3), ("gold5", 5)])
def test_one_time_gold_markers(marker, gold):
    state = position(field={"blue": 1}, p0={"gold": 0, "markers": [marker]})
    state = play(state, {"type": "cash", "item": marker})
    assert state.players[0].gold == gold
    assert not [a for a in am.legal_actions(state) if a["type"] == "cash"]


def test_chest_for_3_gold_at_any_time():
    state = position(field={"blue": 1}, p0={"gold": 11, "vp": 0, "chests": 1})
    state = play(state, {"type": "choose", "colour": "blue"}, {"type": "cash", "item": "chest"})
    assert (state.players[0].gold, state.players[0].vp, state.players[0].chests) == (12, 2, 0)


def test_post_gold_marker_gives_1_gold_per_trading_post_afterwards():
    state = position(field={"blue": 1}, p0={"gold": 0, "markers": ["post_gold"]})
    post, _ = state.map.posts[0]
    rules._place_post(state, 0, post, None)
    assert state.players[0].gold == 1


def test_gold_at_2_to_1_rounded_up():
    state = position(field={"blue": 3, "red": 2}, p0={"gold": 0, "markers": ["gold_2to1"]})
    assert play(state, {"type": "gold"}).players[0].gold == 3
    state = position(field={"blue": 3, "red": 2}, p0={"gold": 0})
    assert play(state, {"type": "gold"}).players[0].gold == 2


def test_cube_vp_marker_once_instead_of_an_action():
    state = position(field={"blue": 3, "red": 2}, p0={"vp": 0, "markers": ["cube_vp"]})
    state = play(state, {"type": "cube_vp"})
    assert state.players[0].vp == 5
    assert state.players[0].used == ["cube_vp"]


def test_end_markers_posts_7_and_gold():
    state = position(
        field={"white": 1},
        p0={"vp": 0, "gold": 4, "markers": ["end_posts", "end_7", "end_gold"]},
    )
    state.players[0].posts = [p for p, _ in state.map.posts[:3]]
    state = play(last_turn_of_round(state, 5), {"type": "gold"})
    assert state.final[0]["progress_markers"] == 3 + 7 + 5


def test_order_track_end_with_ap_left_gives_2_gold():
    end = len(ORDER_TRACK) - 1
    state = position(field={"white": 3}, p0={"gold": 0})
    for stack in state.order_track:
        if 0 in stack:
            stack.remove(0)
    state.order_track[end - 1].append(0)
    state = play(
        state,
        {"type": "choose", "colour": "white"},
        {"type": "advance", "steps": 1},
        {"type": "done"},
    )
    assert state.players[0].gold == 2
    state = acting(position(field={"white": 3}, p0={"gold": 0}), "white", 3)
    state = play(state, {"type": "done"})
    assert state.players[0].gold == 0
