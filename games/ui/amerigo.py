"""The Amerigo board: what the template draws, and posted forms turned into actions.

The board is handed the viewer's ``player_view``, never the state, so what a seat may not know
(inside the cube tower, the face-down stacks and pirates, the seed) never reaches it; the rules
are asked about the open table on ``masked_state(view)``. Choices are listed only for the seat
to act, exactly as the engine lists them; the engine judges every posted action again, so
nothing here decides what is legal.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.engines import amerigo as am
from games.engines.amerigo.data import (
    CANNON_MAX,
    CHEST_GOLD,
    COLOURS,
    GOLD_MAX,
    GOLD_PER_CUBES,
    GOODS,
    LARGE_ISLAND,
    MARKER_GOLD,
    ORDER_TRACK,
    PROGRESS_TRACK_END,
    PROGRESS_VP,
    SHAPES,
    TIME_VALUE,
    VILLAGES,
)
from games.engines.amerigo.rules import action_points, pirate_strength
from games.engines.amerigo.view import masked_state
from games.ui.amerigo_events import describe_refusal
from games.ui.amerigo_names import (
    ACTION_NAMES,
    COLOUR_NAMES,
    GOOD_NAMES,
    ap,
    field_name,
    gold,
    island_name,
    marker_name,
    tile_name,
    vp,
)
from games.ui.posted import action_json, check_size

CELL = 20
"""Drawn size of one map field (SVG units)."""
MARGIN = 14
"""Room for the column letters and row numbers around the map."""
BUTTONS_AT_MOST = 8
"""A group of more choices than this is a list to pick from, not a row of buttons."""


COAST_RADIUS = 6
"""How round an island's coast is drawn at a corner of its fields (SVG units)."""


def board_context(
    view: dict[str, Any], names: list[str], legal=None, posted=None
) -> dict[str, Any]:
    """Everything the board's template shows of ``view`` (``player_view`` of the seat
    ``view["seat"]``, None for a spectator), under one key so it cannot clash with the
    platform's. ``legal``: the viewer's legal actions when they may move now, else None.
    ``posted`` is not needed: every Amerigo form is a single choice."""
    state = masked_state(view)
    position = view["seat"]
    over = am.is_over(state)
    choices = [] if legal is None else _choices(state, position, legal)
    cols = view["map"]["cols"]
    return {
        "am": {
            "viewer": position,
            "round": view["round"],
            "turn": view["turn"] + 1,
            "colour_name": ACTION_NAMES[COLOURS[view["turn"]]],
            "over": over,
            "decision": _decision(state, view, names, position),
            "map": _map(state, view, choices),
            "rondel": _rondel(view),
            "tracks": _tracks(view),
            "central": _central(view),
            "players": [_player(state, view, seat, names, cols) for seat in range(len(names))],
            "choices": choices,
        }
    }


def moderator_board_context(state: am.State, names: list[str]) -> dict[str, Any]:
    """The board as a moderator sees it: a spectator's. Whatever Amerigo hides (the tower, the
    face-down stacks and pirates, the seed) it hides from every seat alike, and the board
    draws none of it; the page lists the whole state beside it."""
    return board_context(am.player_view(state, None), names)


# The map ------------------------------------------------------------------------------------


def _map(state: am.State, view: dict, choices: list[dict]) -> dict[str, Any]:
    """The island landscape as fields to draw, with what stands on them."""
    m = view["map"]
    rows, cols = m["rows"], m["cols"]
    kinds = {"f": "frame", "~": "water", "L": "land"}
    island = state.map.island
    built: dict[int, dict] = {}
    for b in view["built"]:
        village = b["tile"] in VILLAGES
        for c in b["cells"]:
            built[c] = {"seat": b["seat"], "village": village, "tile": tile_name(b["tile"])}
    posts = {c: seat for seat, p in enumerate(view["players"]) for c in p["posts"]}
    ships = {
        c: {"seat": seat, "ship": k + 1}
        for seat, p in enumerate(view["players"])
        for k, c in enumerate(p["ships"])
        if c >= 0
    }
    anchors = {anchor for _post, anchor in m["posts"]}
    post_fields = {post for post, _anchor in m["posts"]}
    raw_left = set(view["raw_left"])
    legal: dict[int, int] = {}
    for group in choices:
        for option in group["options"]:
            for c in option["cells"]:
                legal[c] = legal.get(c, 0) + 1
    first_of_island: dict[int, int] = {}
    for i, k in enumerate(island):
        if k >= 0:
            first_of_island.setdefault(k, i)
    water = [i for i in range(rows * cols) if m["cells"][i // cols][i % cols] in "~f"]
    frame = [i for i in range(rows * cols) if m["cells"][i // cols][i % cols] == "f"]
    fields = []
    for i in range(rows * cols):
        kind = kinds.get(m["cells"][i // cols][i % cols])
        if kind is None:
            continue
        r, c = divmod(i, cols)
        k = island[i]
        fields.append(
            {
                "field": i,
                "name": field_name(i, cols),
                "x": MARGIN + c * CELL,
                "y": MARGIN + r * CELL,
                "kind": kind,
                "island": k,
                "island_label": k + 1 if k >= 0 and first_of_island[k] == i else None,
                "completed": k >= 0 and view["completed"][k],
                "anchor": i in anchors,
                "post_field": i in post_fields,
                "post": posts.get(i),
                "raw": m["raw"].get(str(i)) if i in raw_left else None,
                "raw_name": GOOD_NAMES[m["raw"][str(i)]] if i in raw_left else None,
                "built": built.get(i),
                "ship": ships.get(i),
                "ship_mine": i in ships and ships[i]["seat"] == view["seat"],
                "legal": i in legal,
                "moves": legal.get(i, 0),
            }
        )
    return {
        "width": 2 * MARGIN + cols * CELL,
        "height": 2 * MARGIN + rows * CELL,
        "cell": CELL,
        "sea": outline(water, cols, 0),
        "frame": outline(frame, cols, 2),
        "coasts": [
            {"island": k, "path": outline(cells, cols, COAST_RADIUS), "done": view["completed"][k]}
            for k, cells in enumerate(state.map.island_cells)
        ],
        "tiles": [
            {
                "path": outline(b["cells"], cols, 3),
                "village": b["tile"] in VILLAGES,
                "seat": b["seat"],
            }
            for b in view["built"]
        ],
        "fields": fields,
        "columns": [
            {"x": MARGIN + c * CELL + CELL // 2, "label": chr(ord("A") + c)} for c in range(cols)
        ],
        "rows": [{"y": MARGIN + r * CELL + CELL // 2 + 4, "label": r + 1} for r in range(rows)],
        "islands": [
            {
                "name": island_name(k),
                "size": len(cells),
                "large": len(cells) >= LARGE_ISLAND,
                "chest": bool(view["chests"][k]),
                "discovered": view["discovered"][k],
                "completed": view["completed"][k],
            }
            for k, cells in enumerate(state.map.island_cells)
        ],
        "legal": bool(legal),
    }


def outline(cells, cols: int, radius: int) -> str:
    """An SVG path round the union of the map fields ``cells`` (a map of ``cols`` columns),
    its corners rounded by ``radius``. Each ring runs with the fields on its right: clockwise
    round land, anticlockwise round a lake inside it, so the nonzero fill leaves lakes open."""
    inside = {divmod(c, cols) for c in cells}
    nexts: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for r, c in inside:  # points are (column, row) corners of fields
        if (r - 1, c) not in inside:
            nexts.setdefault((c, r), []).append((c + 1, r))
        if (r, c + 1) not in inside:
            nexts.setdefault((c + 1, r), []).append((c + 1, r + 1))
        if (r + 1, c) not in inside:
            nexts.setdefault((c + 1, r + 1), []).append((c, r + 1))
        if (r, c - 1) not in inside:
            nexts.setdefault((c, r + 1), []).append((c, r))
    rings = []
    while nexts:
        start = min(nexts)
        ring, point, heading = [start], start, None
        while True:
            ends = nexts[point]
            # Where two fields touch only at a corner, turn right: each keeps its own ring.
            end = min(ends, key=lambda e: _turn(heading, (e[0] - point[0], e[1] - point[1])))
            ends.remove(end)
            if not ends:
                del nexts[point]
            heading = (end[0] - point[0], end[1] - point[1])
            point = end
            if point == start:
                break
            ring.append(point)
        rings.append(_corners(ring))
    return " ".join(_rounded(ring, radius) for ring in rings)


def _turn(heading, step) -> int:
    """0 for a right turn, 1 straight on, 2 left (screen coordinates: y grows downwards)."""
    if heading is None:
        return 0
    cross = heading[0] * step[1] - heading[1] * step[0]
    return 0 if cross > 0 else 1 if cross == 0 else 2


def _corners(ring: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ring without the points where it runs straight on."""
    n = len(ring)
    return [
        q
        for k, q in enumerate(ring)
        if (q[0] - ring[k - 1][0]) * (ring[(k + 1) % n][1] - q[1])
        != (q[1] - ring[k - 1][1]) * (ring[(k + 1) % n][0] - q[0])
    ]


def _rounded(ring: list[tuple[int, int]], radius: int) -> str:
    points = [(MARGIN + c * CELL, MARGIN + r * CELL) for c, r in ring]
    n = len(points)
    parts = []
    for k, (x, y) in enumerate(points):
        (px, py), (nx, ny) = points[k - 1], points[(k + 1) % n]
        r_in = min(radius, (abs(x - px) + abs(y - py)) // 2)
        r_out = min(radius, (abs(nx - x) + abs(ny - y)) // 2)
        sx = (x > px) - (x < px)
        sy = (y > py) - (y < py)
        tx = (nx > x) - (nx < x)
        ty = (ny > y) - (ny < y)
        before = f"{x - sx * r_in} {y - sy * r_in}"
        after = f"{x + tx * r_out} {y + ty * r_out}"
        parts.append(f"L{before}Q{x} {y} {after}" if radius else f"L{x} {y}")
    parts[0] = "M" + parts[0][1:]
    return "".join(parts) + "Z"


def sea_ways(state: am.State, start: int) -> dict[int, int]:
    """Each water field a ship on ``start`` can reach, with the field it comes from on a
    shortest way over water (ships do not block one another); ``start`` comes from itself."""
    m = state.map
    came_from = {start: start}
    edge = [start]
    while edge:
        nxt = []
        for cell in edge:
            for n in m.neighbours[cell]:
                if n not in came_from and m.is_water(n):
                    came_from[n] = cell
                    nxt.append(n)
        edge = nxt
    return came_from


def voyage(state: am.State, start: int, to: int, ways: dict[int, int] | None = None) -> list[int]:
    """The fields a ship on ``start`` sails through to ``to``, both ends included, as drawn
    when a voyage is pointed at (``ways``: ``sea_ways`` from ``start``, when already known).
    Which voyages are legal is the engine's call."""
    came_from = ways or sea_ways(state, start)
    way = [to]
    while way[-1] != start:
        way.append(came_from[way[-1]])
    return way[::-1]


def _centre(cell: int, cols: int) -> str:
    r, c = divmod(cell, cols)
    return f"{MARGIN + c * CELL + CELL // 2},{MARGIN + r * CELL + CELL // 2}"


# The rondel, the tracks, the central board ---------------------------------------------------


RONDEL = (115, 115, 50, 108)
"""The rondel's centre, the radius of its action field and its outer radius (SVG units)."""
TOWER_EXIT = (262, 196)
"""Where the cubes leave the drawn cube tower."""


def _rondel(view: dict) -> dict[str, Any]:
    """Each colour's supply field as a wedge round the action field, its cubes piled on it,
    and the cubes in the action field: those that fell out of the cube tower this turn."""
    cx, cy, inner, outer = RONDEL
    step = 2 * math.pi / len(COLOURS)

    def at(radius: float, angle: float) -> tuple[int, int]:
        return round(cx + radius * math.sin(angle)), round(cy - radius * math.cos(angle))

    fields = []
    for k, c in enumerate(COLOURS):
        angle = step * k
        a0, a1 = angle - step / 2, angle + step / 2
        (x0, y0), (x1, y1) = at(outer, a0), at(outer, a1)
        (x2, y2), (x3, y3) = at(inner, a1), at(inner, a0)
        wedge = (
            f"M{x0} {y0}A{outer} {outer} 0 0 1 {x1} {y1}L{x2} {y2}A{inner} {inner} 0 0 0 {x3} {y3}Z"
        )
        nx, ny = at(inner + 13, angle)
        px, py = at(inner + 40, angle)
        n = view["supply"][c]
        per_row = 4
        rows = -(-n // per_row)
        fields.append(
            {
                "colour": c,
                "name": COLOUR_NAMES[c],
                "action": ACTION_NAMES[c],
                "supply": n,
                "field": view["field"][c],
                "now": k == view["turn"] and view["phase"] != "over",
                "wedge": wedge,
                "x": nx,
                "y": ny,
                "pile": [
                    {
                        "x": px - 5 * min(per_row, n) + 1 + (i % per_row) * 10,
                        "y": py - 5 * rows + (i // per_row) * 10,
                    }
                    for i in range(n)
                ],
            }
        )
    cubes = [c for c in COLOURS for _ in range(view["field"][c])]
    per_row = 5 if len(cubes) <= 15 else 7
    rows = -(-len(cubes) // per_row)
    fell = []
    for i, c in enumerate(cubes):
        x = cx - 5 * min(per_row, len(cubes)) + (i % per_row) * 10 + 1
        y = cy - 5 * rows + (i // per_row) * 10 + 1
        fell.append(
            {
                "colour": c,
                "x": x,
                "y": y,
                "dx": TOWER_EXIT[0] - x,
                "dy": TOWER_EXIT[1] - y,
                "delay": 80 * i,
            }
        )
    return {"fields": fields, "cubes": fell, "turn": f"{view['round']}-{view['turn']}"}


TRACK_STEP = 30
"""Drawn width of one track field (SVG units); a track is drawn as wide as its box."""


def _track(title: str, fields: list[dict], at: dict[int, list[int]]) -> dict[str, Any]:
    """A track's fields with their discs, drawn in one row, and in two for a phone."""
    fields = [
        {
            **f,
            "light": f.get("colour") in (None, "white", "yellow", "any"),
            "discs": [{"seat": s, "dy": j * 8} for j, s in enumerate(at.get(k, []))],
        }
        for k, f in enumerate(fields)
    ]
    height = 36 + 8 * max((len(v) for v in at.values()), default=1) + 16
    half = -(-len(fields) // 2)
    return {
        "title": title,
        "fields": fields,
        "drawings": [
            {
                "narrow": False,
                "width": 4 + len(fields) * TRACK_STEP,
                "height": height,
                "fields": [{**f, "x": 2 + k * TRACK_STEP, "y": 2} for k, f in enumerate(fields)],
            },
            {
                "narrow": True,
                "width": 4 + half * TRACK_STEP,
                "height": 2 * height + 2,
                "fields": [
                    {**f, "x": 2 + k % half * TRACK_STEP, "y": 2 + k // half * (height + 2)}
                    for k, f in enumerate(fields)
                ],
            },
        ],
        "height": height,
    }


def _tracks(view: dict) -> list[dict[str, Any]]:
    players = view["players"]

    def where(key: str) -> dict[int, list[int]]:
        at: dict[int, list[int]] = {}
        for seat, p in enumerate(players):
            at.setdefault(p[key], []).append(seat)
        return at

    # A field's discs are listed bottom to top; the top disc (first in turn order) is drawn
    # highest.
    order = {k: discs[::-1] for k, discs in enumerate(view["order_track"]) if discs}
    tracks = [
        _track(_("Cannon track"), [{"label": n} for n in range(CANNON_MAX + 1)], where("cannons")),
        _track(
            _("Progress track"),
            [{"label": n, "vp": PROGRESS_VP.get(n)} for n in range(PROGRESS_TRACK_END + 1)],
            where("progress"),
        ),
        _track(_("Gold track"), [{"label": n} for n in range(GOLD_MAX + 1)], where("gold")),
        _track(
            _("Special-action track (order: top disc first)"),
            [{"label": k + 1, "colour": c, "vp": v} for k, (c, v) in enumerate(ORDER_TRACK)],
            order,
        ),
    ]
    # One scale for all: a field is as wide on every track.
    for k in range(2):
        widest = max(t["drawings"][k]["width"] for t in tracks)
        for t in tracks:
            t["drawings"][k]["share"] = round(100 * t["drawings"][k]["width"] / widest)
    return tracks


def _central(view: dict) -> dict[str, Any]:
    progress = [
        {"slot": k, "name": marker_name(m) if m else None, "left": k < 4}
        for k, m in enumerate(view["progress"])
    ]
    return {
        "progress_left": progress[:4],
        "progress_right": progress[4:],
        "progress_stack": view["progress_stack"],
        "goods": [
            {"slot": k, "good": g[0], "name": GOOD_NAMES[g[0]], "cost": g[1]} if g else None
            for k, g in enumerate(view["goods"])
        ],
        "goods_stacks": view["goods_stacks"],
        "pirates_up": view["pirates"]["face_up"],
        "pirates_strength": sum(view["pirates"]["face_up"]),
        "pirates_down": view["pirates"]["face_down"],
        "time": TIME_VALUE[view["round"]],
        "landscapes": [
            {
                "tile": t,
                "name": tile_name(t),
                "size": len(SHAPES[t]),
                "left": n,
                "squares": [{"x": 1 + c * 9, "y": 1 + r * 9} for r, c in SHAPES[t]],
                "width": 2 + 9 * (1 + max(c for _r, c in SHAPES[t])),
                "height": 2 + 9 * (1 + max(r for r, _c in SHAPES[t])),
            }
            for t, n in view["landscapes"].items()
        ],
    }


def _player(state: am.State, view: dict, seat: int, names: list[str], cols: int) -> dict:
    p = view["players"][seat]
    return {
        "seat": seat,
        "name": names[seat],
        "is_viewer": seat == view["seat"],
        "is_current": seat == am.current_player(state),
        "vp": p["vp"],
        "gold": p["gold"],
        "cannons": p["cannons"],
        "pirates": pirate_strength(state, seat),
        "progress": p["progress"],
        "order": am.order_field(state, seat) + 1,
        "posts": [field_name(c, cols) for c in p["posts"]],
        "ships": [field_name(c, cols) if c >= 0 else None for c in p["ships"]],
        "landscapes": [
            {"name": tile_name(t), "count": p["landscapes"].count(t)}
            for t in sorted(set(p["landscapes"]), key=p["landscapes"].index)
        ],
        "villages_held": [
            {"name": tile_name(t), "count": n} for t, n in p["villages_held"].items() if n
        ],
        "villages": sum(p["villages"].values()),
        "raw": [{"good": g, "name": GOOD_NAMES[g], "count": p["raw"][g]} for g in GOODS],
        "goods": [{"good": g, "name": GOOD_NAMES[g], "cost": c} for g, c in p["goods"]],
        "markers": [{"name": marker_name(m), "used": m in p["used"]} for m in p["markers"]],
        "chests": p["chests"],
    }


# Who decides what, and the choices ----------------------------------------------------------


def _decision(state: am.State, view: dict, names: list[str], position: int | None) -> str:
    if am.is_over(state):
        return _("The game is over.")
    seat = am.current_player(state)
    if view["phase"] == "choose":
        what = _("choose an action, or gold instead")
    elif view["act"]["pending"]:
        what = _("take a progress marker")
    else:
        words = {
            "action": ACTION_NAMES[view["act"]["colour"]],
            "ap": ap(view["act"]["ap"] - view["act"]["spent"]),
        }
        if view["act"]["colour"] == "blue" and -1 in view["players"][seat]["ships"]:
            frame_first = _(
                "%(action)s: spend %(ap)s; before ending it, put both ships on frame fields (free)"
            )
            what = frame_first % words
        elif view["act"]["colour"] == "blue":
            what = _sailing(view["act"])
        else:
            what = _("%(action)s: spend %(ap)s") % words
    if seat == position:
        return _("Your turn: %(what)s.") % {"what": what}
    return _("%(name)s is deciding: %(what)s.") % {"name": names[seat], "what": what}


def _not_sailed(act: dict) -> list[int]:
    """The ships (numbered from 1) that have not sailed in the shipping action under way.

    A voyage spends none of the action's AP: "für jeden Aktionspunkt darf der Spieler beide
    Schiffe um jeweils ein Feld ... bewegen", each ship as far as the AP reach, once. So the
    AP of shipping lie unused while a ship has not sailed, whatever the other one did."""
    return [k + 1 for k, sailed in enumerate(act["sailed"]) if not sailed]


def _sailing(act: dict) -> str:
    """What is left of a shipping action under way, in words."""
    waiting = _not_sailed(act)
    reach = ngettext("%(count)d field", "%(count)d fields", act["ap"]) % {"count": act["ap"]}
    words = {"action": ACTION_NAMES["blue"], "fields": reach}
    if len(waiting) == 2:
        return _("%(action)s: each ship may sail up to %(fields)s") % words
    if waiting:
        return _("%(action)s: ship %(ship)s may sail up to %(fields)s") % {
            **words,
            "ship": waiting[0],
        }
    return _("%(action)s: both ships have sailed") % words


def _option(
    action: dict, label: str, cells: list[int] = (), way: str = "", ship: int | None = None
) -> dict[str, Any]:
    return {
        "label": label,
        "json": json.dumps(am.action_to_json(action)),
        "cells": list(cells),
        "way": way,
        "ship": ship,
    }


GROUP_TITLES = {
    "cash": gettext_lazy("Cash in"),
    "choose": gettext_lazy("Choose an action"),
    "gold": gettext_lazy("Gold instead"),
    "cube_vp": gettext_lazy("Gold instead"),
    "pick": gettext_lazy("Take a progress marker"),
    "buy_ap": gettext_lazy("Action points"),
    "advance": gettext_lazy("Move your disc"),
    "leap": gettext_lazy("Move your disc"),
    "place_ship": gettext_lazy("Put a ship on the water (a frame field)"),
    "marker": gettext_lazy("Action points"),
    "sail": gettext_lazy("Sail a ship"),
    "take": gettext_lazy("Take a tile"),
    "build": gettext_lazy("Lay a tile"),
    "buy": gettext_lazy("Buy a goods marker"),
    "done": gettext_lazy("End your action"),
}


def _choices(state: am.State, seat: int, legal) -> list[dict[str, Any]]:
    """The seat's legal actions as labelled options, in groups as the template shows them."""
    cols = state.map.cols
    p = state.players[seat]
    act = state.act
    groups: dict[str, list[dict]] = {}
    ways: dict[int, dict[int, int]] = {}  # sea_ways by the ship's field, once for its voyages
    for a in legal:
        t = a["type"]
        cells: list[int] = []
        way, ship = "", None
        if t == "choose":
            c = a["colour"]
            words = {
                "action": capfirst(ACTION_NAMES[c]),
                "colour": COLOUR_NAMES[c],
                "ap": ap(action_points(state, seat, c)),
            }
            label = _("%(action)s (%(colour)s), %(ap)s") % words
        elif t == "gold":
            per = 2 if "gold_2to1" in p.markers else GOLD_PER_CUBES
            label = _("Take %(gold)s") % {"gold": gold(-(-sum(state.field) // per))}
        elif t == "cube_vp":
            label = _("Take %(vp)s (1 VP per cube, once)") % {"vp": vp(sum(state.field))}
        elif t == "cash":
            money = CHEST_GOLD if a["item"] == "chest" else MARKER_GOLD[a["item"]]
            what = _("treasure chest") if a["item"] == "chest" else marker_name(a["item"])
            label = _("Cash %(what)s for %(gold)s") % {"what": what, "gold": gold(money)}
        elif t == "buy_ap":
            label = _("Buy 1 AP for 1 gold")
        elif t == "advance":
            track = {"black": _("cannon track"), "brown": _("progress track")}.get(
                act["colour"], _("special-action track")
            )
            label = _("%(steps)s on the %(track)s") % {"steps": a["steps"], "track": track}
        elif t == "leap":
            label = _("Leap onto the leader's field (once)")
        elif t == "pick":
            label = marker_name(state.progress[a["slot"]])
        elif t == "place_ship":
            cells = [a["field"]]
            ship = a["ship"] + 1
            label = _("Ship %(ship)s onto %(field)s") % {
                "ship": a["ship"] + 1,
                "field": field_name(a["field"], cols),
            }
        elif t == "marker":
            label = marker_name(a["name"])
        elif t == "sail":
            cells = [a["to"]]
            ship = a["ship"] + 1
            start = p.ships[a["ship"]]
            if start not in ways:
                ways[start] = sea_ways(state, start)
            way = " ".join(_centre(c, cols) for c in voyage(state, start, a["to"], ways[start]))
            words = {"ship": a["ship"] + 1, "field": field_name(a["to"], cols)}
            if a["to"] == p.ships[a["ship"]]:
                label = _("Ship %(ship)s stays on %(field)s") % words
            else:
                label = _("Ship %(ship)s to %(field)s") % words
            if a["post"]:
                post = state.map.anchor_post[a["to"]]
                cells.append(post)  # clicking the post's field names this voyage too
                label = _("%(voyage)s and set a trading post on %(post)s") % {
                    "voyage": label,
                    "post": field_name(post, cols),
                }
        elif t == "take":
            cost = 1 if a["tile"] in VILLAGES else len(SHAPES[a["tile"]])
            label = _("%(tile)s for %(ap)s") % {
                "tile": capfirst(tile_name(a["tile"])),
                "ap": ap(cost),
            }
        elif t == "build":
            cells = a["cells"]
            label = _("%(tile)s on %(fields)s") % {
                "tile": capfirst(tile_name(a["tile"])),
                "fields": ", ".join(field_name(c, cols) for c in cells),
            }
        elif t == "buy":
            g = state.goods[a["slot"]]
            label = _("%(good)s for %(ap)s") % {"good": capfirst(GOOD_NAMES[g[0]]), "ap": ap(g[1])}
        elif act["colour"] == "blue":
            waiting = _not_sailed(act)
            if len(waiting) == 2:
                label = _("End the action (no ship has sailed)")
            elif waiting:
                label = _("End the action (ship %(ship)s has not sailed)") % {"ship": waiting[0]}
            else:
                label = _("End the action")
        else:
            left = act["ap"] - act["spent"]
            label = (
                _("End the action (%(ap)s unused)") % {"ap": ap(left)}
                if left
                else _("End the action")
            )
        groups.setdefault(str(GROUP_TITLES[t]), []).append(_option(a, label, cells, way, ship))
    return [
        {
            "title": title,
            "options": options,
            "select": len(options) > BUTTONS_AT_MOST,
            "id": k,
            "on_map": any(o["cells"] for o in options),
        }
        for k, (title, options) in enumerate(groups.items())
    ]


def describe_action(state: am.State, seat: int, action: dict) -> str:
    """One action of ``seat`` in words, as the board's option for it says: what a hint or a
    review says the AI would do. ``state`` agrees with the seat's view."""
    return _choices(state, seat, [action])[0]["options"][0]["label"]


# Posted forms -------------------------------------------------------------------------------


def action_from_post(data) -> dict[str, Any]:
    """The action JSON a posted board form stands for; ``ValueError`` says what is wrong.
    Only the form's shape is checked here: whether the action is legal is the engine's call."""
    check_size(data)
    try:
        return am.action_to_json(am.action_from_json(action_json(data)))
    except am.IllegalAction as error:
        raise ValueError(describe_refusal(error.code, error.params)) from error
