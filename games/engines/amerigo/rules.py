"""Setup, the legal actions, applying one, and the flow of turns and rounds.

A seat's turn has two phases. In ``choose`` it picks one of the offered actions (a colour),
gold instead, or the cube-VP marker. In ``act`` it carries the chosen action out in steps
(one ship's voyage, one tile, one goods marker, ...), may buy AP for gold at any step, and
ends with ``done``. Treasure chests and one-time gold markers may be cashed at any step.

``apply`` accepts exactly what ``legal_actions`` offers (both go through ``_offers``), so a
refused action leaves the state as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from ..protocol import SeatOutcome, placements
from . import islands, tower
from .actions import IllegalAction, check_shape
from .data import (
    CANNON_MAX,
    CHEST_GOLD,
    COLOURS,
    COMPLETION_TABLE,
    COMPLETION_VP,
    CUBES_PER_COLOUR,
    DISCOVERER_VP,
    END_MARKERS,
    GOLD_MAX,
    GOLD_PER_CUBES,
    GOODS,
    GOODS_FIELDS,
    GOODS_MARKERS,
    LANDSCAPES,
    MARKER_GOLD,
    ORDER_TRACK,
    PIRATES,
    PIRATES_FACE_DOWN,
    PLAYER_COUNTS,
    PROGRESS_FIELDS,
    PROGRESS_MARKERS,
    PROGRESS_TRACK_END,
    PROGRESS_VP,
    ROUNDS,
    SHAPES,
    TIME_VALUE,
    TRACK_END_GOLD,
    VILLAGES,
    landscape_vp,
    village_vp,
)
from .state import FREE, GENERAL, POST, VILLAGE, Player, State

Log = list[dict[str, Any]] | None
WHITE = COLOURS.index("white")
ORDER_END = len(ORDER_TRACK) - 1
TRACKS = {"black": CANNON_MAX, "brown": PROGRESS_TRACK_END, "white": ORDER_END}
"""The colours whose action moves a disc along a track, and the track's last field."""


def _emit(log: Log, event: str, **fields: Any) -> None:
    if log is not None:
        log.append({"event": event, **fields})


def _draw(state: State) -> random.Random:
    """The state's random source; ``_keep`` stores where it got to."""
    return random.Random(state.rng)


def _keep(state: State, rng: random.Random) -> None:
    state.rng = rng.getrandbits(63)


# --- Setup ---------------------------------------------------------------------------------


def goods_markers(num_players: int) -> list[list[Any]]:
    """The goods markers in play with ``num_players``: ``[kind, cost]`` each."""
    return [
        [kind, cost]
        for n in PLAYER_COUNTS
        if n <= num_players
        for cost, count in GOODS_MARKERS[n]
        for kind in GOODS
        for _ in range(count)
    ]


def new_game(num_players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
    """Set up the table (rulebook, setup 1-4); the start player is the top order disc."""
    if num_players not in PLAYER_COUNTS:
        raise ValueError("Amerigo is played by 2 to 4 players")
    if options:
        raise ValueError(f"unknown options: {', '.join(sorted(options))}")
    rng = random.Random(seed)
    s = State.__new__(State)
    s.num_players = num_players
    s.options = {}
    s.map = islands.generate(num_players, rng)
    count = len(s.map.island_cells)
    s.chests = [1 if s.map.large(k) else 0 for k in range(count)]
    s.discovered = [False] * count
    s.completed = [False] * count
    s.raw_left = set(s.map.raw)
    s.built = []
    s.players = [Player() for _ in range(num_players)]
    s.landscapes = dict(LANDSCAPES)

    pirates = list(PIRATES)
    rng.shuffle(pirates)
    s.pirates_unseen = pirates.pop()
    s.pirates_down = pirates[:PIRATES_FACE_DOWN]
    s.pirates_up = [s.pirates_down.pop(rng.randrange(len(s.pirates_down)))]

    markers = [m for m, n in PROGRESS_MARKERS.items() for _ in range(n)]
    rng.shuffle(markers)
    s.progress = markers[:PROGRESS_FIELDS]
    s.progress_stack = markers[PROGRESS_FIELDS:]
    s.progress_discarded = []

    goods = goods_markers(num_players)
    rng.shuffle(goods)
    shown = GOODS_FIELDS[num_players]
    s.goods = goods[:shown]
    rest = goods[shown:]
    s.goods_stacks = [rest[i * shown : (i + 1) * shown] for i in range(ROUNDS - 1)]
    s.goods_discarded = []

    order = list(range(num_players))
    rng.shuffle(order)
    s.order_track = [[] for _ in ORDER_TRACK]
    s.order_track[0] = order[::-1]  # bottom to top: the start player lies on top
    for before, seat in enumerate(order):
        s.players[seat].gold = before

    s.tower = [0] * len(COLOURS)
    s.field = [0] * len(COLOURS)
    s.supply = tower.throw(s.tower, [CUBES_PER_COLOUR] * len(COLOURS), rng)
    s.rng = rng.getrandbits(63)
    s.round, s.turn, s.phase = 1, 0, "choose"
    s.queue, s.act, s.final = [], None, None
    s.cover = [FREE] * (s.map.rows * s.map.cols)
    _start_turn(s, None)
    return s


# --- Flow ----------------------------------------------------------------------------------


def turn_order(state: State) -> list[int]:
    """Furthest forward on the special-action track first; on one field, the top disc first."""
    return [seat for stack in reversed(state.order_track) for seat in reversed(stack)]


def _start_turn(state: State, log: Log) -> None:
    """Throw the current colour's cubes until a turn has cubes in the action field (or the
    round ends)."""
    while True:
        k = state.turn
        thrown = [0] * len(COLOURS)
        thrown[k] = state.supply[k]
        state.supply[k] = 0
        if thrown[k]:
            rng = _draw(state)
            out = tower.throw(state.tower, thrown, rng)
            _keep(state, rng)
            state.field = out
            _emit(
                log,
                "throw",
                colour=COLOURS[k],
                thrown=thrown[k],
                out={c: n for c, n in zip(COLOURS, out, strict=True) if n},
            )
        if any(state.field):
            state.queue = turn_order(state)
            state.phase = "choose"
            state.act = None
            return
        _emit(log, "turn_skipped", colour=COLOURS[k])
        if not _next_turn(state, log):
            return


def _next_turn(state: State, log: Log) -> bool:
    """Cubes back to the supply, then the next colour; False when the round (or game) ended."""
    for k in range(len(COLOURS)):
        state.supply[k] += state.field[k]
    state.field = [0] * len(COLOURS)
    if state.turn < len(COLOURS) - 1:
        state.turn += 1
        return True
    _end_round(state, log)
    if state.phase == "over":
        return False
    state.turn = 0
    return True


def _end_seat(state: State, log: Log) -> None:
    state.queue.pop(0)
    state.act = None
    state.phase = "choose"
    if not state.queue and _next_turn(state, log):
        _start_turn(state, log)


def pirate_strength(state: State, seat: int) -> int:
    """The face-up pirates, 2 stronger per other player's pirate marker."""
    extra = sum(
        2 * p.markers.count("pirates_plus2") for i, p in enumerate(state.players) if i != seat
    )
    return sum(state.pirates_up) + extra


def _end_round(state: State, log: Log) -> None:
    for seat, p in enumerate(state.players):
        strength = pirate_strength(state, seat)
        if p.cannons >= strength:
            p.cannons -= strength
            _emit(log, "pirates_repelled", seat=seat, strength=strength, cannons=p.cannons)
            if "repel_gold" in p.markers:
                _gain_gold(state, seat, TRACK_END_GOLD, log, "repel_gold")
        else:
            loss = -(-strength // 2) if "half_damage" in p.markers else strength
            lost = min(loss, p.vp)
            p.cannons = 0
            p.vp -= lost
            _emit(log, "pirates_damage", seat=seat, strength=strength, vp=lost)
    if state.round == ROUNDS:
        _final_scoring(state, log)
        return
    state.pirates_up.append(state.pirates_down.pop(0))
    state.progress_discarded += [m for m in state.progress[4:] if m is not None]
    draw = state.progress_stack[:4]
    state.progress_stack = state.progress_stack[4:]
    state.progress = [*draw, *([None] * (4 - len(draw))), *state.progress[:4]]
    state.goods_discarded += [g for g in state.goods if g is not None]
    state.goods = state.goods_stacks.pop(0)
    state.round += 1
    _emit(
        log,
        "round_start",
        round=state.round,
        pirates=sum(state.pirates_up),
        time=TIME_VALUE[state.round],
    )


def _gain_gold(state: State, seat: int, gold: int, log: Log, source: str) -> int:
    """Gold onto the gold track; beyond 12 it becomes VP, 1 for 1 (returned)."""
    p = state.players[seat]
    room = GOLD_MAX - p.gold
    kept = min(room, gold)
    p.gold += kept
    p.vp += gold - kept
    _emit(log, "gold", seat=seat, gold=kept, vp=gold - kept, source=source)
    return gold - kept


def _final_scoring(state: State, log: Log) -> None:
    """Game end (rulebook, in its order): gold, goods, progress, special-action track."""
    state.final = []
    for seat, p in enumerate(state.players):
        before = p.vp
        cash = CHEST_GOLD * p.chests + sum(
            MARKER_GOLD[m] for m in p.markers if m in MARKER_GOLD and p.unused(m)
        )
        p.chests = 0
        p.used += [m for m in p.markers if m in MARKER_GOLD and p.unused(m)]
        overflow = _gain_gold(state, seat, cash, log, "final") if cash else 0
        gold = p.gold
        p.vp += gold
        goods = [
            p.raw[k] * (1 + sum(1 for g in p.goods if g[0] == kind)) for k, kind in enumerate(GOODS)
        ]
        p.vp += sum(goods)
        end = {
            "end_posts": len(p.posts),
            "end_7": 7,
            "end_gold": min(p.gold, GOLD_MAX),
        }
        markers = sum(end[m] * p.markers.count(m) for m in END_MARKERS)
        track = progress_vp(p.progress)
        order = ORDER_TRACK[order_field(state, seat)][1]
        p.vp += markers + track + order
        entry = {
            "seat": seat,
            "before": before,
            "gold_overflow": overflow,
            "gold": gold,
            "goods": dict(zip(GOODS, goods, strict=True)),
            "progress_markers": markers,
            "progress_track": track,
            "order_track": order,
            "total": p.vp,
        }
        state.final.append(entry)
        _emit(log, "final_scoring", **entry)
    state.phase = "over"
    state.queue = []
    state.act = None
    _emit(log, "game_over", winners=winners(state))


def progress_vp(field: int) -> int:
    return max((vp for f, vp in PROGRESS_VP.items() if f <= field), default=0)


def order_field(state: State, seat: int) -> int:
    return next(i for i, stack in enumerate(state.order_track) if seat in stack)


def outcome(state: State) -> tuple[SeatOutcome, ...]:
    """Each seat's VP and placement, at any time. "Der Spieler mit den meisten Siegpunkten
    gewinnt. Bei Gleichstand gewinnt der Spieler, der am weitesten vorne auf der
    Sonderaktionsleiste liegt": the same decides every placement, and of discs on one field
    the top one is ahead (it moves first, ``turn_order``), so no two seats share one."""
    order = turn_order(state)
    ranks = placements([(p.vp, -order.index(seat)) for seat, p in enumerate(state.players)])
    return tuple(
        SeatOutcome(
            seat,
            ranks[seat],
            p.vp,
            _parts(state, seat),
            {"special_action_field": order_field(state, seat) + 1},
        )
        for seat, p in enumerate(state.players)
    )


def _parts(state: State, seat: int) -> dict[str, int]:
    """The VP of the game so far; after the final scoring, its four steps besides."""
    if not state.final:
        return {"during_play": state.players[seat].vp}
    final = state.final[seat]
    return {
        "during_play": final["before"],
        "gold": final["gold_overflow"] + final["gold"],
        "goods": sum(final["goods"].values()),
        "progress_markers": final["progress_markers"],
        "progress_track": final["progress_track"],
        "special_action_track": final["order_track"],
    }


def winners(state: State) -> list[int]:
    """The seat placed first, once the game is over (the game-over event names it)."""
    if state.phase != "over":
        return []
    return [standing.seat for standing in outcome(state) if standing.placement == 1]


# --- What a seat may do --------------------------------------------------------------------


def action_points(state: State, seat: int, colour: str) -> int:
    """The largest count of one colour in the action field, plus the seat's AP markers."""
    p = state.players[seat]
    bonus = 2 * p.markers.count("ap2_" + colour)
    bonus += sum(1 for m in p.markers if m.startswith("ap1_") and colour in m.split("_")[1:])
    return max(state.field) + bonus


def choosable(state: State, seat: int) -> list[str]:
    """The colours ``seat`` may choose: those in the action field; with white cubes there and
    the disc moved, the colour of its field when absent (any absent colour from the last
    field); planning for building or back with the swap marker."""
    present = [c for k, c in enumerate(COLOURS) if state.field[k]]
    out = list(present)
    p = state.players[seat]
    if state.field[WHITE] and p.moved:
        colour = ORDER_TRACK[order_field(state, seat)][0]
        extra = [c for c in COLOURS if c != "white"] if colour == "any" else [colour]
        out += [c for c in extra if c not in out]
    if "swap_plan_build" in p.markers:
        if "green" in present and "red" not in out:
            out.append("red")
        if "red" in present and "green" not in out:
            out.append("green")
    return [c for c in COLOURS if c in out]


def _cash_offers(p: Player) -> Iterator[dict[str, Any]]:
    if p.chests:
        yield {"type": "cash", "item": "chest"}
    for m in MARKER_GOLD:
        if p.unused(m):
            yield {"type": "cash", "item": m}


def _offers(state: State, kind: str | None = None) -> Iterator[dict[str, Any]]:
    """The legal actions (of ``kind`` only, when given)."""
    if state.phase == "over" or not state.queue:
        return
    seat = state.queue[0]
    p = state.players[seat]
    if kind in (None, "cash"):
        yield from _cash_offers(p)
    if state.phase == "choose":
        if kind in (None, "choose"):
            for c in choosable(state, seat):
                yield {"type": "choose", "colour": c}
        if kind in (None, "gold"):
            yield {"type": "gold"}
        if kind in (None, "cube_vp") and p.unused("cube_vp"):
            yield {"type": "cube_vp"}
        return
    act = state.act
    if act["pending"]:
        if kind in (None, "pick"):
            for slot, m in enumerate(state.progress):
                if m is not None:
                    yield {"type": "pick", "slot": slot}
        return
    left = act["ap"] - act["spent"]
    colour = act["colour"]
    # Gold raises the AP "beliebig": also beyond what a track's end has room for.
    if kind in (None, "buy_ap") and p.gold:
        yield {"type": "buy_ap"}
    if colour in TRACKS:
        if kind in (None, "advance"):
            room = TRACKS[colour] - _track_position(state, seat, colour)
            for n in range(1, min(left, room) + 1):
                yield {"type": "advance", "steps": n}
        if colour == "white" and kind in (None, "leap") and p.unused("leader"):
            leader = turn_order(state)[0]
            if leader != seat:
                yield {"type": "leap"}
    elif colour == "blue":
        yield from _shipping_offers(state, seat, kind)
    elif colour == "red" and kind in (None, "take"):
        limit = 2 if "two_landscapes" in p.markers else 1
        if act["general"] < limit:
            for tile, n in state.landscapes.items():
                if n and len(SHAPES[tile]) <= left:
                    yield {"type": "take", "tile": tile}
        if left:
            for tile, n in p.villages.items():
                if n:
                    yield {"type": "take", "tile": tile}
    elif colour == "green" and kind in (None, "build"):
        yield from _building_offers(state, seat, left)
    elif colour == "yellow" and kind in (None, "buy"):
        for slot, g in enumerate(state.goods):
            if g is not None and g[1] <= left:
                yield {"type": "buy", "slot": slot}
    if kind in (None, "done") and not (colour == "blue" and _ship_off_board(p)):
        yield {"type": "done"}


def _ship_off_board(p: Player) -> bool:
    """A ship not yet set on the frame: the first shipping action sets both ("setzt zunächst
    seine Schiffe ... ein") before it ends, or the ship could be set anywhere later, for free."""
    return any(cell < 0 for cell in p.ships)


def _track_position(state: State, seat: int, colour: str) -> int:
    p = state.players[seat]
    if colour == "black":
        return p.cannons
    if colour == "brown":
        return p.progress
    return order_field(state, seat)


def _sea(state: State, start: int, reach: int) -> dict[int, int]:
    """Water fields a ship on ``start`` reaches in at most ``reach`` moves: field → moves."""
    m = state.map
    seen = {start: 0}
    edge = [start]
    for step in range(1, reach + 1):
        nxt = []
        for cell in edge:
            for n in m.neighbours[cell]:
                if n not in seen and m.is_water(n):
                    seen[n] = step
                    nxt.append(n)
        edge = nxt
        if not edge:
            break
    return seen


def _shipping_offers(state: State, seat: int, kind: str | None) -> Iterator[dict[str, Any]]:
    p = state.players[seat]
    act = state.act
    m = state.map
    if kind in (None, "place_ship"):
        for ship, cell in enumerate(p.ships):
            if cell < 0:
                for field in m.frame:
                    yield {"type": "place_ship", "ship": ship, "field": field}
    if kind in (None, "marker") and p.unused("ship8"):
        yield {"type": "marker", "name": "ship8"}
    if kind not in (None, "sail"):
        return
    taken = {c for q in state.players for c in q.ships if c >= 0}
    for ship, cell in enumerate(p.ships):
        if cell < 0 or act["sailed"][ship]:
            continue
        for to in sorted(_sea(state, cell, act["ap"])):
            if to != cell and m.cells[to] != islands.FRAME and to in taken:
                continue
            yield {"type": "sail", "ship": ship, "to": to, "post": False}
            post = m.anchor_post.get(to)
            if post is not None and state.cover[post] == FREE and p.posts_left():
                yield {"type": "sail", "ship": ship, "to": to, "post": True}


def connected(state: State, seat: int) -> bytearray:
    """The fields a new tile of ``seat`` may touch: its trading posts, and the own village
    and general landscape tiles joined to one of them by an unbroken orthogonal chain."""
    cover = state.cover
    nb = state.map.neighbours
    mine = bytearray(len(cover))
    todo = list(state.players[seat].posts)
    for cell in todo:
        mine[cell] = 1
    own_village = VILLAGE + seat
    while todo:
        cell = todo.pop()
        for n in nb[cell]:
            if not mine[n] and (cover[n] == GENERAL or cover[n] == own_village):
                mine[n] = 1
                todo.append(n)
    return mine


def _building_offers(state: State, seat: int, left: int) -> Iterator[dict[str, Any]]:
    p = state.players[seat]
    if not p.posts:
        return
    tiles = sorted(set(p.landscapes)) + [v for v, n in p.villages_held.items() if n]
    if not tiles:
        return
    mine = connected(state, seat)
    cover = state.cover
    nb = state.map.neighbours
    land = state.map.island
    # Free land beside the posts and the chain: every new tile covers one of these fields.
    frontier = {
        n for cell, on in enumerate(mine) if on for n in nb[cell] if land[n] >= 0 and not cover[n]
    }
    for tile in tiles:
        village = tile in VILLAGES
        shape = VILLAGES[tile][0] if village else tile
        if (1 if village else len(SHAPES[shape])) > left:
            continue
        placements = state.map.placements(shape)
        touching = state.map.touching(shape)
        numbers = sorted({i for cell in frontier for i in touching.get(cell, ())})
        for i in numbers:
            cells = placements[i]
            if not any(cover[c] for c in cells):
                yield {"type": "build", "tile": tile, "cells": list(cells)}


def legal_actions(state: State) -> list[dict[str, Any]]:
    return list(_offers(state))


def current_player(state: State) -> int | None:
    return state.current()


def is_over(state: State) -> bool:
    return state.phase == "over"


# --- Applying an action ----------------------------------------------------------------------


def check(state: State, action: dict[str, Any]) -> None:
    """Raise ``IllegalAction`` unless ``action`` is one of the legal actions now."""
    check_shape(action)
    if state.phase == "over":
        raise IllegalAction("game_over")
    kind = action["type"]
    if any(offer == action for offer in _offers(state, kind)):
        return
    if state.phase == "choose" and kind not in ("choose", "gold", "cube_vp", "cash"):
        raise IllegalAction("choose_first", type=kind)
    if state.phase == "act" and state.act["pending"] and kind != "cash":
        raise IllegalAction("pick_marker_first")
    if state.phase == "act" and kind in ("choose", "gold", "cube_vp"):
        raise IllegalAction("already_chosen", colour=state.act["colour"])
    if kind == "done" and state.act["colour"] == "blue":  # not offered: a ship off the board
        raise IllegalAction("place_ships_first")
    if kind == "buy_ap" and not state.players[state.queue[0]].gold:
        raise IllegalAction("no_gold")
    if kind == "choose":
        raise IllegalAction("colour_not_offered", colour=action["colour"])
    raise IllegalAction("not_allowed", type=kind)


def apply(state: State, action: dict[str, Any], *, log: Log = None, inplace: bool = False) -> State:
    """The state after the current seat's ``action`` (see the module docstring)."""
    check(state, action)
    s = state if inplace else state.clone()
    _play(s, action, log)
    return s


def _play(s: State, a: dict[str, Any], log: Log) -> None:
    seat = s.queue[0]
    p = s.players[seat]
    kind = a["type"]
    if kind == "cash":
        item = a["item"]
        if item == "chest":
            p.chests -= 1
            _gain_gold(s, seat, CHEST_GOLD, log, "chest")
        else:
            p.used.append(item)
            _gain_gold(s, seat, MARKER_GOLD[item], log, item)
        return
    if kind == "gold":
        per = 2 if "gold_2to1" in p.markers else GOLD_PER_CUBES
        _emit(log, "take_gold", seat=seat)
        _gain_gold(s, seat, -(-sum(s.field) // per), log, "action")
        _end_seat(s, log)
        return
    if kind == "cube_vp":
        p.used.append("cube_vp")
        p.vp += sum(s.field)
        _emit(log, "cube_vp", seat=seat, vp=sum(s.field))
        _end_seat(s, log)
        return
    if kind == "choose":
        colour = a["colour"]
        ap = action_points(s, seat, colour)
        s.phase = "act"
        s.act = new_act(colour, ap)
        _emit(
            log,
            "choose",
            seat=seat,
            colour=colour,
            ap=ap,
            special=s.field[COLOURS.index(colour)] == 0,
        )
        return
    act = s.act
    if kind == "buy_ap":
        p.gold -= 1
        act["ap"] += 1
        _emit(log, "buy_ap", seat=seat, ap=act["ap"])
    elif kind == "done":
        colour = act["colour"]
        left = act["ap"] > act["spent"]
        if left and colour in TRACKS and _track_position(s, seat, colour) == TRACKS[colour]:
            _gain_gold(s, seat, TRACK_END_GOLD, log, "track_end")
        _end_seat(s, log)
    elif kind == "advance":
        _advance(s, seat, a["steps"], log)
    elif kind == "leap":
        p.used.append("leader")
        leader = turn_order(s)[0]
        target = order_field(s, leader)
        s.order_track[order_field(s, seat)].remove(seat)
        s.order_track[target].append(seat)
        p.moved = True
        _emit(log, "order_leap", seat=seat, field=target)
        _end_seat(s, log)
    elif kind == "pick":
        marker = s.progress[a["slot"]]
        s.progress[a["slot"]] = None
        p.markers.append(marker)
        act["pending"] -= 1
        _emit(log, "progress_marker", seat=seat, marker=marker, slot=a["slot"])
        if not any(m is not None for m in s.progress):
            act["pending"] = 0
    elif kind == "place_ship":
        p.ships[a["ship"]] = a["field"]
        row, col = divmod(a["field"], s.map.cols)
        _emit(log, "ship_placed", seat=seat, ship=a["ship"], field=a["field"], row=row, col=col)
    elif kind == "marker":
        p.used.append("ship8")
        act["ap"] += 8
        _emit(log, "ship8", seat=seat, ap=act["ap"])
    elif kind == "sail":
        act["sailed"][a["ship"]] = True
        start, p.ships[a["ship"]] = p.ships[a["ship"]], a["to"]
        post = s.map.anchor_post.get(a["to"])
        _emit(
            log,
            "sail",
            seat=seat,
            ship=a["ship"],
            to=a["to"],
            row=a["to"] // s.map.cols,
            col=a["to"] % s.map.cols,
            stayed=start == a["to"],
            island=None if post is None else s.map.island[post],
        )
        if a["post"]:
            _place_post(s, seat, s.map.anchor_post[a["to"]], log)
    elif kind == "take":
        tile = a["tile"]
        if tile in VILLAGES:
            p.villages[tile] -= 1
            p.villages_held[tile] += 1
            act["spent"] += 1
        else:
            s.landscapes[tile] -= 1
            p.landscapes.append(tile)
            act["general"] += 1
            act["spent"] += len(SHAPES[tile])
        _emit(log, "tile_taken", seat=seat, tile=tile)
    elif kind == "build":
        _build(s, seat, a["tile"], a["cells"], log)
    elif kind == "buy":
        good = s.goods[a["slot"]]
        s.goods[a["slot"]] = None
        p.goods.append(good)
        act["spent"] += good[1]
        _emit(log, "goods_bought", seat=seat, good=good[0], cost=good[1])


def new_act(colour: str, ap: int) -> dict[str, Any]:
    """The record of an action under way: ``spent`` AP, progress markers ``pending``, general
    landscape tiles taken, ships ``sailed``."""
    return {
        "colour": colour,
        "ap": ap,
        "spent": 0,
        "pending": 0,
        "general": 0,
        "sailed": [False, False],
    }


def _advance(s: State, seat: int, steps: int, log: Log) -> None:
    p = s.players[seat]
    act = s.act
    colour = act["colour"]
    act["spent"] += steps
    if colour == "black":
        p.cannons += steps
        _emit(log, "cannons", seat=seat, steps=steps, cannons=p.cannons)
    elif colour == "brown":
        old, p.progress = p.progress, p.progress + steps
        passed = sum(1 for f in PROGRESS_VP if old < f <= p.progress)
        act["pending"] += passed if any(m is not None for m in s.progress) else 0
        _emit(log, "progress", seat=seat, steps=steps, field=p.progress, markers=passed)
    else:
        field = order_field(s, seat)
        s.order_track[field].remove(seat)
        s.order_track[field + steps].append(seat)
        p.moved = True
        _emit(log, "order", seat=seat, steps=steps, field=field + steps)


def _place_post(s: State, seat: int, cell: int, log: Log) -> None:
    p = s.players[seat]
    island = s.map.island[cell]
    p.posts.append(cell)
    s.cover[cell] = POST + seat
    _emit(log, "trading_post", seat=seat, field=cell, island=island)
    if not s.discovered[island]:
        s.discovered[island] = True
        p.vp += DISCOVERER_VP
        _emit(log, "discoverer", seat=seat, island=island, vp=DISCOVERER_VP)
    if "post_gold" in p.markers:
        _gain_gold(s, seat, 1, log, "post_gold")
    _check_completion(s, seat, island, log)


def _build(s: State, seat: int, tile: str, cells: list[int], log: Log) -> None:
    p = s.players[seat]
    village = tile in VILLAGES
    if village:
        p.villages_held[tile] -= 1
        s.act["spent"] += 1
        value = VILLAGE + seat
    else:
        p.landscapes.remove(tile)
        s.act["spent"] += len(SHAPES[tile])
        value = GENERAL
    for c in cells:
        s.cover[c] = value
    s.built.append({"tile": tile, "seat": seat, "cells": list(cells)})
    island = s.map.island[cells[0]]
    size = len(cells)
    small, large = village_vp(size) if village else landscape_vp(size)
    vp = large if s.map.large(island) else small
    p.vp += vp
    _emit(log, "build", seat=seat, tile=tile, cells=list(cells), island=island, vp=vp)
    for c in cells:
        if c in s.raw_left:
            s.raw_left.discard(c)
            good = s.map.raw[c]
            p.raw[GOODS.index(good)] += 1
            _emit(log, "raw_material", seat=seat, good=good, field=c)
    _check_completion(s, seat, island, log)


def _check_completion(s: State, seat: int, island: int, log: Log) -> None:
    """The last free field of an island built: 3 VP and the chest to the builder, and the
    completion table times the top time marker to every player with trading posts there."""
    cover = s.cover
    if s.completed[island] or any(cover[c] == FREE for c in s.map.island_cells[island]):
        return
    s.completed[island] = True
    p = s.players[seat]
    p.vp += COMPLETION_VP
    chest = bool(s.chests[island])
    if chest:
        s.chests[island] = 0
        p.chests += 1
    _emit(log, "island_completed", seat=seat, island=island, vp=COMPLETION_VP, chest=chest)
    time = TIME_VALUE[s.round]
    cells = set(s.map.island_cells[island])
    for other, q in enumerate(s.players):
        posts = sum(1 for c in q.posts if c in cells)
        if posts:
            vp = COMPLETION_TABLE[min(posts, len(COMPLETION_TABLE) - 1)] * time
            q.vp += vp
            _emit(log, "completion_vp", seat=other, island=island, posts=posts, time=time, vp=vp)
