"""The Puerto Rico board: what the template shows, and posted forms turned into actions.

The board is handed the viewer's ``player_view``, never the state, so what a seat may not know
(the face-down plantation order, the seed, the others' face-down VP) never reaches it; the
rules are asked about the open table on ``masked_state(view)``. Choices are listed only for
the seat to act, exactly as the engine lists them; the engine judges every posted action
again, so nothing here decides what is legal.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import builder, draft, guests, mayor, trader
from games.engines.puerto_rico.common import privileges, uses_nobles
from games.engines.puerto_rico.data import BASE, BUILDINGS, GOODS, ISLAND_KINDS, QUARRY, SETUPS
from games.engines.puerto_rico.view import masked_state, moderator_view
from games.ui import puerto_rico_drawing as drawing
from games.ui.posted import action_json, check_size, every
from games.ui.posted import one as _one
from games.ui.puerto_rico_events import describe_refusal
from games.ui.puerto_rico_names import (
    BUILDING_NAMES,
    EDITION_NAMES,
    END_REASON_NAMES,
    GOOD_NAMES,
    ISLAND_KIND_NAMES,
    OCCUPANT_NAMES,
    PHASE_NAMES,
    PLACE_NAMES,
    ROLE_NAMES,
    doubloons,
)
from games.ui.puerto_rico_rules import building_rule


def board_context(
    view: dict[str, Any], names: list[str], legal=None, posted=None
) -> dict[str, Any]:
    """Everything the board's template shows of ``view`` (``player_view`` of the seat
    ``view["seat"]``, None for a spectator), under one key so it cannot clash with the
    platform's.

    ``legal``: the viewer's legal actions when they may move now, else None (a seat waiting,
    a spectator, or the seat to act while an AI plays it or the game was cancelled: they see
    the board without the choices). ``posted`` is the refused form of the seat to act: its
    mayor form shows the counts as the player entered them, not as the colonists stand.
    """
    state = masked_state(view)
    position = view["seat"]
    current = view["current"]
    over = pr.is_over(state)
    my_turn = legal is not None
    if view["phase"] == "mayor" and my_turn:
        # Every placement is a legal action, counted on demand (``mayor.Arrangements``) and
        # far too many to list: the board offers one form of counts, which the engine judges.
        legal = []
    # What the seat to act is deciding, as the open table shows it to anyone.
    deciding = legal if my_turn else pr.legal_actions(state)

    def name(seat: int | None) -> str | None:
        return None if seat is None else names[seat]

    w = drawing.words(get_language())
    # The seat arranging its pieces clicks them into place on its own board (board.js).
    arranging = position if my_turn and view["phase"] == "mayor" else None
    targets = drawing.choice_targets(legal) if my_turn else {}
    players = [
        _player(
            w, view, state, seat, names, seat == arranging, targets if seat == position else None
        )
        for seat in range(view["num_players"])
    ]
    columns = _buildings(state, view, position)
    return {
        "pr": {
            "viewer": position,
            "num_players": view["num_players"],
            "round": pr.round_number(state),
            "phase": view["phase"],
            "phase_name": capfirst(PHASE_NAMES[view["phase"]]),
            "over": over,
            # Once the game is over the governor has passed on to a round never played.
            "governor": None if over else name(view["governor"]),
            "current": name(current),
            "decision": _decision(state, deciding, names, position),
            "end_reasons": [END_REASON_NAMES[r] for r in view["end_reasons"]],
            "roles_each": SETUPS[view["num_players"]].roles_per_player,
            "edition": EDITION_NAMES[state.options.get("edition", "base")],
            "draft": _draft(state, names, legal if my_turn else [])
            if view["phase"] == "draft"
            else None,
            "table": drawing.table_drawing(w, view, names, targets),
            "buildings": drawing.building_cells(w, columns, targets),
            "buildings_height": drawing.buildings_height(columns),
            "me": None if position is None else players[position],
            "others": [p for p in players if p["seat"] != position],
            "players": players,
            "choices": _choices(state, legal, position, posted) if my_turn else None,
        }
    }


def moderator_board_context(state: pr.State, names: list[str]) -> dict[str, Any]:
    """The board as a moderator sees it: a spectator's, with every seat's VP chips face up
    (``moderator_view``); the page lists the rest of the state beside it."""
    return board_context(moderator_view(state), names)


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
    columns: list[list[dict[str, Any]]] = [[] for _ in range(4)]
    for b in BUILDINGS.values():
        if b.name in view["buildings"]:  # those in play: drafted, or of the edition
            columns[b.column - 1].append(
                {
                    "name": b.name,
                    "cost": b.cost,
                    "vp": b.vp,
                    "circles": b.circles,
                    "left": view["buildings"][b.name],
                    "price": None if position is None else builder.price(priced, position, b),
                    "owned": b.name in owned,
                    "css": "pr-building "
                    + ("is-violet" if b.good is None else f"good-{GOODS[b.good]}")
                    + ("" if view["buildings"][b.name] else " is-gone"),
                    "order": (b.good is None, b.cost),
                }
            )
    if state.phase == "draft":
        for cost, free in draft.free_spaces(state).items():
            column = columns[_draft_column(cost) - 1]
            column += [{"space": cost, "order": (True, cost)}] * free
    return [sorted(column, key=lambda b: b["order"]) for column in columns]


def _draft_column(cost: int) -> int:
    """The board's column of a violet space by its cost: 1-3, 4-6, 7-9, 10."""
    return min(4, (cost + 2) // 3)


def _player(
    w: dict,
    view: dict,
    state: pr.State,
    seat: int,
    names: list[str],
    arranging: bool = False,
    targets: dict | None = None,
) -> dict[str, Any]:
    """One seat's board and its line of the score overview, from the viewer's ``view`` (its
    ``masked_state``): VP chips face down (``hidden_vp``) stay None. ``arranging``: the seat
    places its mayor's pieces by clicks; ``targets``: its pieces that are one-click choices."""
    pl = view["players"][seat]
    board = state.players[seat]
    # A tile the seat has just drawn and only it has seen (New Buildings, the forest house).
    face_down = seat == state.current and state.drawn_hidden and state.drawn is None
    return {
        "seat": seat,
        "name": names[seat],
        "is_viewer": seat == view["seat"],
        "is_current": seat == view["current"],
        "is_governor": seat == view["governor"],
        "doubloons": pl["doubloons"],
        "vp": pl["vp"],
        "building_vp": sum(BUILDINGS[name].vp for name in board.city),
        "goods": sum(board.goods),
        "colonists": board.colonists(),
        "roles": [ROLE_NAMES[r["role"]] for r in view["roles"] if r["taken_by"] == seat],
        "board": drawing.player_drawing(w, pl, arranging, targets, face_down),
    }


def _draft_refusal(state: pr.State, name: str) -> str:
    """Why ``name`` may not be drafted now though a space of its cost is free (the last
    space of cost 5 kept for the Office or the Trading post), or ""."""
    try:
        pr.check(state, pr.Draft(name))
    except pr.IllegalAction as refused:
        return capfirst(describe_refusal(refused.code, refused.params))
    return ""


def _draft(state: pr.State, names: list[str], legal) -> dict[str, Any]:
    """The building draft: who picks, and the board's violet spaces by column as the board
    has them (costs 1-3, 4-6, 7-9 and the large ones), each column with its spaces (the
    drafted buildings on theirs, by whom) and every violet building still on offer for them
    with its rule; those the seat to act may pick carry their action, those no one may pick
    now say why."""
    actions = {a.building: a for a in legal}
    free = draft.free_spaces(state)
    on_offer = sorted(
        (BUILDINGS[name] for name in draft.on_offer(state)),
        key=lambda b: (b.cost, b.expansion != BASE),
    )
    drafted: dict[int, list[dict[str, str]]] = {cost: [] for cost in free}
    for n, b in enumerate(state.drafted):
        drafted[BUILDINGS[b].cost].append(
            {"name": capfirst(BUILDING_NAMES[b]), "by": names[draft.picker(state.num_players, n)]}
        )
    columns = []
    for column in range(1, 5):
        costs = [cost for cost in free if _draft_column(cost) == column]
        columns.append(
            {
                "low": costs[0],
                "high": costs[-1],
                "large": column == 4,
                "free": sum(free[cost] for cost in costs),
                "spaces": [
                    {"cost": cost, **on_space}
                    for cost in costs
                    for on_space in drafted[cost] + [{}] * free[cost]
                ],
                "candidates": [
                    {
                        "id": b.name,
                        "name": capfirst(BUILDING_NAMES[b.name]),
                        "cost": b.cost,
                        "vp": b.vp,
                        "circles": b.circles,
                        "circle_marks": "○" * b.circles,
                        "new": b.expansion != BASE,
                        "rule": building_rule(b.name),
                        "json": b.name in actions
                        and json.dumps(pr.action_to_json(actions[b.name])),
                        "refusal": _draft_refusal(state, b.name),
                    }
                    for b in on_offer
                    if _draft_column(b.cost) == column
                ],
            }
        )
    office, trading_post = BUILDING_NAMES["office"], BUILDING_NAMES["trading_post"]
    return {
        "picker": names[state.current],
        "picks_left": sum(free.values()),
        "small_left": sum(n for cost, n in free.items() if cost < 10),
        "large_left": free[10],
        "columns": columns,
        "office": office,
        "trading_post": trading_post,
    }


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
    if phase == "draft":
        what = _("draft a violet building onto the board")
    elif phase == "role":
        what = _("choose a role")
    elif phase == "settler":
        tiles = {a.tile for a in legal if a.type == "settle"}
        parts = []
        if "hacienda" in types:
            parts.append(
                _("draw a face-down plantation (%(hacienda)s)")
                % {"hacienda": BUILDING_NAMES["hacienda"]}
            )
        if "forest" in types:
            parts.append(
                _("lay the drawn plantation as a forest (%(forest_house)s)")
                % {"forest_house": BUILDING_NAMES["forest_house"]}
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
        if types & {"buy_plantation", "discard_plantation"}:
            what = _("use the %(building)s, then %(what)s") % {
                "building": BUILDING_NAMES["land_office"],
                "what": what,
            }
    elif phase == "captain":
        parts = [_("load goods on a ship")] if "load" in types else []
        if "royal_supplier" in types:
            parts.insert(
                0,
                _("first return barrels for VP (%(building)s)")
                % {"building": BUILDING_NAMES["royal_supplier"]},
            )
        for wharf in ("wharf", "small_wharf"):
            if wharf in types:
                parts.append(_("ship goods on the %(wharf)s") % {"wharf": BUILDING_NAMES[wharf]})
        what = _either([*parts, _("pass")] if "pass" in types else parts)
    elif phase == "hunting_lodge":
        what = _("return a plantation (%(building)s) or pass") % {
            "building": BUILDING_NAMES["hunting_lodge"]
        }
    elif phase == "guests":
        what = _("%(when)s, move a guest from the %(guest_house)s or go on") % {
            "when": _window_when(state),
            "guest_house": BUILDING_NAMES["guest_house"],
        }
    else:
        what = _("choose which goods to keep")
    if "move_guest" in types and phase != "guests":
        what = _("%(what)s; you may also move a guest (%(guest_house)s)") % {
            "what": what,
            "guest_house": BUILDING_NAMES["guest_house"],
        }
    if phase in ROLE_NAMES and privileges(state, state.current) == 2:
        what = _("%(what)s — with the %(role)s's privilege twice (%(library)s)") % {
            "what": what,
            "role": ROLE_NAMES[phase],
            "library": BUILDING_NAMES["library"],
        }
    if state.current == position:
        return _("Your turn: %(what)s.") % {"what": what}
    return _("%(name)s is deciding: %(what)s.") % {"name": names[state.current], "what": what}


# Choices of the seat to act ---------------------------------------------------------------


def _button(action: pr.Action, label: str, good: str | None = None) -> dict[str, Any]:
    return {"label": label, "json": json.dumps(pr.action_to_json(action)), "good": good}


def _choices(state: pr.State, legal, seat: int, posted=None) -> dict[str, Any]:
    """The forms of the seat to act: the phase's own, then the expansions' extra ones
    (black market, small wharf, royal supplier, guest moves), each a form of its own."""
    phase = state.phase
    moves = [a for a in legal if a.type == "move_guest"]
    legal = [a for a in legal if a.type != "move_guest"]
    if phase == "mayor":
        choices = _mayor(state, seat, posted)
    elif phase == "storage":
        choices = _storage(state, legal, seat)
    elif phase == "draft":
        choices = {"kind": "draft", "phase": phase}
    else:
        choices = _buttons(state, legal, seat)
    choices["black_market"] = _black_market(state, legal, seat)
    choices["small_wharf"] = _small_wharf(state, legal, seat)
    choices["royal_supplier"] = _royal_supplier(state, legal, seat)
    if phase == "guests":
        choices["window"] = _("%(when)s: move a guest from your %(guest_house)s?") % {
            "when": capfirst(_window_when(state)),
            "guest_house": BUILDING_NAMES["guest_house"],
        }
    choices["guests"] = [
        _button(
            a,
            (_("Move a noble guest: %(place)s") if a.noble else _("Move a guest: %(place)s"))
            % {"place": capfirst(_place(a.to))},
        )
        for a in moves
    ]
    return choices


def describe_action(state: pr.State, seat: int, action: pr.Action) -> str:
    """One action of ``seat`` in words, as the board's button for it says where it has one:
    what a hint or a review says the AI would do. ``state`` agrees with the seat's view."""
    t = action.type
    if t == "arrange":
        return _placement_words(action)
    if t == "store":
        whole = (*action.warehouse, *action.storehouse)
        kept = [_("all %(good)s") % {"good": GOOD_NAMES[GOODS[g]]} for g in whole]
        if action.windrose is not None:
            kept.append(_("1 %(good)s") % {"good": GOOD_NAMES[GOODS[action.windrose]]})
        return _("Keep %(goods)s") % {"goods": _and(kept)} if kept else _("Keep no barrel")
    if t == "draft":
        return _("Draft the %(building)s") % {"building": BUILDING_NAMES[action.building]}
    if t in ("small_wharf", "royal_supplier"):
        counts = action.goods if t == "small_wharf" else [g in action.goods for g in GOODS]
        barrels = [
            _("%(count)s %(good)s") % {"count": n, "good": GOOD_NAMES[g]}
            for g, n in zip(GOODS, counts, strict=True)
            if n
        ]
        if not barrels:
            return _("Return no barrel (%(building)s)") % {"building": BUILDING_NAMES[t]}
        words = {"goods": _and(barrels), "building": BUILDING_NAMES[t]}
        if t == "small_wharf":
            return _("Ship %(goods)s on the %(building)s") % words
        return _("Return %(goods)s for 1 VP each (%(building)s)") % words
    if t == "move_guest":
        return _choices(state, [action], seat)["guests"][0]["label"]
    if t == "build" and action.black_market:
        return _black_market(state, [action], seat)["options"][0]["label"]
    return _buttons(state, [action], seat)["buttons"][0]["label"]


def _placement_words(action: pr.Arrange) -> str:
    """A mayor's placement in words: how many colonists (and nobles) on each kind of
    plantation and on each building; the rest wait in San Juan."""
    places = []
    for pieces, island, city in (
        (_("colonists"), action.island, action.city),
        (_("nobles"), action.noble_island, action.noble_city),
    ):
        spots = [(ISLAND_KIND_NAMES[ISLAND_KINDS[k]], n) for k, n in enumerate(island) if n] + [
            (BUILDING_NAMES[b], n) for b, n in city
        ]
        if spots:
            where = _and(
                [_("%(count)s on %(place)s") % {"count": n, "place": name} for name, n in spots]
            )
            places.append(_("%(pieces)s: %(where)s") % {"pieces": pieces, "where": where})
    if not places:
        return _("Leave every colonist in San Juan")
    return _("Place %(places)s") % {"places": "; ".join(places)}


def _window_when(state: pr.State) -> str:
    """Why a guest window asks now: the point of the game it comes before."""
    return {
        "settler": _("at the start of the settler phase"),
        "builder": _("at the start of the builder phase"),
        "craftsman": _("before production"),
        "trader": _("at the start of the trader phase"),
        "captain": _("at the start of the captain phase"),
        guests.STORAGE: _("before storage"),
        guests.GAME_END: _("before the final scoring"),
    }[state.guests_then]


def _place(name: str) -> str:
    """An island kind, a building or San Juan, as a guest or a paying colonist leaves it."""
    if name in BUILDINGS:
        return BUILDING_NAMES[name]
    if name in ISLAND_KINDS:
        return _("%(kind)s tile") % {"kind": ISLAND_KIND_NAMES[name]}
    return PLACE_NAMES[name]


def _buttons(state: pr.State, legal, seat: int) -> dict[str, Any]:
    phase = state.phase
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
        elif t == "forest":
            words = {
                "kind": ISLAND_KIND_NAMES[ISLAND_KINDS[state.drawn]],
                "forest_house": BUILDING_NAMES["forest_house"],
            }
            if state.drawn_guest:  # a guest moved onto the drawn tile
                words["piece"] = _to_san_juan(state.drawn_guest)
                label = _(
                    "Lay the drawn %(kind)s plantation as a forest (%(piece)s) (%(forest_house)s)"
                )
            else:
                label = _("Lay the drawn %(kind)s plantation as a forest (%(forest_house)s)")
            buttons.append(_button(a, label % words, "forest"))
        elif t == "settle":
            kind = ISLAND_KINDS[a.tile]
            words = {
                "kind": ISLAND_KIND_NAMES[kind],
                "hospice": BUILDING_NAMES["hospice"],
                "forest_house": BUILDING_NAMES["forest_house"],
            }
            if a.tile == QUARRY:
                label = _("Take a quarry with a colonist (%(hospice)s)") if a.hospice else None
                label = label or _("Take a quarry")
            elif a.forest:
                label = _("Lay %(kind)s as a forest (%(forest_house)s)")
            else:
                label = _("Take %(kind)s with a colonist (%(hospice)s)") if a.hospice else None
                label = label or _("Take %(kind)s")
            buttons.append(_button(a, label % words, "forest" if a.forest else kind))
        elif t == "build":
            if a.black_market:
                continue
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
            words = {
                "good": GOOD_NAMES[good],
                "money": doubloons(trader.sale_price(state, seat, a.good, a.trading_post)),
                "trading_post": BUILDING_NAMES["trading_post"],
            }
            if a.trading_post:
                label = _("Sell 1 %(good)s to the supply for %(money)s (%(trading_post)s)")
            else:
                label = _("Sell 1 %(good)s for %(money)s")
            buttons.append(_button(a, label % words, good))
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
        elif t == "buy_plantation":
            label = _("Buy the top face-down plantation for 1 doubloon (%(building)s)")
            buttons.append(_button(a, label % {"building": BUILDING_NAMES["land_office"]}))
        elif t == "discard_plantation":
            buttons.append(_button(a, _discard_label(phase, a), _discard_good(a)))
        elif t in ("draft", "small_wharf", "royal_supplier"):
            continue  # their own forms (``_draft``, ``_small_wharf``, ``_royal_supplier``)
        else:
            buttons.append(_button(a, _pass_label(phase, {a.type for a in legal})))
    return {"kind": "buttons", "phase": phase, "buttons": buttons, "hint": _drawn_hint(legal)}


def _drawn_hint(legal) -> str | None:
    """Where on the drawn board the phase's choice is one click (``choice_targets``)."""
    types = {a.type for a in legal}
    if "build" in types:
        return _("Or click a building with a blue edge in the supply: its coin says your price.")
    if any(a.type == "sell" and not a.trading_post for a in legal):
        return _("Or click one of your barrels with a blue edge, or the trading house.")
    if "load" in types:
        return _("Or click a ship or one of your barrels with a blue edge.")
    return None


def _discard_label(phase: str, a) -> str:
    """A plantation given up: sold with the Land office (trader) or returned with the
    Hunting lodge (end of the settler phase), and what becomes of its piece."""
    words = {
        "kind": ISLAND_KIND_NAMES[ISLAND_KINDS[a.tile]],
        "building": BUILDING_NAMES["land_office" if phase == "trader" else "hunting_lodge"],
    }
    if a.occupant == "forest":
        return _("Return one forest, laid from %(kind)s (%(building)s)") % words
    words["piece"] = _("empty") if a.occupant == "empty" else _to_san_juan(a.occupant)
    if phase == "trader":
        return _("Sell one %(kind)s plantation (%(piece)s) for 1 doubloon (%(building)s)") % words
    return _("Return one %(kind)s plantation (%(piece)s) (%(building)s)") % words


def _to_san_juan(piece: str) -> str:
    """Where the colonist or noble on a tile given up or laid as a forest goes."""
    if piece == "noble":
        return _("its noble goes to San Juan")
    return _("its colonist goes to San Juan")


def _discard_good(a) -> str:
    return "forest" if a.occupant == "forest" else ISLAND_KINDS[a.tile]


def _royal_supplier(state: pr.State, legal, seat: int) -> dict[str, Any] | None:
    """The Royal supplier: which barrels (one per noble, different kinds) to return for
    1 VP each, as checkboxes; the engine judges the choice."""
    if not any(a.type == "royal_supplier" for a in legal):
        return None
    pl = state.players[seat]
    return {
        "goods": [{"good": g, "name": GOOD_NAMES[g]} for i, g in enumerate(GOODS) if pl.goods[i]],
        "nobles": pl.nobles(),
        "building": BUILDING_NAMES["royal_supplier"],
    }


def _black_market(state: pr.State, legal, seat: int) -> dict[str, Any] | None:
    """The builds paid partly with the black market, one radio each: what is given up."""
    options = []
    for a in legal:
        if a.type != "build" or not a.black_market:
            continue
        paid = []
        if a.colonist is not None:
            piece = _("a noble from %(place)s") if a.noble else _("a colonist from %(place)s")
            paid.append(piece % {"place": _place(a.colonist)})
        if a.good is not None:
            paid.append(_("1 %(good)s") % {"good": GOOD_NAMES[GOODS[a.good]]})
        if a.vp:
            paid.append(_("1 VP"))
        b = BUILDINGS[a.building]
        words = {
            "building": BUILDING_NAMES[b.name],
            "money": doubloons(state.players[seat].doubloons),
            "paid": _and(paid),
        }
        label = _("Build %(building)s for all your %(money)s and %(paid)s") % words
        if a.university:
            label = _("%(label)s, with a colonist (%(university)s)") % {
                "label": label,
                "university": BUILDING_NAMES["university"],
            }
        options.append({"label": label, "json": json.dumps(pr.action_to_json(a))})
    if not options:
        return None
    return {"options": options, "building": BUILDING_NAMES["black_market"]}


def _small_wharf(state: pr.State, legal, seat: int) -> dict[str, Any] | None:
    """The small wharf: how many barrels of each kind to ship (any, at least one)."""
    if not any(a.type == "small_wharf" for a in legal):
        return None
    goods = state.players[seat].goods
    rows = [
        {"field": f"wharf-{g}", "good": g, "name": GOOD_NAMES[g], "max": goods[i]}
        for i, g in enumerate(GOODS)
        if goods[i]
    ]
    return {"rows": rows, "building": BUILDING_NAMES["small_wharf"]}


def _pass_label(phase: str, types: set[str]) -> str:
    if phase == "captain":
        # The captain may pass only when he cannot load: he declines what his buildings offer.
        unused = [b for b in ("wharf", "small_wharf", "royal_supplier") if b in types]
        return _("Do not use the %(wharf)s") % {
            "wharf": _either([str(BUILDING_NAMES[b]) for b in unused or ["wharf"]])
        }
    return {
        "settler": _("Take nothing"),
        "builder": _("Build nothing"),
        "craftsman": _("No extra barrel"),
        "trader": _("Sell nothing"),
        "hunting_lodge": _("Return no plantation"),
        "guests": _("Go on without moving a guest"),
    }[phase]


def _good_of(b) -> str | None:
    return None if b.good is None else GOODS[b.good]


def _mayor(state: pr.State, seat: int, posted=None) -> dict[str, Any]:
    """The placement form: one count per island kind and building (with the Nobles, a
    count of colonists and one of nobles).

    Pre-filled with the pieces where they stand, and those waiting in San Juan on the first
    free circles (nobles first), so that the form as shown is a legal placement to adjust. A
    refused placement (``posted``) comes back as the player entered it.
    """
    pl = state.players[seat]
    nobles_game = uses_nobles(state)
    take_choices = mayor.noble_choices(state) if nobles_game else (False,)
    must_take = take_choices == (True,)
    island = [
        {
            "field": f"island-{kind}",
            **_good(kind),
            "max": pl.tiles[k],
            "now": pl.worked[k] - pl.noble_worked[k],
            "nobles_now": pl.noble_worked[k],
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
            "now": pl.city[b.name] - pl.noble_city.get(b.name, 0),
            "nobles_now": pl.noble_city.get(b.name, 0),
        }
        for b in BUILDINGS.values()
        if b.name in pl.city
    ]
    rows = island + city
    nobles = pl.nobles() + must_take
    colonists = pl.colonists() - pl.nobles()
    waiting_nobles = pl.noble_san_juan + must_take
    waiting = pl.san_juan - pl.noble_san_juan
    for row in rows:
        free = row["max"] - row["now"] - row["nobles_now"]
        row["noble_value"] = row["nobles_now"] + min(waiting_nobles, free)
        waiting_nobles -= row["noble_value"] - row["nobles_now"]
        free = row["max"] - row["now"] - row["noble_value"]
        row["value"] = row["now"] + min(waiting, free)
        waiting -= row["value"] - row["now"]
        row["noble_field"] = f"noble-{row['field']}"
    if posted is not None:
        for row in rows:
            row["value"] = posted.get(row["field"], row["value"])
            row["noble_value"] = posted.get(row["noble_field"], row["noble_value"])
    return {
        "kind": "mayor",
        "groups": [
            {"legend": _("Island"), "rows": island},
            *([{"legend": _("City"), "rows": city}] if city else []),
        ],
        "colonists": colonists,
        "circles": sum(r["max"] for r in rows),
        "placed": colonists + nobles - waiting - waiting_nobles,
        "newcomers": pl.san_juan,
        "san_juan": waiting + waiting_nobles,
        "privilege": mayor.privilege_colonists(state),
        "privilege_taken": posted is not None and posted.get("privilege") == "on",
        "supply": state.colonist_supply,
        # A circle's state as its button says it (static/js/board.js).
        "occupants": {k: OCCUPANT_NAMES[k] for k in ("empty", "colonist", "noble")},
        "nobles": nobles_game
        and {
            "count": nobles,
            "must_take": must_take,
            "may_take": take_choices == (False, True),
            "taken": posted is not None and posted.get("take_noble") == "on",
        },
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
        for g in sorted(set(a.storehouse)):
            words = {"count": a.storehouse.count(g), "good": GOOD_NAMES[GOODS[g]]}
            kept.append(_("%(count)s %(good)s (storehouse)") % words)
        returned = []
        for g in range(len(GOODS)):
            keep = goods[g] if g in a.warehouse else int(g == a.windrose) + a.storehouse.count(g)
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
    check_size(data)
    if _one(data, "kind") == "arrange":
        return _normalised(_arrangement(data))
    if _one(data, "kind") == "small_wharf":
        goods = {
            g: _whole(
                _one(data, f"wharf-{g}"),
                _("barrels of %(good)s must be a whole number from 0 to 99")
                % {"good": GOOD_NAMES[g]},
            )
            for g in GOODS
            if _one(data, f"wharf-{g}") is not None
        }
        return _normalised({"type": "small_wharf", "goods": goods})
    if _one(data, "kind") == "royal_supplier":
        return _normalised({"type": "royal_supplier", "goods": every(data, "goods")})
    if _one(data, "kind") is not None:
        raise ValueError(_("unknown form kind"))
    return _normalised(action_json(data))


def _arrangement(data) -> dict[str, Any]:
    """The mayor form: ``island-<kind>`` and ``city-<building>`` count colonists, the same
    names after ``noble-`` count nobles (the Nobles)."""
    island: dict[str, int] = {}
    city: dict[str, int] = {}
    noble_placement: dict[str, dict[str, int]] = {"island": {}, "city": {}}
    for key in data:
        counts = island, city
        name = key
        if key.startswith("noble-"):
            counts = noble_placement["island"], noble_placement["city"]
            name = key.removeprefix("noble-")
        if name.startswith("island-"):
            kind = name.removeprefix("island-")
            if kind not in ISLAND_KINDS:
                raise ValueError(_("unknown island tile '%(kind)s'") % {"kind": kind})
            counts[0][kind] = _count(_one(data, key), ISLAND_KIND_NAMES[kind])
        elif name.startswith("city-"):
            building = name.removeprefix("city-")
            if building not in BUILDINGS:
                raise ValueError(_("unknown building '%(name)s'") % {"name": building})
            counts[1][building] = _count(_one(data, key), BUILDING_NAMES[building])
    if not island and not city:
        raise ValueError(_("the placement gives no colonist counts"))
    return {
        "type": "arrange",
        "island": island,
        "city": city,
        "privilege": _checkbox(data, "privilege"),
        "nobles": noble_placement,
        "take_noble": _checkbox(data, "take_noble"),
    }


def _checkbox(data, name: str) -> bool:
    value = _one(data, name)
    if value not in (None, "on"):
        raise ValueError(_("%(name)s is a checkbox: 'on' or absent") % {"name": name})
    return value == "on"


def _count(value: str | None, where: str) -> int:
    return _whole(
        value, _("colonists on %(where)s must be a whole number from 0 to 99") % {"where": where}
    )


def _whole(value: str | None, refusal: str) -> int:
    """A posted count from 0 to 99; ``refusal`` says what is wrong otherwise."""
    value = (value or "").strip()
    if not (value.isascii() and value.isdigit()) or len(value) > 2:
        raise ValueError(refusal)
    return int(value)


def _normalised(data: Any) -> dict[str, Any]:
    try:
        return pr.action_to_json(pr.action_from_json(data))
    except pr.MalformedAction as error:
        raise ValueError(describe_refusal(error.code, error.params)) from error
