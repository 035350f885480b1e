"""The cube tower, skipped turns, the round-end refresh and the shipping rules."""

from __future__ import annotations

import random

from games.engines import amerigo as am
from games.engines.amerigo import rules, tower
from games.engines.amerigo.data import COLOURS, GOODS_FIELDS
from games.engines.amerigo.islands import FRAME, WATER

from .positions import last_turn_of_round, play, position


def test_tower_keeps_every_cube_and_lets_new_ones_out_2_in_3_and_inside_ones_1_in_3():
    rng = random.Random(0)
    new_out = inside_out = new_total = inside_total = 0
    for _ in range(3000):
        inside = [0] * len(COLOURS)
        inside[0] = 5  # 5 blue inside, 7 black thrown in: colours are counted apart
        thrown = [0] * len(COLOURS)
        thrown[1] = 7
        out = tower.throw(inside, thrown, rng)
        assert out[0] + inside[0] == 5 and out[1] + inside[1] == 7
        inside_out += out[0]
        new_out += out[1]
        inside_total += 5
        new_total += 7
    assert abs(new_out / new_total - 2 / 3) < 0.02
    assert abs(inside_out / inside_total - 1 / 3) < 0.02


def test_the_first_throw_puts_every_cube_in_the_supply_or_the_tower():
    for seed in range(10):
        state = am.new_game(2, seed)
        for k in range(len(COLOURS)):
            assert state.supply[k] + state.field[k] + state.tower[k] == 7


def test_an_empty_supply_field_skips_the_turn():
    state = position(field={"blue": 1})
    state.supply[COLOURS.index("black")] = 0
    log: list[dict] = []
    state = play(state, {"type": "gold"}, log=log)
    assert {"event": "turn_skipped", "colour": "black"} in log
    assert state.turn >= COLOURS.index("red")


def test_round_end_turns_up_a_pirate_shifts_progress_markers_and_lays_new_goods():
    state = position(3, 4, field={"white": 1})
    left, right = state.progress[:4], state.progress[4:]
    next_markers = state.progress_stack[:4]
    next_goods = state.goods_stacks[0]
    down = state.pirates_down[0]
    state = play(last_turn_of_round(state, 1), {"type": "gold"})
    assert state.round == 2 and state.turn == 0
    assert state.progress == next_markers + left
    assert state.progress_discarded == right
    assert state.goods == next_goods and len(state.goods) == GOODS_FIELDS[3]
    assert state.pirates_up[-1] == down and len(state.pirates_up) == 2


def _interior_water_next_to_frame(state):
    m = state.map
    for field in m.frame:
        for n in m.neighbours[field]:
            if m.cells[n] == WATER:
                return field, n
    raise AssertionError


def test_a_field_between_islands_holds_one_ship_the_frame_any_number():
    state = position(field={"blue": 2})
    frame, water = _interior_water_next_to_frame(state)
    state.players[1].ships = [water, frame]
    state = play(
        state,
        {"type": "choose", "colour": "blue"},
        {"type": "place_ship", "ship": 0, "field": frame},
    )
    targets = {a["to"] for a in am.legal_actions(state) if a["type"] == "sail"}
    assert water not in targets
    assert frame in targets
    assert state.map.cells[frame] == FRAME


def test_ships_move_at_most_their_ap():
    state = position(field={"blue": 2})
    frame, _ = _interior_water_next_to_frame(state)
    state = play(
        state,
        {"type": "choose", "colour": "blue"},
        {"type": "place_ship", "ship": 0, "field": frame},
    )
    reach = rules._sea(state, frame, 2)
    targets = {a["to"] for a in am.legal_actions(state) if a["type"] == "sail"}
    assert targets <= set(reach) and max(reach[t] for t in targets) == 2
    state = play(state, {"type": "buy_ap"})
    more = {a["to"] for a in am.legal_actions(state) if a["type"] == "sail"}
    assert max(rules._sea(state, frame, 3)[t] for t in more) == 3
