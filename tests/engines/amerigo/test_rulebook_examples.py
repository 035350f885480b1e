"""Every worked example of the Amerigo rulebook (``shared/rules/source/amerigo-rules-de.txt``),
named after it. Where an example rests on a value the rulebook shows only in pictures, the
test says which approximation of ``data`` it uses."""

from __future__ import annotations

import pytest

from games.engines import amerigo as am
from games.engines.amerigo import rules
from games.engines.amerigo.data import GOODS, ORDER_TRACK, PROGRESS_VP, TIME_VALUE
from games.engines.amerigo.state import POST, derive_cover

from .positions import acting, last_turn_of_round, play, position


def test_ap_example_4_blue_1_black_1_red_2_green():
    """4 blue, 1 black, 1 red and 2 green cubes: blue, green, black or red, each with 4 AP."""
    state = position(field={"blue": 4, "black": 1, "red": 1, "green": 2})
    offered = [a["colour"] for a in am.legal_actions(state) if a["type"] == "choose"]
    assert offered == ["blue", "black", "red", "green"]
    for colour in offered:
        after = play(state, {"type": "choose", "colour": colour})
        assert after.act["ap"] == 4


def test_order_example_red_on_top_of_white_blue_yellow_goes_first():
    """Red lies on top of white, blue and yellow on one field: red chooses first."""
    state = am.new_game(4, 3)
    state.order_track[0] = [1, 2, 3, 0]  # bottom to top; seat 0 (red) on top
    assert rules.turn_order(state) == [0, 3, 2, 1]
    state.order_track[0] = [1, 2, 3]
    state.order_track[2] = [0]  # red stands before them
    assert rules.turn_order(state)[0] == 0


def test_start_player_example_white_1_blue_2_yellow_3_gold():
    """The start player gets no gold, the next 1, then 2, then 3."""
    for seed in range(5):
        state = am.new_game(4, seed)
        order = rules.turn_order(state)
        assert [state.players[s].gold for s in order] == [0, 1, 2, 3]


def test_gold_example_10_cubes_4_gold_with_9_on_the_track_gives_3_gold_and_1_vp():
    state = position(field={"blue": 4, "black": 3, "red": 3}, p0={"gold": 9, "vp": 0})
    state = play(state, {"type": "gold"})
    assert (state.players[0].gold, state.players[0].vp) == (12, 1)


def test_buying_ap_example_2_ap_and_1_gold_move_progress_3_fields_for_the_fourth_marker():
    """Brown with 2 AP and 1 gold bought: 3 fields from the third printed-VP field reach the
    fourth, one marker more (the approximated track prints VP on every third field)."""
    third, fourth = sorted(PROGRESS_VP)[2:4]
    state = position(field={"brown": 2}, p0={"gold": 1, "progress": third})
    state = play(state, {"type": "choose", "colour": "brown"}, {"type": "buy_ap"})
    assert state.players[0].gold == 0
    state = play(state, {"type": "advance", "steps": 3})
    assert state.players[0].progress == fourth
    assert state.act["pending"] == 1
    assert {a["type"] for a in am.legal_actions(state)} <= {"pick", "cash"}
    taken = []
    while state.act["pending"]:
        slot = next(i for i, m in enumerate(state.progress) if m is not None)
        taken.append(state.progress[slot])
        state = play(state, {"type": "pick", "slot": slot})
    assert state.players[0].markers == taken
    assert am.progress_vp(state.players[0].progress) == PROGRESS_VP[fourth]


def test_progress_example_5_ap_pass_the_1_vp_field_for_one_marker():
    """ "Die Zählscheibe von Spieler blau überschreitet das 1 SP Feld. Der Spieler wählt einen
    Fortschrittsmarker": 5 fields from the start, past the 1 VP field and short of the next."""
    state = position(field={"brown": 5}, p0={"progress": 0})
    state = play(state, {"type": "choose", "colour": "brown"}, {"type": "advance", "steps": 5})
    assert state.players[0].progress == 5
    assert am.progress_vp(5) == 1
    assert state.act["pending"] == 1


def test_cannons_example_5_ap_with_10_cannons_gives_2_cannons_and_2_gold():
    state = position(field={"black": 5}, p0={"cannons": 10, "gold": 0})
    state = play(state, {"type": "choose", "colour": "black"})
    assert max(a["steps"] for a in am.legal_actions(state) if a["type"] == "advance") == 2
    state = play(state, {"type": "advance", "steps": 2}, {"type": "done"})
    assert (state.players[0].cannons, state.players[0].gold) == (12, 2)


def test_cannons_at_the_end_already_chosen_again_give_2_gold():
    state = position(field={"black": 3}, p0={"cannons": 12, "gold": 0})
    state = play(state, {"type": "choose", "colour": "black"}, {"type": "done"})
    assert state.players[0].gold == 2


def test_planning_example_4_ap_a_2_landscape_and_a_4_and_a_3_village():
    state = position(field={"red": 4})
    state = play(
        state,
        {"type": "choose", "colour": "red"},
        {"type": "take", "tile": "2"},
        {"type": "take", "tile": "V4"},
        {"type": "take", "tile": "V3"},
    )
    p = state.players[0]
    assert p.landscapes == ["2"]
    assert (p.villages_held["V4"], p.villages_held["V3"]) == (1, 1)
    assert state.act["spent"] == 4
    # One general landscape tile per turn.
    assert not [a for a in am.legal_actions(state) if a["type"] == "take" and a["tile"] == "1"]


def _island_with_posts(num_players: int, posts: int, large: bool) -> tuple[object, int, list]:
    """A game and an island of it (large or small) with at least ``posts`` trading-post fields."""
    for seed in range(200):
        state = am.new_game(num_players, seed)
        m = state.map
        for island in range(len(m.sizes)):
            fields = [p for p, _ in m.posts if m.island[p] == island]
            if m.large(island) == large and len(fields) >= posts:
                return state, island, fields
    raise AssertionError("no such island in 200 seeds")


def _cover_all_but(state, island: int, keep: set[int]) -> None:
    """Build general 1-tiles (by seat 3) on every free field of ``island`` outside ``keep``."""
    taken = {c for p in state.players for c in p.posts}
    for cell in state.map.island_cells[island]:
        if cell not in keep and cell not in taken:
            state.built.append({"tile": "1", "seat": 3, "cells": [cell]})
    state.cover = derive_cover(state)


def _domino_next_to(state, post: int, avoid: set[int]) -> list[int]:
    m = state.map
    for a in m.neighbours[post]:
        if m.island[a] == m.island[post] and a not in avoid:
            for b in m.neighbours[a]:
                if m.island[b] == m.island[post] and b not in avoid and b != post:
                    return sorted([a, b])
    raise AssertionError("no free domino beside the post")


def test_island_completion_example_in_round_2_red_17_vp_and_the_chest_blue_4_vp():
    """Round 2 (time marker 4): red completes a large island with a 2-village tile and has 2
    trading posts there: 2 + 3 + 12 VP and the chest; blue with 1 trading post gets 4."""
    state, island, fields = _island_with_posts(4, 3, large=True)
    red_posts, blue_post = fields[:2], fields[2]
    state.players[0].posts = list(red_posts)
    state.players[1].posts = [blue_post]
    domino = _domino_next_to(state, red_posts[0], set(fields))
    _cover_all_but(state, island, set(domino))
    state.players[0].villages_held["V2"] = 1
    state.round = 2
    assert TIME_VALUE[2] == 4
    state.queue = [0]
    state = acting(state, "green", 1)
    state = play(state, {"type": "build", "tile": "V2", "cells": domino})
    assert state.players[0].vp == 2 + 3 + 12
    assert state.players[0].chests == 1
    assert state.players[1].vp == 4
    assert state.completed[island]


def test_building_example_3_village_2_landscape_4_village_on_a_large_island_10_vp():
    """4 AP build a 3-village, a 2-landscape and a 4-village, joined in a chain to the post;
    10 VP on a large island (the 2-landscape's large value 3 is the approximation's)."""
    state, _, fields = _island_with_posts(4, 1, large=True)
    state.players[0].posts = [fields[0]]
    state.players[0].landscapes = ["2"]
    state.players[0].villages_held.update({"V3": 1, "V4": 1})
    state.queue = [0]
    state.cover = derive_cover(state)
    state = acting(state, "green", 4)
    for tile in ("V3", "2", "V4"):
        options = [a for a in am.legal_actions(state) if a["type"] == "build" and a["tile"] == tile]
        assert options, tile
        state = play(state, options[0])
    assert state.players[0].vp == 10
    assert state.act["spent"] == 4


def test_building_needs_the_chain_to_an_own_trading_post():
    """Tiles in the water or not joined to an own trading post are not offered."""
    state, island, fields = _island_with_posts(4, 2, large=True)
    state.players[0].posts = [fields[0]]
    state.players[0].villages_held["V1"] = 1
    state.queue = [0]
    state.cover = derive_cover(state)
    state = acting(state, "green", 1)
    m = state.map
    builds = [a["cells"][0] for a in am.legal_actions(state) if a["type"] == "build"]
    assert sorted(builds) == sorted(c for c in m.neighbours[fields[0]] if m.island[c] == island)
    far = next(c for c in m.island_cells[island] if c not in builds and c != fields[0])
    with pytest.raises(am.IllegalAction) as refused:
        am.apply(state, {"type": "build", "tile": "V1", "cells": [far]})
    assert refused.value.code == "not_allowed"


def test_shipping_example_4_ap_ship_reaches_an_anchor_red_discovers_the_island_3_vp():
    """Red places his first ship on the frame, sails to an anchor field, sets a trading post
    and scores 3 VP as discoverer; later another post on that island scores nothing."""
    state = position(field={"blue": 4})
    m = state.map
    state = play(state, {"type": "choose", "colour": "blue"})
    sails = []
    for field in m.frame:
        trial = play(state, {"type": "place_ship", "ship": 0, "field": field})
        sails = [a for a in am.legal_actions(trial) if a["type"] == "sail" and a["post"]]
        if sails:
            state = trial
            break
    assert sails, "no anchor field within 4 moves of the frame"
    state = play(state, sails[0])
    post = m.anchor_post[sails[0]["to"]]
    island = m.island[post]
    assert state.players[0].posts == [post]
    assert state.cover[post] == POST + 0
    assert state.players[0].vp == 3
    # A second post on the discovered island: no VP.
    other = next((p for p, _ in m.posts if m.island[p] == island and p != post), None)
    if other is not None:
        rules._place_post(state, 1, other, None)
        assert state.players[1].vp == 0


def test_shipping_example_4_ap_red_then_sets_his_second_ship_and_sails_it_up_to_4_fields():
    """ "Anschließend setzt er sein zweites Schiff und fährt damit bis zu 4 Felder weit": after
    the first ship's voyage the second is set on the frame (free) and gets the 4 AP too. Red's
    first shipping action cannot end before it is ("setzt zunächst seine Schiffe ... ein")."""
    state = position(field={"blue": 4}, p0={"gold": 0})
    first, second = state.map.frame[0], state.map.frame[-1]
    state = play(
        state,
        {"type": "choose", "colour": "blue"},
        {"type": "place_ship", "ship": 0, "field": first},
    )
    voyage = next(a for a in am.legal_actions(state) if a["type"] == "sail" and a["to"] != first)
    state = play(state, voyage)
    assert {a["type"] for a in am.legal_actions(state)} == {"place_ship"}
    state = play(state, {"type": "place_ship", "ship": 1, "field": second})
    reach = rules._sea(state, second, 4)
    targets = {a["to"] for a in am.legal_actions(state) if a["type"] == "sail"}
    assert max(reach[t] for t in targets) == 4
    far = next(a for a in am.legal_actions(state) if a["type"] == "sail" and reach[a["to"]] == 4)
    state = play(state, far, {"type": "done"})
    assert state.players[0].ships == [voyage["to"], far["to"]]


def test_pirate_example_6_pirates_blue_4_cannons_loses_6_vp_yellow_8_keeps_2():
    state = position(field={"white": 2}, p0={"cannons": 4, "vp": 10}, p1={"cannons": 8, "vp": 10})
    state.pirates_up = [2, 4]
    state = last_turn_of_round(state, 1)
    state = play(state, {"type": "gold"})
    assert (state.players[0].cannons, state.players[0].vp) == (0, 4)
    assert (state.players[1].cannons, state.players[1].vp) == (2, 10)
    assert state.round == 2


def test_pirate_damage_never_takes_vp_below_zero():
    state = position(field={"white": 2}, p0={"cannons": 0, "vp": 3})
    state.pirates_up = [2, 4]
    state = play(last_turn_of_round(state, 1), {"type": "gold"})
    assert state.players[0].vp == 0


def test_special_action_example_white_cubes_become_red_for_5_ap_of_planning():
    """White is on a red field of the special-action track; no red cube is in the action
    field: the 5 white cubes count as red for him, 5 AP of planning."""
    red = next(i for i, (colour, _) in enumerate(ORDER_TRACK) if colour == "red")
    state = position(field={"white": 5, "blue": 2}, p0={"moved": True})
    for stack in state.order_track:
        if 0 in stack:
            stack.remove(0)
    state.order_track[red].append(0)
    offered = [a["colour"] for a in am.legal_actions(state) if a["type"] == "choose"]
    assert offered == ["blue", "red", "white"]
    state = play(state, {"type": "choose", "colour": "red"})
    assert state.act["ap"] == 5


def test_special_action_needs_the_disc_moved_once():
    state = position(field={"white": 5, "blue": 2})
    offered = [a["colour"] for a in am.legal_actions(state) if a["type"] == "choose"]
    assert offered == ["blue", "white"]


def test_order_example_yellow_moves_4_fields_to_a_red_field_and_starts_next():
    red = next(i for i, (colour, _) in enumerate(ORDER_TRACK) if colour == "red" and i >= 3)
    state = position(field={"white": 5})
    state = play(state, {"type": "choose", "colour": "white"}, {"type": "advance", "steps": red})
    assert rules.order_field(state, 0) == red
    assert rules.turn_order(state)[0] == 0
    assert state.players[0].moved


def test_goods_scoring_example_12_1_0_2_4():
    """Final scoring for red: cotton 3 x 4, tobacco 1 x 1, sugar 0 x 2, coconuts 2 x 1,
    coffee 2 x 2 (each including the printed goods marker)."""
    goods = [["cotton", 2], ["cotton", 3], ["cotton", 4], ["sugar", 2], ["coffee", 3]]
    state = position(field={"white": 1}, p0={"raw": [3, 1, 0, 2, 2], "goods": goods})
    state = play(last_turn_of_round(state, 5), {"type": "gold"})
    final = state.final[0]
    assert final["goods"] == {"cotton": 12, "tobacco": 1, "sugar": 0, "coconuts": 2, "coffee": 4}


def test_final_scoring_example_gold_then_progress_then_special_action_track():
    """Chest (3 gold) and the 5-gold marker onto 10 gold: 12 on the track and 6 VP over, then
    12 VP for the gold; the end markers 7 VP and the gold track once more (12 VP); 10 VP on
    the progress track and 6 on the special-action track (fields of the approximation)."""
    progress = next(f for f, vp in PROGRESS_VP.items() if vp == 10)
    six = next(i for i, (_, vp) in enumerate(ORDER_TRACK) if vp == 6)
    state = position(
        field={"white": 1},
        p0={
            "gold": 9,
            "chests": 1,
            "markers": ["gold5", "end_7", "end_gold"],
            "progress": progress,
            "vp": 0,
        },
    )
    for stack in state.order_track:
        if 0 in stack:
            stack.remove(0)
    state.order_track[six].append(0)
    state = play(last_turn_of_round(state, 5), {"type": "gold"})  # 1 cube: +1 gold, 10
    final = state.final[0]
    assert final["gold_overflow"] == 6
    assert final["gold"] == 12
    assert final["progress_markers"] == 7 + 12
    assert final["progress_track"] == 10
    assert final["order_track"] == 6
    assert am.is_over(state)
    # The outcome names the same steps; they and the VP of the game before add up.
    mine = am.outcome(state)[0]
    assert mine.parts["gold"] == 6 + 12
    assert (mine.parts["progress_markers"], mine.parts["progress_track"]) == (7 + 12, 10)
    assert mine.parts["special_action_track"] == 6
    assert mine.score == state.players[0].vp == sum(mine.parts.values())


def _tied_at_the_end(order_track: dict[int, list[int]]):
    """A 3-player game over, seats 0 and 1 tied on 20 VP, seat 2 behind on 19; the discs on
    the special-action track as ``order_track`` says (field: discs bottom to top)."""
    state = position(3, field={"white": 1}, seat=0)
    state = play(last_turn_of_round(state, 5), {"type": "gold"})
    state.order_track = [order_track.get(k, []) for k in range(len(ORDER_TRACK))]
    for seat, p in enumerate(state.players):
        p.vp = 19 if seat == 2 else 20
    return state


def placements(state) -> list[int]:
    return [standing.placement for standing in am.outcome(state)]


def test_bei_gleichstand_gewinnt_wer_am_weitesten_vorne_auf_der_sonderaktionsleiste_liegt():
    """ "Der Spieler mit den meisten Siegpunkten gewinnt. Bei Gleichstand gewinnt der
    Spieler, der am weitesten vorne auf der Sonderaktionsleiste liegt": the seat does not
    matter, nor does a disc further forward with fewer VP; tied seats never share a
    placement."""
    assert placements(_tied_at_the_end({1: [0], 3: [1], 5: [2]})) == [2, 1, 3]
    assert placements(_tied_at_the_end({1: [1], 3: [0], 5: [2]})) == [1, 2, 3]


def test_tie_on_one_field_goes_to_the_disc_on_top():
    """Two tied discs on one field: the upper one is ahead, as for the turn order ("Stehen
    mehrere Scheiben auf dem gleichen Feld, ist derjenige Spieler von ihnen an der Reihe, der
    am weitesten oben liegt"), and a disc moved onto a taken field goes on top ("so setzt er
    seine oben auf")."""
    assert placements(_tied_at_the_end({2: [0, 1], 0: [2]})) == [2, 1, 3]
    assert placements(_tied_at_the_end({2: [1, 0], 0: [2]})) == [1, 2, 3]
    # Moving onto the other's field puts the disc on top: it is ahead from then on.
    state = position(2, field={"white": 2}, seat=0)
    state.order_track = [[] for _ in ORDER_TRACK]
    state.order_track[0], state.order_track[2] = [0], [1]
    state = play(state, {"type": "choose", "colour": "white"}, {"type": "advance", "steps": 2})
    assert state.order_track[2] == [1, 0] and rules.turn_order(state) == [0, 1]


def test_time_markers_5_4_3_2_1():
    assert [TIME_VALUE[r] for r in range(1, 6)] == [5, 4, 3, 2, 1]


def test_cannons_example_4_ap_gives_4_cannons():
    state = position(field={"black": 4}, p0={"cannons": 0})
    state = play(state, {"type": "choose", "colour": "black"}, {"type": "advance", "steps": 4})
    assert state.players[0].cannons == 4


def test_goods_example_5_ap_buy_two_cotton_markers_for_2_and_3():
    state = position(field={"yellow": 5})
    state.goods = [
        ["cotton", 2],
        ["cotton", 3],
        ["coffee", 4],
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    ]
    state = play(
        state,
        {"type": "choose", "colour": "yellow"},
        {"type": "buy", "slot": 0},
        {"type": "buy", "slot": 1},
    )
    assert state.players[0].goods == [["cotton", 2], ["cotton", 3]]
    assert not [
        a for a in am.legal_actions(state) if a["type"] == "buy"
    ]  # no AP left for the coffee


def test_raw_material_example_building_over_sugar_and_cotton_takes_both_markers():
    """A tile covering raw-material fields gives their markers to the builder."""
    for seed in range(50):
        state = am.new_game(4, seed)
        m = state.map
        pairs = [
            (post, cell) for post, _ in m.posts for cell in m.neighbours[post] if cell in m.raw
        ]
        if pairs:
            break
    post, cell = pairs[0]
    state.players[0].posts = [post]
    state.players[0].villages_held["V1"] = 1
    state.queue = [0]
    state.cover = derive_cover(state)
    state = acting(state, "green", 1)
    kind = m.raw[cell]
    state = play(state, {"type": "build", "tile": "V1", "cells": [cell]})
    assert state.players[0].raw[GOODS.index(kind)] == 1
    assert cell not in state.raw_left


def test_a_trading_post_on_the_last_free_field_completes_the_island():
    """Round 1 (time marker 5): the last free field is a trading-post field; red's ship stays
    on its anchor field and sets the post: discoverer 3 + completion 3 + 1 x 5 VP."""
    state, island, fields = _island_with_posts(4, 1, large=True)
    post = fields[0]
    anchor = next(a for p, a in state.map.posts if p == post)
    _cover_all_but(state, island, {post})
    state.players[0].ships = [anchor, -1]
    state.queue = [0]
    state = acting(state, "blue", 1)
    state = play(state, {"type": "sail", "ship": 0, "to": anchor, "post": True})
    assert state.completed[island]
    assert state.players[0].vp == 3 + 3 + 1 * TIME_VALUE[1]
    assert state.players[0].chests == 1
