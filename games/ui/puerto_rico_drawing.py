"""Where things lie on the drawn Puerto Rico board: player boards, the table, the buildings.

The SVG templates only loop over what is built here: lists of spaces, each with its place,
its kind (CSS classes), its words and its occupants. So a new kind of space (the expansions'
forests) or of occupant (nobles, guests) is one more row here and one CSS rule, not a new
drawing. Everything comes from the seat's view (``player_view``): nothing hidden reaches it.
Each piece is drawn at the origin and moved into place (``transform``), so the templates
hold fixed sizes and the page stays cheap to render.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engines import puerto_rico as pr
from games.engines.puerto_rico.data import (
    BUILDINGS,
    GOODS,
    GUEST_HOUSE,
    ISLAND_KINDS,
    ISLAND_SPACES,
    TRADING_HOUSE_SPACES,
)
from games.ui.puerto_rico_names import (
    BUILDING_NAMES,
    FOREST_LETTER,
    GOOD_LETTERS,
    ISLAND_KIND_NAMES,
    PLACE_NAMES,
    ROLE_NAMES,
    doubloons,
)
from games.ui.puerto_rico_rules import COMPONENT_RULES, ROLE_RULES, building_rule

# A player board (viewBox 0 0 520 200): 4 by 3 island spaces, 3 by 4 city spaces, and a strip
# with San Juan, the goods, the doubloons and the VP chips.
TILE, TILE_PITCH, TOP = 46, 49, 6
CITY_X, CITY_W, CITY_PITCH_X, CITY_H, CITY_PITCH_Y = 208, 100, 103, 34, 37
ISLAND_COLUMNS, CITY_COLUMNS, CITY_ROWS = 4, 3, 4
EMPTY_SPACES = mark_safe(  # numbers only, made here
    "".join(
        f'<rect x="{TOP + n % ISLAND_COLUMNS * TILE_PITCH}"'
        f' y="{TOP + n // ISLAND_COLUMNS * TILE_PITCH}" width="{TILE}" height="{TILE}" rx="4"/>'
        for n in range(ISLAND_SPACES)
    )
    + "".join(
        f'<rect x="{CITY_X + c * CITY_PITCH_X}" y="{TOP + r * CITY_PITCH_Y}"'
        f' width="{CITY_W}" height="{CITY_H}" rx="4"/>'
        for c in range(CITY_COLUMNS)
        for r in range(CITY_ROWS)
    )
)
"""The 12 island and 12 city spaces, empty: the same on every board, so made once; tiles and
buildings are drawn over them."""
SAN_JUAN_SHOWN = 7
"""Colonists drawn in San Juan; more are counted in a number."""
# The table (viewBox 0 0 420 216) and the buildings (viewBox 0 0 420 164).
CARD_W, CARD_PITCH = 49, 52
SLOT_PITCH = 17
BUILDING_W, BUILDING_PITCH_X, BUILDING_PITCH_Y = 102, 105, 27

TIMES = "\N{MULTIPLICATION SIGN}"
"""Before the number of copies left of a building."""
EM = 0.56
"""A generous average width of a character of a sans-serif font, in font sizes."""


@cache
def words(language: str) -> dict[str, Any]:
    """The drawing's fixed words in ``language``, translated once per process: a board has
    hundreds of them, and a gettext call costs about as much as drawing the piece."""
    with translation.override(language):
        plantation = {
            k: capfirst(_("%(kind)s plantation") % {"kind": ISLAND_KIND_NAMES[k]}) for k in GOODS
        }
        return {
            "said": _("%(name)s. %(rule)s"),
            "occupied": _("occupied"),
            "noble_on": _("a noble on it"),
            "of_them_nobles": _("%(state)s (nobles among them: %(nobles)d)"),
            "forest": capfirst(PLACE_NAMES["forest"]),
            "forest_letter": str(FOREST_LETTER),
            "face_down": _(
                "A plantation just drawn face down: only its owner has seen it, and may still "
                "lay it as a forest (%(building)s)"
            )
            % {"building": BUILDING_NAMES["forest_house"]},
            "guests_of": ngettext(
                "%(colonists)d of %(circles)d guest", "%(colonists)d of %(circles)d guests", 2
            ),
            "free_space": _("free space"),
            "free_space_title": _("Free space for a violet building costing %(cost)d"),
            "empty": _("empty"),
            "vp": _("VP"),
            "letters": {k: str(v) for k, v in GOOD_LETTERS.items()},
            "kinds": {k: str(v) for k, v in ISLAND_KIND_NAMES.items()},
            "tiles": {**plantation, "quarry": capfirst(ISLAND_KIND_NAMES["quarry"])},
            "buildings": {n: capfirst(BUILDING_NAMES[n]) for n in BUILDINGS},
            "building_rules": {n: building_rule(n) for n in BUILDINGS},
            "roles": {r: capfirst(ROLE_NAMES[r]) for r in ROLE_RULES},
            "role_rules": {r: str(rule) for r, rule in ROLE_RULES.items()},
            "rules": {k: str(rule) for k, rule in COMPONENT_RULES.items()},
            "colonists_of": {
                n: ngettext(
                    "%(colonists)d of %(circles)d colonist",
                    "%(colonists)d of %(circles)d colonists",
                    n,
                )
                for n in {b.circles for b in BUILDINGS.values()}
            },
            "taken_by": _("taken by %(name)s"),
            "free_with": _("free, with %(money)s"),
            "free": _("free"),
            "ship_empty": _("%(capacity)d-ship, empty"),
            "ship_loaded": _("%(capacity)d-ship: %(count)d of %(capacity)d %(good)s"),
            "facts": _("cost %(cost)d, %(vp)d VP, circles: %(circles)d, %(left)d left"),
            "you_pay": _("%(facts)s, you pay %(price)d"),
            "in_city": _("%(facts)s, in your city"),
            "circle_of": _("%(place)s, circle %(n)d of %(circles)d"),
        }


def said(w: dict, name: Any, rule: Any) -> str:
    """A piece's accessible name and its rule, as its ``<title>`` says them."""
    return w["said"] % {"name": name, "rule": rule}


def fit(text: str, room: float, size: float = 9) -> float | None:
    """The ``textLength`` that squeezes ``text`` in ``size`` into ``room``; None when it fits
    (the server cannot measure text, so this estimates)."""
    return room if len(text) * size * EM > room else None


def choice_targets(legal: list[pr.Action]) -> dict[tuple, str]:
    """The drawn things that are a legal choice, each with the action (JSON) a click chooses.

    A plantation or building offered with and without the hospice's or university's colonist
    is clicked for the one with it; a ship is clickable only when one good can go on it, one
    of the seat's own barrels when it can go on one ship only (captain) or be sold to the
    trading house (trader), the trading house when one kind only can be sold to it.
    """
    targets: dict[tuple, str] = {}
    loads: dict[int, list[pr.Action]] = {}
    shipped: dict[int, list[pr.Action]] = {}
    sales = [a for a in legal if a.type == "sell" and not a.trading_post]
    for a in sales:
        targets[("barrel", GOODS[a.good])] = _json(a)
    if len(sales) == 1:
        targets[("house",)] = _json(sales[0])
    for a in legal:
        if a.type == "choose_role":
            targets[("role", a.role)] = _json(a)
        elif a.type == "settle" and (("tile", a.tile) not in targets or a.hospice):
            targets[("tile", a.tile)] = _json(a)
        elif a.type == "build" and (("building", a.building) not in targets or a.university):
            targets[("building", a.building)] = _json(a)
        elif a.type == "hacienda":
            targets[("stack",)] = _json(a)
        elif a.type == "load":
            loads.setdefault(a.ship, []).append(a)
            shipped.setdefault(a.good, []).append(a)
    for ship, actions in loads.items():
        if len(actions) == 1:
            targets[("ship", ship)] = _json(actions[0])
    for good, actions in shipped.items():
        if len(actions) == 1:
            targets[("barrel", GOODS[good])] = _json(actions[0])
    return targets


def _json(action: pr.Action) -> str:
    return json.dumps(pr.action_to_json(action))


OCCUPANTS = ("colonist", "guest", "noble")
"""What may stand on a circle, each drawn in its own shape (``game.css``): a colonist (a
disc), a guest in the guest house (a dashed ring), a noble of Expansion II (crimson, a gold
ring)."""


def _slots(
    x: float,
    y: float,
    circles: int,
    occupied: int,
    pitch: float = 15,
    occupant="colonist",
    nobles: int = 0,
) -> list:
    """Circles in a row from (x, y): the first ``nobles`` hold a noble, the next up to
    ``occupied`` (nobles included) an ``occupant``."""
    return [
        {
            "cx": x + i * pitch,
            "cy": y,
            "occupant": "noble" if i < nobles else occupant if i < occupied else None,
        }
        for i in range(circles)
    ]


# Player boards --------------------------------------------------------------------------


def _spot(w: dict, field: str, place: str, n: int, circles: int, box: tuple, slot: int) -> dict:
    """Where a click puts or takes a piece while the player arranges them (the mayor): the
    form's count it changes (``field``, as ``puerto_rico._mayor`` names it), its circle's
    name, and the box that takes the click, larger than the circle for a finger; ``slot``:
    which circle of its tile or building it is."""
    x, y, width, height = box
    label = w["circle_of"] % {"place": place, "n": n + 1, "circles": circles}
    return {"field": field, "slot": slot, "label": label, "x": x, "y": y, "w": width, "h": height}


def island_spaces(
    w: dict, pl: dict, arranging: bool = False, face_down: bool = False
) -> list[dict[str, Any]]:
    """The player's island tiles in the kinds' order, row by row from the top left (the
    template draws the 12 empty spaces under them), its forests, and (``face_down``) a tile
    just drawn that the viewer has not seen; ``arranging``: each tile's circle is a spot to
    click (``_spot``)."""
    tiles = []
    for kind in ISLAND_KINDS:
        if kind in pl["island"]:
            tile = pl["island"][kind]
            nobles = tile.get("nobles", 0)
            occupants = ["noble"] * nobles + ["colonist"] * tile["colonists"]
            occupants += [None] * (tile["tiles"] - len(occupants))
            tiles += [(kind, occupant, i, tile["tiles"]) for i, occupant in enumerate(occupants)]
    spaces = []
    for n, (kind, occupant, i, of_kind) in enumerate(tiles):
        rule = w["rules"]["quarry" if kind == "quarry" else "plantation"]
        state = w["noble_on"] if occupant == "noble" else w["occupied"] if occupant else w["empty"]
        spaces.append(
            {
                "x": TOP + (n % ISLAND_COLUMNS) * TILE_PITCH,
                "y": TOP + (n // ISLAND_COLUMNS) * TILE_PITCH,
                "css": f"pr-tile good-{kind}",
                "letter": w["letters"][kind],
                "title": said(w, f"{w['tiles'][kind]}, {state}", rule),
                "slots": _slots(TILE / 2, 28, 1, int(bool(occupant)), nobles=occupant == "noble"),
                "spots": [
                    _spot(w, f"island-{kind}", w["tiles"][kind], i, of_kind, (0, 0, TILE, TILE), 0)
                ]
                if arranging
                else [],
            }
        )
    forests = pl.get("forests", 0)
    for n in range(len(tiles), len(tiles) + forests + face_down):
        forest = n < len(tiles) + forests
        spaces.append(
            {
                "x": TOP + (n % ISLAND_COLUMNS) * TILE_PITCH,
                "y": TOP + (n // ISLAND_COLUMNS) * TILE_PITCH,
                "css": "pr-tile is-forest" if forest else "pr-tile is-face-down",
                "letter": w["forest_letter"] if forest else "?",
                "title": said(w, w["forest"], w["rules"]["forest"]) if forest else w["face_down"],
                "slots": [],
                "tree": forest,
            }
        )
    return spaces


def city_cells(names: list[str]) -> dict[str, tuple[int, int]]:
    """Where each building stands: (column, row) of its top space.

    The state keeps no places, so large buildings take pairs of spaces from the last column
    back, and the others fill the first free spaces column by column: twelve spaces always
    hold whatever a city may hold.
    """
    free = [[True] * CITY_ROWS for _ in range(CITY_COLUMNS)]
    cells = {}
    pairs = [(c, r) for c in reversed(range(CITY_COLUMNS)) for r in (0, 2)]
    for name in names:
        if BUILDINGS[name].large:
            c, r = pairs.pop(0)
            free[c][r] = free[c][r + 1] = False
            cells[name] = (c, r)
    for name in names:
        if not BUILDINGS[name].large:
            c, r = next((c, r) for c in range(CITY_COLUMNS) for r in range(CITY_ROWS) if free[c][r])
            free[c][r] = False
            cells[name] = (c, r)
    return cells


def city_spaces(w: dict, pl: dict, arranging: bool = False) -> list[dict[str, Any]]:
    """The city's buildings where ``city_cells`` puts them (the template draws the 12 empty
    spaces under them); ``arranging``: the circles spread over the building, each with its
    share of it as a spot to click (``_spot``)."""
    cells = city_cells(list(pl["city"]))
    city_nobles = pl.get("city_nobles", {})
    spaces = []
    for name, colonists in pl["city"].items():
        b = BUILDINGS[name]
        c, r = cells[name]
        h = CITY_H + CITY_PITCH_Y if b.large else CITY_H
        title = w["buildings"][name]
        guests = name == GUEST_HOUSE
        nobles = city_nobles.get(name, 0)
        state = (w["guests_of"] if guests else w["colonists_of"][b.circles]) % {
            "colonists": colonists + nobles,
            "circles": b.circles,
        }
        if nobles:
            state = w["of_them_nobles"] % {"state": state, "nobles": nobles}
        share = CITY_W / max(b.circles, 1)
        spots = [
            _spot(w, f"city-{name}", title, i, b.circles, (i * share, 0, share, h), i)
            for i in range(b.circles if arranging else 0)
        ]
        spaces.append(
            {
                "x": CITY_X + c * CITY_PITCH_X,
                "y": TOP + r * CITY_PITCH_Y,
                "h": h,
                "css": f"pr-building {'is-violet' if b.good is None else f'good-{GOODS[b.good]}'}",
                "name": title,
                "squeeze": fit(title, CITY_W - 14),
                "title": said(w, f"{title}, {state}", w["building_rules"][name]),
                "slots": _slots(
                    share / 2 if arranging else 16,
                    h - 10,
                    b.circles,
                    colonists + nobles,
                    share if arranging else 15,
                    occupant="guest" if guests else "colonist",
                    nobles=nobles,
                ),
                "spots": spots,
                "guests": guests,
            }
        )
    return spaces


def barrels(
    w: dict, goods: dict[str, int], x: float, y: float, pitch: float, targets: dict | None = None
) -> list[dict]:
    """One barrel per kind with its count: the goods of a player or of the supply; a player's
    own barrel that is a choice (``choice_targets``) carries its action."""
    drawn = []
    for i, g in enumerate(GOODS):
        action = (targets or {}).get(("barrel", g))
        drawn.append(
            {
                "x": x + i * pitch,
                "y": y,
                "css": f"pr-barrel good-{g}"
                + ("" if goods[g] else " is-none")
                + " is-choice" * bool(action),
                "letter": w["letters"][g],
                "count": goods[g],
                "action": action,
                "title": f"{capfirst(w['kinds'][g])}: {goods[g]}",
            }
        )
    return drawn


def player_drawing(
    w: dict,
    pl: dict,
    arranging: bool = False,
    targets: dict | None = None,
    face_down: bool = False,
) -> dict[str, Any]:
    """A player board as ``_player.html`` draws it; ``arranging``: its owner places the
    pieces (the mayor) by clicking its circles, and San Juan has room for all it may show;
    ``targets``: the owner's choices (``choice_targets``), for the barrels; ``face_down``:
    the owner has just drawn a tile the viewer has not seen."""
    nobles = pl.get("san_juan_nobles", 0)
    waiting = pl["san_juan"] + nobles
    vp = pl["vp"]
    shown = min(waiting, SAN_JUAN_SHOWN)
    slots = _slots(14, 184, SAN_JUAN_SHOWN if arranging else shown, shown, 14, nobles=nobles)
    san_juan = ngettext(
        "San Juan: %(count)d colonist waiting", "San Juan: %(count)d colonists waiting", waiting
    ) % {"count": waiting}
    if nobles:
        san_juan = w["of_them_nobles"] % {"state": san_juan, "nobles": nobles}
    return {
        "grid": EMPTY_SPACES,
        "arranging": arranging,
        "island": island_spaces(w, pl, arranging, face_down),
        "city": city_spaces(w, pl, arranging),
        "island_title": w["rules"]["island"],
        "city_title": w["rules"]["city"],
        "san_juan": waiting if waiting > SAN_JUAN_SHOWN else None,
        "san_juan_slots": slots,
        "san_juan_title": said(w, san_juan, w["rules"]["san_juan"]),
        "goods": barrels(w, pl["goods"], 130, 164, 50, targets),
        "goods_title": w["rules"]["goods"],
        "doubloons_title": said(w, capfirst(doubloons(pl["doubloons"])), w["rules"]["doubloons"]),
        "vp_title": said(
            w,
            _("VP chips: hidden") if vp is None else _("VP chips: %(vp)d") % {"vp": vp},
            w["rules"]["vp"],
        ),
    }


# The table ------------------------------------------------------------------------------


def role_cards(w: dict, view: dict, names: list[str], targets: dict) -> list[dict]:
    playing = "captain" if view["phase"] == "storage" else view["phase"]
    cards = []
    for i, r in enumerate(view["roles"]):
        role, taker = r["role"], r["taken_by"]
        name = w["roles"][role]
        who = None if taker is None else names[taker]
        if who is not None:
            state = w["taken_by"] % {"name": who}
        elif r["doubloons"]:
            state = w["free_with"] % {"money": doubloons(r["doubloons"])}
        else:
            state = w["free"]
        action = targets.get(("role", role)) if taker is None else None
        css = "pr-role" + " is-taken" * (who is not None) + " is-choice" * bool(action)
        cards.append(
            {
                "x": 4 + i * CARD_PITCH,
                "css": css + " is-playing" * (role == playing and taker == view["chooser"]),
                "name": name,
                "squeeze": fit(name, CARD_W - 4),
                "doubloons": r["doubloons"],
                "taken_by": who,
                "squeeze_taker": fit(who or "", CARD_W - 4, 8.5),
                "action": action,
                "title": said(w, f"{name}, {state}", w["role_rules"][role]),
            }
        )
    return cards


def ships(w: dict, view: dict, targets: dict) -> list[dict[str, Any]]:
    drawn = []
    for i, ship in enumerate(view["ships"]):
        good, count, cap = ship["good"], ship["count"], ship["capacity"]
        if good is None:
            state = w["ship_empty"] % {"capacity": cap}
        else:
            state = w["ship_loaded"] % {"capacity": cap, "count": count, "good": w["kinds"][good]}
        action = targets.get(("ship", i))
        drawn.append(
            {
                "y": 90 + i * 21,
                "css": "pr-ship" + " is-choice" * bool(action),
                "capacity": cap,
                "length": 24 + cap * SLOT_PITCH,
                "slots": [24 + s * SLOT_PITCH for s in range(cap)],
                "loaded": [24 + s * SLOT_PITCH for s in range(count)],
                "good": good,
                "letter": good and w["letters"][good],
                "action": action,
                "title": said(w, state, w["rules"]["cargo_ship"]),
            }
        )
    return drawn


def _count_title(w: dict, text: str, count: int, rule: str) -> str:
    return said(w, text % {"count": count}, w["rules"][rule])


def table_drawing(w: dict, view: dict, names: list[str], targets: dict) -> dict[str, Any]:
    """The table as ``_table.html`` draws it."""
    house = view["trading_house"]
    plantations = view["plantations"]
    colonists = view["colonists"]
    face_up = []
    for i, kind in enumerate(plantations["face_up"]):
        action = targets.get(("tile", ISLAND_KINDS.index(kind)))
        face_up.append(
            {
                "x": 4 + i * 43,
                "css": f"pr-tile good-{kind}" + " is-choice" * bool(action),
                "letter": w["letters"][kind],
                "action": action,
                "title": said(w, w["tiles"][kind], w["rules"]["face_up"]),
            }
        )
    quarry = targets.get(("tile", ISLAND_KINDS.index("quarry")))
    stack = targets.get(("stack",))
    sold = ", ".join(w["kinds"][g] for g in house) or w["empty"]
    ship_colonists = ngettext(
        "Colonist ship: %(count)d colonist", "Colonist ship: %(count)d colonists", colonists["ship"]
    )
    return {
        "roles": role_cards(w, view, names, targets),
        "ships": ships(w, view, targets),
        "colonist_ship": colonists["ship"],
        "colonist_ship_title": _count_title(w, ship_colonists, colonists["ship"], "colonist_ship"),
        "house": [
            {"x": 268 + i * 37, "good": g, "letter": w["letters"][g]} for i, g in enumerate(house)
        ],
        "house_free": [268 + i * 37 for i in range(len(house), TRADING_HOUSE_SPACES)],
        "house_action": targets.get(("house",)),
        "house_title": said(
            w, _("Trading house: %(goods)s") % {"goods": sold}, w["rules"]["trading_house"]
        ),
        "supply": barrels(w, view["goods"], 176, 134, 48),
        "face_up": face_up,
        "quarries": view["quarries"],
        "quarry_css": "pr-tile good-quarry" + " is-choice" * bool(quarry),
        "quarry_action": quarry,
        "quarry_letter": w["letters"]["quarry"],
        "quarry_title": _count_title(w, _("Quarries left: %(count)d"), view["quarries"], "quarry"),
        "stack": plantations["stack"],
        "stack_css": "pr-stack" + " is-choice" * bool(stack),
        "stack_action": stack,
        "stack_title": said(
            w,
            _("Face-down plantations: %(count)d; discarded: %(discards)d")
            % {"count": plantations["stack"], "discards": len(plantations["discards"])},
            w["rules"]["stack"],
        ),
        "colonist_supply": colonists["supply"],
        "colonist_supply_title": _count_title(
            w, _("Colonists in the supply: %(count)d"), colonists["supply"], "colonist"
        ),
        "nobles": _nobles(w, view.get("nobles")),
        "vp_chips": view["vp_chips"],
        "vp_chips_title": _count_title(w, _("VP chips left: %(count)d"), view["vp_chips"], "vp"),
    }


def _nobles(w: dict, nobles: dict | None) -> dict[str, Any] | None:
    """The Nobles: the noble waiting on the colonist ship and the nobles' supply."""
    if nobles is None:
        return None
    on_ship = ngettext(
        "Colonist ship: %(count)d noble", "Colonist ship: %(count)d nobles", nobles["ship"]
    )
    return {
        "ship": nobles["ship"],
        "ship_title": _count_title(w, on_ship, nobles["ship"], "noble"),
        "supply": nobles["supply"],
        "supply_title": _count_title(
            w, _("Nobles in the supply: %(count)d"), nobles["supply"], "noble"
        ),
    }


def buildings_height(columns: list[list[dict]]) -> int:
    """The buildings' drawing's height: six rows on every real board (a column's production
    buildings and violet spaces), more only if a position puts more on it."""
    return 2 + max(6, *(len(c) for c in columns)) * BUILDING_PITCH_Y


def building_cells(w: dict, columns: list[list[dict]], targets: dict) -> list[dict[str, Any]]:
    """The buildings on the board, column by column, as ``_buildings.html`` draws them."""
    cells = []
    for c, column in enumerate(columns):
        for r, b in enumerate(column):
            if "space" in b:
                cells.append(
                    {
                        "name": f"space-{c}-{r}",
                        "css": "pr-building is-space",
                        "x": 2 + c * BUILDING_PITCH_X,
                        "y": 2 + r * BUILDING_PITCH_Y,
                        "label": w["free_space"],
                        "facts": "",
                        "coin": b["space"],
                        "coin_css": "pr-cost",
                        "title": w["free_space_title"] % {"cost": b["space"]},
                    }
                )
                continue
            facts = w["facts"] % b
            if b["price"] is not None:
                facts = w["you_pay"] % {"facts": facts, "price": b["price"]}
            if b["owned"]:
                facts = w["in_city"] % {"facts": facts}
            action = targets.get(("building", b["name"]))
            title = w["buildings"][b["name"]]
            cells.append(
                {
                    "name": b["name"],
                    "css": b["css"] + " is-owned" * b["owned"] + " is-choice" * bool(action),
                    "x": 2 + c * BUILDING_PITCH_X,
                    "y": 2 + r * BUILDING_PITCH_Y,
                    "label": title,
                    "squeeze": fit(title, BUILDING_W - 30),
                    "facts": f"{b['vp']} {w['vp']} {'○' * b['circles']} {TIMES}{b['left']}",
                    "coin": b["cost"] if b["price"] is None else b["price"],
                    "coin_css": "pr-cost" if b["price"] is None else "pr-price",
                    "action": action,
                    "title": said(w, f"{title}: {facts}", w["building_rules"][b["name"]]),
                }
            )
    return cells
