"""The Puerto Rico board: what the template shows, and posted forms turned into actions.

Everything shown comes from ``pr.player_view`` for the viewer, so what a seat may not know
(the face-down plantation order, the seed, the others' face-down VP) never reaches the
template. Choices are listed only for the seat to act, exactly as the engine lists them; the
engine judges every posted action again, so nothing here decides what is legal.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import builder, trader
from games.engines.puerto_rico.data import (
    BUILDINGS,
    GOODS,
    ISLAND_KINDS,
    QUARRY,
    SETUPS,
)
from games.ui import puerto_rico_drawing as drawing
from games.ui.puerto_rico_events import describe_refusal
from games.ui.puerto_rico_names import (
    BUILDING_NAMES,
    END_REASON_NAMES,
    GOOD_NAMES,
    ISLAND_KIND_NAMES,
    PHASE_NAMES,
    ROLE_NAMES,
    doubloons,
)

TEMPLATE = "games/puerto_rico/board.html"

MAX_FIELDS = 64
"""A mayor form has at most 6 island kinds and 12 buildings, plus a few fixed fields."""
MAX_ACTION_CHARS = 500
"""The longest real action JSON is a store choice of about 80 characters."""


def board_context(
    state: pr.State, position: int | None, names: list[str], posted=None, may_act: bool = True
) -> dict[str, Any]:
    """Everything ``TEMPLATE`` shows, under one key so it cannot clash with the platform's.

    ``posted`` is the refused form of the seat to act: its mayor form shows the counts as the
    player entered them, not as the colonists stand. ``may_act`` is False when the viewer may
    not move now although the engine waits for their seat (an AI plays it, or the game was
    cancelled): they see their seat's view without the choices.
    """
    view = pr.player_view(state, position)
    current = view["current"]
    my_turn = may_act and position is not None and position == current and not pr.is_over(state)
    legal = pr.legal_actions(state) if current is not None else []

    def name(seat: int | None) -> str | None:
        return None if seat is None else names[seat]

    w = drawing.words(get_language())
    players = [_player(w, view, seat, names) for seat in range(view["num_players"])]
    targets = drawing.choice_targets(legal) if my_turn else {}
    return {
        "pr": {
            "viewer": position,
            "num_players": view["num_players"],
            "round": view["round"],
            "phase": view["phase"],
            "phase_name": capfirst(PHASE_NAMES[view["phase"]]),
            "over": pr.is_over(state),
            "governor": name(view["governor"]),
            "current": name(current),
            "decision": _decision(state, legal, names, position),
            "end_reasons": [END_REASON_NAMES[r] for r in view["end_reasons"]],
            "roles_each": SETUPS[view["num_players"]].roles_per_player,
            "table": drawing.table_drawing(w, view, names, targets),
            "buildings": drawing.building_cells(w, _buildings(state, view, position), targets),
            "me": None if position is None else players[position],
            "others": [p for p in players if p["seat"] != position],
            "choices": _choices(state, legal, position, posted) if my_turn else None,
            "final": _final(state, names) if pr.is_over(state) else None,
        }
    }


def _good(kind: str, **more) -> dict[str, Any]:
    """A good or island kind: its engine name for the colour chip, and its name to read."""
    return {"good": kind, "name": ISLAND_KIND_NAMES[kind], **more}


# The table ------------------------------------------------------------------------------


def _buildings(state: pr.State, view: dict, position: int | None) -> list[list[dict[str, Any]]]:
    """The buildings by column, with what the viewer would pay for each.

    Only the builder in the builder phase has the builder's privilege, so outside it the
    prices are computed as if nobody held it.
    """
    priced = state
    if position is not None and state.phase != "builder":
        priced = state.clone()
        priced.chooser = None
    owned = view["players"][position]["city"] if position is not None else {}
    return [
        [
            {
                "name": b.name,
                "cost": b.cost,
                "vp": b.vp,
                "circles": b.circles,
                "left": view["buildings"].get(b.name, 0),
                "price": None if position is None else builder.price(priced, position, b),
                "owned": b.name in owned,
                "css": "pr-building "
                + ("is-violet" if b.good is None else f"good-{GOODS[b.good]}")
                + ("" if view["buildings"].get(b.name, 0) else " is-gone"),
            }
            for b in BUILDINGS.values()
            if b.column == column
        ]
        for column in (1, 2, 3, 4)
    ]


def _player(w: dict, view: dict, seat: int, names: list[str]) -> dict[str, Any]:
    pl = view["players"][seat]
    return {
        "seat": seat,
        "name": names[seat],
        "is_viewer": seat == view["seat"],
        "is_current": seat == view["current"],
        "is_governor": seat == view["governor"],
        "doubloons": pl["doubloons"],
        "vp": pl["vp"],
        "roles": [ROLE_NAMES[r["role"]] for r in view["roles"] if r["taken_by"] == seat],
        "board": drawing.player_drawing(w, pl),
    }


def _final(state: pr.State, names: list[str]) -> dict[str, Any]:
    winners = pr.winners(state)
    rows = [
        {
            "name": names[seat],
            "chips": s["chips"],
            "buildings": s["buildings"],
            "bonuses": [{"title": BUILDING_NAMES[b], "vp": vp} for b, vp in s["bonuses"].items()],
            "total": s["total"],
            "tiebreak": s["tiebreak"],
            "winner": seat in winners,
        }
        for seat, s in enumerate(pr.scores(state))
    ]
    return {"rows": rows, "winners": [names[seat] for seat in winners]}


# Who decides what -------------------------------------------------------------------------


def _either(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    return _("%(first)s or %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}


def _and(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}


def _decision(state: pr.State, legal, names: list[str], position: int | None) -> str:
    """A sentence saying whose decision it is and what it is about."""
    if pr.is_over(state):
        return _("The game is over.")
    phase = state.phase
    types = set() if phase == "mayor" else {a.type for a in legal}
    if phase == "role":
        what = _("choose a role")
    elif phase == "settler":
        tiles = {a.tile for a in legal if a.type == "settle"}
        parts = []
        if "hacienda" in types:
            parts.append(
                _("draw a face-down plantation (%(hacienda)s)")
                % {"hacienda": BUILDING_NAMES["hacienda"]}
            )
        if tiles - {QUARRY}:
            parts.append(_("take a plantation"))
        if QUARRY in tiles:
            parts.append(_("take a quarry"))
        what = _either([*parts, _("pass")])
    elif phase == "mayor":
        what = _("place colonists")
    elif phase == "builder":
        what = _("build one building or pass")
    elif phase == "craftsman":
        what = _("take one extra barrel (privilege) or pass")
    elif phase == "trader":
        what = _("sell one barrel or pass")
    elif phase == "captain":
        parts = [_("load goods on a ship")] if "load" in types else []
        if "wharf" in types:
            parts.append(_("ship goods on the %(wharf)s") % {"wharf": BUILDING_NAMES["wharf"]})
        what = _either([*parts, _("pass")] if "pass" in types else parts)
    elif phase == "hunting_lodge":
        what = _("return a plantation (%(building)s) or pass") % {
            "building": BUILDING_NAMES["hunting_lodge"]
        }
    else:
        what = _("choose which goods to keep")
    if state.current == position:
        return _("Your turn: %(what)s.") % {"what": what}
    return _("%(name)s is deciding: %(what)s.") % {"name": names[state.current], "what": what}


# Choices of the seat to act ---------------------------------------------------------------


def _button(action: pr.Action, label: str, good: str | None = None) -> dict[str, Any]:
    return {"label": label, "json": json.dumps(pr.action_to_json(action)), "good": good}


def _choices(state: pr.State, legal, seat: int, posted=None) -> dict[str, Any]:
    phase = state.phase
    if phase == "mayor":
        return _mayor(state, legal, seat, posted)
    if phase == "storage":
        return _storage(state, legal, seat)
    pl = state.players[seat]
    buttons = []
    for a in legal:
        t = a.type
        if t == "choose_role":
            on_card = max(r[1] for r in state.roles if r[0] == a.role and r[2] is None)
            label = capfirst(ROLE_NAMES[a.role])
            if on_card:
                label = _("%(role)s (+%(doubloons)s)") % {
                    "role": label,
                    "doubloons": doubloons(on_card),
                }
            buttons.append(_button(a, label))
        elif t == "hacienda":
            label = _("Draw a face-down plantation (%(hacienda)s)")
            buttons.append(_button(a, label % {"hacienda": BUILDING_NAMES["hacienda"]}))
        elif t == "settle":
            kind = ISLAND_KINDS[a.tile]
            words = {"kind": ISLAND_KIND_NAMES[kind], "hospice": BUILDING_NAMES["hospice"]}
            if a.tile == QUARRY:
                label = _("Take a quarry with a colonist (%(hospice)s)") if a.hospice else None
                label = label or _("Take a quarry")
            else:
                label = _("Take %(kind)s with a colonist (%(hospice)s)") if a.hospice else None
                label = label or _("Take %(kind)s")
            buttons.append(_button(a, label % words, kind))
        elif t == "build":
            b = BUILDINGS[a.building]
            words = {
                "building": BUILDING_NAMES[b.name],
                "cost": doubloons(builder.price(state, seat, b)),
                "university": BUILDING_NAMES["university"],
            }
            if a.university:
                label = _("Build %(building)s for %(cost)s with a colonist (%(university)s)")
            else:
                label = _("Build %(building)s for %(cost)s")
            buttons.append(_button(a, label % words, _good_of(b)))
        elif t == "extra_good":
            good = GOODS[a.good]
            label = _("Take 1 extra %(good)s") % {"good": GOOD_NAMES[good]}
            buttons.append(_button(a, label, good))
        elif t == "sell":
            good = GOODS[a.good]
            money = doubloons(trader.sale_price(state, seat, a.good))
            label = _("Sell 1 %(good)s for %(money)s") % {"good": GOOD_NAMES[good], "money": money}
            buttons.append(_button(a, label, good))
        elif t == "load":
            cap, count = state.ships[a.ship][0], state.ships[a.ship][2]
            good = GOODS[a.good]
            label = _("Load %(count)s %(good)s on the %(capacity)s-ship") % {
                "count": min(pl.goods[a.good], cap - count),
                "good": GOOD_NAMES[good],
                "capacity": cap,
            }
            buttons.append(_button(a, label, good))
        elif t == "wharf":
            good = GOODS[a.good]
            label = _("Ship all %(count)s %(good)s on the %(wharf)s") % {
                "count": pl.goods[a.good],
                "good": GOOD_NAMES[good],
                "wharf": BUILDING_NAMES["wharf"],
            }
            buttons.append(_button(a, label, good))
        else:
            buttons.append(_button(a, _pass_label(phase)))
    return {"kind": "buttons", "phase": phase, "buttons": buttons}


def _pass_label(phase: str) -> str:
    return {
        "settler": _("Take nothing"),
        "builder": _("Build nothing"),
        "craftsman": _("No extra barrel"),
        "trader": _("Sell nothing"),
        "captain": _("Do not use the %(wharf)s") % {"wharf": BUILDING_NAMES["wharf"]},
        "hunting_lodge": _("Return no plantation"),
    }[phase]


def _good_of(b) -> str | None:
    return None if b.good is None else GOODS[b.good]


def _mayor(state: pr.State, legal, seat: int, posted=None) -> dict[str, Any]:
    """The placement form: one count per island kind and building.

    Pre-filled with the colonists where they stand, and those waiting in San Juan on the
    first free circles, so that the form as shown is a legal placement to adjust. A refused
    placement (``posted``) comes back as the player entered it.
    """
    pl = state.players[seat]
    island = [
        {
            "field": f"island-{kind}",
            **_good(kind),
            "max": pl.tiles[k],
            "now": pl.worked[k],
        }
        for k, kind in enumerate(ISLAND_KINDS)
        if pl.tiles[k]
    ]
    city = [
        {
            "field": f"city-{b.name}",
            "name": BUILDING_NAMES[b.name],
            "good": _good_of(b),
            "large": b.large,
            "max": b.circles,
            "now": pl.city[b.name],
        }
        for b in BUILDINGS.values()
        if b.name in pl.city
    ]
    waiting = pl.san_juan
    for row in island + city:
        row["value"] = row["now"] + min(waiting, row["max"] - row["now"])
        waiting -= row["value"] - row["now"]
    if posted is not None:
        for row in island + city:
            row["value"] = posted.get(row["field"], row["value"])
    return {
        "kind": "mayor",
        "island": island,
        "city": city,
        "colonists": pl.colonists(),
        "circles": sum(r["max"] for r in island + city),
        "placed": pl.colonists() - waiting,
        "newcomers": pl.san_juan,
        "san_juan": waiting,
        # Arrangements lists the placements without the privilege first.
        "privilege": legal[len(legal) - 1].privilege,
        "privilege_taken": posted is not None and posted.get("privilege") == "on",
        "supply": state.colonist_supply,
    }


def _storage(state: pr.State, legal, seat: int) -> dict[str, Any]:
    goods = state.players[seat].goods
    options = []
    for a in legal:
        kept = []
        for g in a.warehouse:
            words = {"count": goods[g], "good": GOOD_NAMES[GOODS[g]]}
            if goods[g] > 1:
                kept.append(_("all %(count)s %(good)s (warehouse)") % words)
            else:
                kept.append(_("%(count)s %(good)s (warehouse)") % words)
        if a.windrose is not None:
            kept.append(
                _("%(count)s %(good)s") % {"count": 1, "good": GOOD_NAMES[GOODS[a.windrose]]}
            )
        returned = []
        for g in range(len(GOODS)):
            keep = goods[g] if g in a.warehouse else int(g == a.windrose)
            if goods[g] > keep:
                words = {"count": goods[g] - keep, "good": GOOD_NAMES[GOODS[g]]}
                returned.append(_("%(count)s %(good)s") % words)
        words = {"kept": kept and _and(kept), "returned": returned and _and(returned)}
        if kept and returned:
            label = _("keep %(kept)s; return %(returned)s") % words
        elif returned:
            label = _("keep nothing; return %(returned)s") % words
        else:
            label = _("keep %(kept)s") % words if kept else _("keep nothing")
        options.append({"label": label, "json": json.dumps(pr.action_to_json(a))})
    return {"kind": "store", "options": options}


# Posted forms -----------------------------------------------------------------------------


def action_from_post(data) -> dict[str, Any]:
    """The action JSON a posted board form stands for; ``ValueError`` says what is wrong.

    Only the form's shape is checked here: whether the action is legal is the engine's call.
    """
    if len(data) > MAX_FIELDS:
        raise ValueError(_("too many form fields"))
    if _one(data, "kind") == "arrange":
        return _normalised(_arrangement(data))
    if _one(data, "kind") is not None:
        raise ValueError(_("unknown form kind"))
    raw = _one(data, "action")
    if not raw:
        raise ValueError(_("no action was chosen"))
    if len(raw) > MAX_ACTION_CHARS:
        raise ValueError(_("the action is too long"))
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(_("the action is not valid JSON")) from error
    return _normalised(parsed)


def _one(data, key: str) -> str | None:
    values = data.getlist(key) if hasattr(data, "getlist") else [data[key]] if key in data else []
    if len(values) > 1:
        raise ValueError(_("the field '%(field)s' was sent more than once") % {"field": key})
    return values[0] if values else None


def _arrangement(data) -> dict[str, Any]:
    island: dict[str, int] = {}
    city: dict[str, int] = {}
    for key in data:
        if key.startswith("island-"):
            kind = key.removeprefix("island-")
            if kind not in ISLAND_KINDS:
                raise ValueError(_("unknown island tile '%(kind)s'") % {"kind": kind})
            island[kind] = _count(_one(data, key), ISLAND_KIND_NAMES[kind])
        elif key.startswith("city-"):
            name = key.removeprefix("city-")
            if name not in BUILDINGS:
                raise ValueError(_("unknown building '%(name)s'") % {"name": name})
            city[name] = _count(_one(data, key), BUILDING_NAMES[name])
    if not island and not city:
        raise ValueError(_("the placement gives no colonist counts"))
    privilege = _one(data, "privilege")
    if privilege not in (None, "on"):
        raise ValueError(_("privilege is a checkbox: 'on' or absent"))
    return {"type": "arrange", "island": island, "city": city, "privilege": privilege == "on"}


def _count(value: str | None, where: str) -> int:
    value = (value or "").strip()
    if not (value.isascii() and value.isdigit()) or len(value) > 2:
        raise ValueError(
            _("colonists on %(where)s must be a whole number from 0 to 99") % {"where": where}
        )
    return int(value)


def _normalised(data: Any) -> dict[str, Any]:
    try:
        return pr.action_to_json(pr.action_from_json(data))
    except pr.MalformedAction as error:
        raise ValueError(describe_refusal(error.code, error.params)) from error
