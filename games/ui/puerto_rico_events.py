"""The Puerto Rico log and refusals in the reader's language.

The engine records what happened as events (``{"event": "sell", "seat": 0, ...}``) and refuses
an action with a code and parameters (both listed in ``docs/engine.md``); here they become
sentences in the active language, with the pieces named as in ``puerto_rico_names``. A stored
log is told again in whatever language the next reader has.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.ui.puerto_rico_names import (
    BUILDING_NAMES,
    END_REASON_NAMES,
    GOOD_NAMES,
    ISLAND_KIND_NAMES,
    OCCUPANT_NAMES,
    PHASE_NAMES,
    PLACE_NAMES,
    ROLE_NAMES,
    doubloons,
)


def _vp(n: int) -> str:
    return ngettext("%(count)d victory point", "%(count)d victory points", n) % {"count": n}


def _colonists(n: int) -> str:
    return ngettext("%(count)d colonist", "%(count)d colonists", n) % {"count": n}


def _barrels(goods: dict[str, int]) -> str:
    """``{"corn": 3, "sugar": 1}`` as "3 corn, 1 sugar": a count before a good reads alike in
    both languages ("3 Mais")."""
    return ", ".join(f"{n} {GOOD_NAMES[good]}" for good, n in goods.items())


def _tiles(tiles: Sequence[str]) -> str:
    return ", ".join(str(ISLAND_KIND_NAMES[t]) for t in tiles)


def _bonus(amount: str, source: str) -> str:
    """A gain and where it came from, as the log appends it: " (+1 colonist, hospice)"."""
    return f" (+{amount}, {source})"


def _role(e: dict, names: Sequence[str]) -> str:
    text = _("%(player)s takes the %(role)s") % {
        "player": names[e["seat"]],
        "role": ROLE_NAMES[e["role"]],
    }
    return text + (f" (+{doubloons(e['doubloons'])})" if e["doubloons"] else "")


def _prospect(e: dict, names: Sequence[str]) -> str:
    return _("%(player)s takes %(doubloons)s as %(role)s") % {
        "player": names[e["seat"]],
        "doubloons": doubloons(e["doubloons"]),
        "role": ROLE_NAMES["prospector"],
    }


def _hacienda(e: dict, names: Sequence[str]) -> str:
    words = {"player": names[e["seat"]], "building": BUILDING_NAMES["hacienda"]}
    if e["tile"] is None:  # seen only by its drawer (forest house)
        return _("%(player)s draws a face-down plantation (%(building)s)") % words
    words["tile"] = ISLAND_KIND_NAMES[e["tile"]]
    return _("%(player)s draws a face-down plantation: %(tile)s (%(building)s)") % words


def _settle(e: dict, names: Sequence[str]) -> str:
    if e["tile"] == "quarry":
        text = _("%(player)s takes a quarry") % {"player": names[e["seat"]]}
    else:
        text = _("%(player)s takes a plantation: %(tile)s") % {
            "player": names[e["seat"]],
            "tile": ISLAND_KIND_NAMES[e["tile"]],
        }
    return text + (_bonus(_colonists(1), BUILDING_NAMES["hospice"]) if e["colonist"] else "")


def _plantations_drawn(e: dict, names: Sequence[str]) -> str:
    return _("New face-up plantations: %(tiles)s") % {"tiles": _tiles(e["tiles"])}


def _colonists_arrive(e: dict, names: Sequence[str]) -> str:
    shares = ", ".join(f"{names[s['seat']]} {s['colonists']}" for s in e["shares"])
    return _("The colonist ship brings %(colonists)s: %(shares)s") % {
        "colonists": _colonists(e["colonists"]),
        "shares": shares,
    }


def _place_colonists(e: dict, names: Sequence[str]) -> str:
    values = {"player": names[e["seat"]], "colonists": _colonists(e["colonists"])}
    if e["privilege"]:
        text = _("%(player)s places %(colonists)s, one of them from the supply (privilege)")
    else:
        text = _("%(player)s places %(colonists)s")
    text %= values
    if e["san_juan"]:
        text += " " + _("(San Juan: %(count)d)") % {"count": e["san_juan"]}
    return text


def _colonist_ship_filled(e: dict, names: Sequence[str]) -> str:
    n = e["colonists"]
    text = ngettext(
        "%(count)d colonist boards the colonist ship",
        "%(count)d colonists board the colonist ship",
        n,
    ) % {"count": n}
    if n < e["needed"]:
        text += " " + _("(%(count)d were needed)") % {"count": e["needed"]}
    return text


def _build(e: dict, names: Sequence[str]) -> str:
    text = _("%(player)s builds the %(building)s for %(doubloons)s") % {
        "player": names[e["seat"]],
        "building": BUILDING_NAMES[e["building"]],
        "doubloons": doubloons(e["price"]),
    }
    return text + (_bonus(_colonists(1), BUILDING_NAMES["university"]) if e["colonist"] else "")


def _produce(e: dict, names: Sequence[str]) -> str:
    if not e["goods"]:
        text = _("%(player)s produces nothing") % {"player": names[e["seat"]]}
    else:
        text = _("%(player)s produces %(goods)s") % {
            "player": names[e["seat"]],
            "goods": _barrels(e["goods"]),
        }
    factory = e["factory"]
    return text + (_bonus(doubloons(factory), BUILDING_NAMES["factory"]) if factory else "")


def _extra_good(e: dict, names: Sequence[str]) -> str:
    return _("%(player)s takes 1 more %(good)s (privilege)") % {
        "player": names[e["seat"]],
        "good": GOOD_NAMES[e["good"]],
    }


def _sell(e: dict, names: Sequence[str]) -> str:
    return _("%(player)s sells 1 %(good)s for %(doubloons)s") % {
        "player": names[e["seat"]],
        "good": GOOD_NAMES[e["good"]],
        "doubloons": doubloons(e["price"]),
    }


def _trading_house_emptied(e: dict, names: Sequence[str]) -> str:
    goods = ", ".join(str(GOOD_NAMES[g]) for g in e["goods"])
    return _("The full trading house is emptied: %(goods)s") % {"goods": goods}


def _shipping_bonuses(e: dict) -> str:
    return (f" (+1 {BUILDING_NAMES['harbor']})" if e["harbor"] else "") + (
        f" (+1 {ROLE_NAMES['captain']})" if e["captain"] else ""
    )


def _load(e: dict, names: Sequence[str]) -> str:
    text = _("%(player)s ships %(barrels)s on the %(capacity)d-ship: %(vp)s") % {
        "player": names[e["seat"]],
        "barrels": _barrels({e["good"]: e["barrels"]}),
        "capacity": e["capacity"],
        "vp": _vp(e["vp"]),
    }
    return text + _shipping_bonuses(e)


def _wharf(e: dict, names: Sequence[str]) -> str:
    text = _("%(player)s ships %(barrels)s on the wharf's own ship: %(vp)s") % {
        "player": names[e["seat"]],
        "barrels": _barrels({e["good"]: e["barrels"]}),
        "vp": _vp(e["vp"]),
    }
    return text + _shipping_bonuses(e)


def _goods_returned(e: dict, names: Sequence[str]) -> str:
    return _("%(player)s cannot store %(goods)s: back to the supply") % {
        "player": names[e["seat"]],
        "goods": _barrels(e["goods"]),
    }


def _ship_emptied(e: dict, names: Sequence[str]) -> str:
    return _("The full %(capacity)d-ship is emptied (%(barrels)s)") % {
        "capacity": e["capacity"],
        "barrels": _barrels({e["good"]: e["barrels"]}),
    }


def _game_ends(e: dict, names: Sequence[str]) -> str:
    return _("The game ends after this round: %(reason)s") % {
        "reason": END_REASON_NAMES[e["reason"]]
    }


# Expansion I, "Die neuen Gebäude" ---------------------------------------------------------


def _place(place: str) -> str:
    return str(ISLAND_KIND_NAMES.get(place) or BUILDING_NAMES.get(place) or PLACE_NAMES[place])


def _draft(e: dict, names: Sequence[str]) -> str:
    return ngettext(
        "%(player)s puts the %(building)s on the board",
        "%(player)s puts the %(building)s on the board (%(count)d copies)",
        e["copies"],
    ) % {
        "player": names[e["seat"]],
        "building": BUILDING_NAMES[e["building"]],
        "count": e["copies"],
    }


def _forest(e: dict, names: Sequence[str]) -> str:
    words = {"player": names[e["seat"]], "building": BUILDING_NAMES["forest_house"]}
    if e["tile"] is None:  # seen only by its drawer
        return _("%(player)s lays the drawn plantation face down as a forest (%(building)s)") % (
            words
        )
    words["tile"] = ISLAND_KIND_NAMES[e["tile"]]
    return _("%(player)s lays the %(tile)s plantation face down as a forest (%(building)s)") % (
        words
    )


def _drawn_shown(e: dict, names: Sequence[str]) -> str:
    return _("%(player)s lays the drawn plantation face up: %(tile)s") % {
        "player": names[e["seat"]],
        "tile": ISLAND_KIND_NAMES[e["tile"]],
    }


def _black_market(e: dict, names: Sequence[str]) -> str:
    paid = []
    if e["colonist"]:
        piece = _("a noble from %(place)s") if e["noble"] else _("a colonist from %(place)s")
        paid.append(piece % {"place": _place(e["colonist"])})
    if e["good"]:
        paid.append(_("1 %(good)s") % {"good": GOOD_NAMES[e["good"]]})
    if e["vp"]:
        paid.append(_vp(1))
    return _("%(player)s pays with %(paid)s (%(building)s)") % {
        "player": names[e["seat"]],
        "paid": ", ".join(paid),
        "building": BUILDING_NAMES["black_market"],
    }


def _gain_vp(building: str) -> Callable[[dict, Sequence[str]], str]:
    """VP a building gives: "Anna gets 2 victory points (church)"."""
    return lambda e, names: (
        _("%(player)s gets %(vp)s (%(building)s)")
        % {
            "player": names[e["seat"]],
            "vp": _vp(e["vp"]),
            "building": BUILDING_NAMES[building],
        }
    )


def _gain_doubloons(building: str) -> Callable[[dict, Sequence[str]], str]:
    return lambda e, names: (
        _("%(player)s gets %(doubloons)s (%(building)s)")
        % {
            "player": names[e["seat"]],
            "doubloons": doubloons(e["doubloons"]),
            "building": BUILDING_NAMES[building],
        }
    )


def _trading_post(e: dict, names: Sequence[str]) -> str:
    return _("%(player)s sells 1 %(good)s to the supply for %(doubloons)s (%(building)s)") % {
        "player": names[e["seat"]],
        "good": GOOD_NAMES[e["good"]],
        "doubloons": doubloons(e["price"]),
        "building": BUILDING_NAMES["trading_post"],
    }


def _small_wharf(e: dict, names: Sequence[str]) -> str:
    text = _("%(player)s ships %(barrels)s on the %(building)s: %(vp)s") % {
        "player": names[e["seat"]],
        "barrels": _barrels(e["goods"]),
        "building": BUILDING_NAMES["small_wharf"],
        "vp": _vp(e["vp"]),
    }
    return text + _shipping_bonuses(e)


def _guest_moved(e: dict, names: Sequence[str]) -> str:
    if e["noble"]:
        text = _("%(player)s moves a noble guest from the %(building)s to %(place)s")
    else:
        text = _("%(player)s moves a guest from the %(building)s to %(place)s")
    return text % {
        "player": names[e["seat"]],
        "building": BUILDING_NAMES["guest_house"],
        "place": _place(e["to"]),
    }


# The Nobles ----------------------------------------------------------------------------------

_OCCUPANTS = {"colonist": lambda: _("its colonist"), "noble": lambda: _("its noble")}
"""What stood on a plantation given up, said after it; an empty one says nothing."""


def _given_up(e: dict) -> str:
    occupant = _OCCUPANTS.get(e["occupant"])
    if occupant is None:
        return ""
    return " " + _("(%(piece)s waits in San Juan)") % {"piece": occupant()}


def _noble_arrives(e: dict, names: Sequence[str]) -> str:
    return _(
        "A noble is on the colonist ship: %(player)s gets it unless someone before takes it"
    ) % {"player": names[e["seat"]]}


def _villa(e: dict, names: Sequence[str]) -> str:
    if e["piece"] == "noble":
        text = _("%(player)s gets a noble from the supply (%(building)s)")
    else:
        text = _("%(player)s gets a colonist from the supply (%(building)s)")
    return text % {"player": names[e["seat"]], "building": BUILDING_NAMES["villa"]}


def _place_nobles(e: dict, names: Sequence[str]) -> str:
    n = e["nobles"]
    text = ngettext(
        "%(player)s places %(count)d noble", "%(player)s places %(count)d nobles", n
    ) % {
        "player": names[e["seat"]],
        "count": n,
    }
    if e["san_juan"]:
        text += " " + _("(San Juan: %(count)d)") % {"count": e["san_juan"]}
    return text


def _hunting_lodge(e: dict, names: Sequence[str]) -> str:
    if e["occupant"] == "forest":
        text = _("%(player)s returns a forest: %(tile)s (%(building)s)")
    else:
        text = _("%(player)s returns a plantation: %(tile)s (%(building)s)")
    text = text % {
        "player": names[e["seat"]],
        "tile": ISLAND_KIND_NAMES[e["tile"]],
        "building": BUILDING_NAMES["hunting_lodge"],
    }
    return text + _given_up(e)


def _hunting_lodge_vp(e: dict, names: Sequence[str]) -> str:
    return _("%(player)s has the most empty island spaces: %(vp)s (%(building)s)") % {
        "player": names[e["seat"]],
        "vp": _vp(e["vp"]),
        "building": BUILDING_NAMES["hunting_lodge"],
    }


def _production_bonus(e: dict, names: Sequence[str]) -> str:
    gains = []
    if e["doubloons"]:
        gains.append(doubloons(e["doubloons"]))
    if e["vp"]:
        gains.append(_vp(e["vp"]))
    return _("%(player)s gets %(gains)s (%(buildings)s)") % {
        "player": names[e["seat"]],
        "gains": ", ".join(gains),
        "buildings": ", ".join(str(BUILDING_NAMES[b]) for b in ("chapel", "jeweler")),
    }


def _land_office_buy(e: dict, names: Sequence[str]) -> str:
    words = {
        "player": names[e["seat"]],
        "doubloons": doubloons(1),
        "building": BUILDING_NAMES["land_office"],
    }
    if e["tile"] is None:  # seen only by its buyer (forest house)
        return _("%(player)s buys a face-down plantation for %(doubloons)s (%(building)s)") % words
    words["tile"] = ISLAND_KIND_NAMES[e["tile"]]
    return (
        _("%(player)s buys a face-down plantation for %(doubloons)s: %(tile)s (%(building)s)")
        % words
    )


def _land_office_sell(e: dict, names: Sequence[str]) -> str:
    text = _("%(player)s gives up a plantation for %(doubloons)s: %(tile)s (%(building)s)") % {
        "player": names[e["seat"]],
        "doubloons": doubloons(1),
        "tile": ISLAND_KIND_NAMES[e["tile"]],
        "building": BUILDING_NAMES["land_office"],
    }
    return text + _given_up(e)


def _royal_supplier(e: dict, names: Sequence[str]) -> str:
    return _("%(player)s hands over %(goods)s for %(vp)s (%(building)s)") % {
        "player": names[e["seat"]],
        "goods": _barrels(dict.fromkeys(e["goods"], 1)),
        "vp": _vp(e["vp"]),
        "building": BUILDING_NAMES["royal_supplier"],
    }


def _seat_only(message: Callable[[], str]) -> Callable[[dict, Sequence[str]], str]:
    """An event that says only who did nothing; ``message`` translates when it is told."""
    return lambda e, names: message() % {"player": names[e["seat"]]}


EVENTS: dict[str, Callable[[dict, Sequence[str]], str]] = {
    "role": _role,
    "prospect": _prospect,
    "hacienda": _hacienda,
    "settle": _settle,
    "settle_nothing": _seat_only(lambda: _("%(player)s takes no tile")),
    "plantations_drawn": _plantations_drawn,
    "colonists_arrive": _colonists_arrive,
    "place_colonists": _place_colonists,
    "colonist_ship_filled": _colonist_ship_filled,
    "build": _build,
    "build_nothing": _seat_only(lambda: _("%(player)s builds nothing")),
    "produce": _produce,
    "extra_good": _extra_good,
    "extra_good_declined": _seat_only(lambda: _("%(player)s takes no extra barrel")),
    "sell": _sell,
    "sell_nothing": _seat_only(lambda: _("%(player)s sells nothing")),
    "trading_house_emptied": _trading_house_emptied,
    "load": _load,
    "wharf": _wharf,
    "wharf_declined": _seat_only(lambda: _("%(player)s does not use the wharf")),
    "goods_returned": _goods_returned,
    "ship_emptied": _ship_emptied,
    "game_ends": _game_ends,
    "draft": _draft,
    "forest": _forest,
    "drawn_shown": _drawn_shown,
    "black_market": _black_market,
    "church": _gain_vp("church"),
    "specialty_factory": _gain_doubloons("specialty_factory"),
    "trading_post": _trading_post,
    "union_hall": _gain_vp("union_hall"),
    "lighthouse": _gain_doubloons("lighthouse"),
    "small_wharf": _small_wharf,
    "guest_moved": _guest_moved,
    # The Nobles
    "noble_arrives": _noble_arrives,
    "noble_taken": _seat_only(lambda: _("%(player)s takes the noble instead of a colonist")),
    "villa": _villa,
    "place_nobles": _place_nobles,
    "noble_on_ship": lambda e, names: _("A noble boards the colonist ship"),
    "hunting_lodge": _hunting_lodge,
    "hunting_lodge_declined": _seat_only(lambda: _("%(player)s returns no plantation")),
    "hunting_lodge_vp": _hunting_lodge_vp,
    "production_bonus": _production_bonus,
    "land_office_buy": _land_office_buy,
    "land_office_sell": _land_office_sell,
    "royal_supplier": _royal_supplier,
    "royal_supplier_declined": _seat_only(lambda: _("%(player)s does not use the royal supplier")),
}
"""Each event kind of the engine and how to say it."""


def log_heading(event: dict[str, Any], names: Sequence[str]) -> str | None:
    """A role taken heads the log's lines of its phase: "Builder (Anna)"."""
    if event["event"] != "role":
        return None
    return _("%(role)s (%(player)s)") % {
        "role": capfirst(ROLE_NAMES[event["role"]]),
        "player": names[event["seat"]],
    }


def describe_event(event: dict[str, Any], names: Sequence[str]) -> str:
    """One log event as a sentence in the active language; ``names`` in seat order."""
    return EVENTS[event["event"]](event, names)


def _refusal_values(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters with the pieces named in the reader's language."""
    values = dict(params)
    names = {
        "good": GOOD_NAMES,
        "tile": ISLAND_KIND_NAMES,
        "building": BUILDING_NAMES,
        "role": ROLE_NAMES,
        "phase": PHASE_NAMES,
        "occupant": OCCUPANT_NAMES,
    }
    for key, table in names.items():
        if key in values and values[key] in table:
            values[key] = table[values[key]]
    if "place" in values:  # a bad count names an island kind, a building or San Juan
        place = values["place"]
        values["place"] = (
            ISLAND_KIND_NAMES.get(place)
            or BUILDING_NAMES.get(place)
            or PLACE_NAMES.get(place)
            or place
        )
    return values


def _refusals() -> dict[str, str]:
    """Each refusal code's sentence: in English the engine's own wording, so a program and a
    person read the same reason."""
    return {
        "game_over": _("the game is over"),
        "role_expected": _("a role must be chosen now"),
        "wrong_action": _("that is not a choice in the %(phase)s"),
        "role_not_in_game": _("there is no %(role)s card in a %(players)s-player game"),
        "role_taken": _("the %(role)s has already been chosen this round"),
        "no_good": _("you have no %(good)s"),
        "no_colonist": _("no colonist is left in the supply or on the ship"),
        "no_hacienda": _("only the owner of an occupied hacienda may draw a face-down tile"),
        "hacienda_used": _("the hacienda draws one tile a turn, before the face-up tile"),
        "stack_empty": _("the face-down plantation stack is empty"),
        "island_full": _("all 12 island spaces are filled"),
        "quarry_not_allowed": _(
            "only the settler (privilege) or an occupied construction hut takes a quarry"
        ),
        "quarries_gone": _("no quarries are left"),
        "plantation_not_face_up": _("no face-up %(tile)s plantation to take"),
        "no_hospice": _("only the owner of an occupied hospice gets a colonist with a tile"),
        "island_counts": _("a placement gives a count for each of the six island kinds"),
        "privilege_not_mayor": _("only the mayor takes a colonist from the supply (privilege)"),
        "colonist_supply_empty": _("the colonist supply is empty: no privilege colonist"),
        "negative_count": _("a colonist count cannot be negative"),
        "too_many_on_tiles": _(
            "%(colonists)s colonists on %(tile)s, but you have %(tiles)s such tiles"
        ),
        "building_twice": _("a placement names each building once"),
        "no_building": _("you have no %(building)s"),
        "too_many_on_building": _("the %(building)s has only %(circles)s circles"),
        "too_many_colonists": _("you place %(placed)s colonists but have %(colonists)s"),
        "circles_empty": _("colonists may wait in San Juan only when every circle is full"),
        "already_built": _("you already own a %(building)s: each building once per player"),
        "building_gone": _("no %(building)s is left on the board"),
        "no_city_space": _("the %(building)s needs %(spaces)s city spaces; you have %(free)s free"),
        "too_expensive": _(
            "the %(building)s costs you %(price)s doubloons; you have %(doubloons)s"
        ),
        "no_university": _("only the owner of an occupied university gets a colonist"),
        "not_produced": _("the extra barrel must be of a kind the craftsman produced now"),
        "good_gone": _("no %(good)s is left in the supply"),
        "trading_house_full": _("the trading house is full"),
        "trading_house_has_good": _(
            "the trading house already has %(good)s: it buys only different kinds "
            "(unless you have an occupied office)"
        ),
        "must_load": _("you must load when you can (captain phase)"),
        "no_wharf": _("only the owner of an occupied wharf ships on the wharf"),
        "wharf_used": _("the wharf is used once a captain phase"),
        "no_ship": _("there is no ship %(ship)s"),
        "ship_has_other_good": _("the %(capacity)s-ship carries %(good)s: a ship takes one kind"),
        "ship_full": _("the %(capacity)s-ship is full"),
        "good_on_other_ship": _("%(good)s is already on another ship"),
        "not_largest_ship": _("you must choose the empty ship that takes the most of your barrels"),
        "warehouse_twice": _("a warehouse list names each kind once"),
        "warehouse_too_small": _("your occupied warehouses hold %(kinds)s kinds of goods"),
        "windrose_in_warehouse": _(
            "the windrose barrel is one more barrel, of a kind not warehoused"
        ),
        "warehouse_not_filled": _("fill your warehouses before goods go back to the supply"),
        "windrose_empty": _("keep one barrel on your windrose before goods go back"),
        "not_an_action": _("an action is an object with a 'type'"),
        "malformed": _("'%(field)s' must be a name (a string)"),
        "bad_text": _("an action's text may not hold NUL characters or lone surrogates"),
        "unknown_type": _("unknown action type '%(type)s'"),
        "bad_role": _("'role' must be one of %(choices)s"),
        "bad_tile": _("'tile' must be one of %(choices)s"),
        "bad_good": _("'%(field)s' must be one of %(choices)s"),
        "bad_flag": _("'%(field)s' must be true or false"),
        "bad_placement": _("'island' and 'city' map names to colonist counts"),
        "unknown_tile": _("unknown island tile '%(tile)s'"),
        "unknown_building": _("unknown building '%(building)s'"),
        "bad_count": _("colonists on %(place)s must be a whole number from 0 to 99"),
        "bad_building": _("'building' must name a building"),
        "bad_ship": _("'ship' must be 0, 1 or 2"),
        "bad_warehouse": _("'warehouse' must be a list of goods"),
        # New Buildings
        "draft_expected": _("the violet buildings are drafted now"),
        "not_in_draft": _("the %(building)s is not among the buildings to draft"),
        "already_drafted": _("the %(building)s is already on the board"),
        "no_draft_space": _("no space for a building costing %(cost)s is left on the board"),
        "office_or_trading_post": _("the office and the trading post are never both in play"),
        "office_or_trading_post_needed": _(
            "the last space of cost %(cost)s takes the office or the trading post: one of them"
            " is always in play"
        ),
        "no_forest_house": _("only the owner of an occupied forest house lays a tile as a forest"),
        "quarry_no_forest": _("a quarry cannot become a forest"),
        "nothing_drawn": _(
            "there is no tile just drawn (hacienda, land office) to lay as a forest"
        ),
        "library_no_hospice": _("the library's second tile comes without a hospice colonist"),
        "library_no_quarry": _(
            "the library's second tile is a plantation (a quarry only with an occupied "
            "construction hut)"
        ),
        "no_black_market": _(
            "only the owner of an occupied black market pays with a colonist, a barrel or a VP"
        ),
        "black_market_not_needed": _(
            "the black market pays only what your doubloons lack: %(short)s here"
        ),
        "no_colonist_there": _("you have no colonist on %(place)s to pay with"),
        "no_noble_there": _("you have no noble on %(place)s to pay with"),
        "no_vp": _("you have no VP to pay with"),
        "no_trading_post": _("only the owner of an occupied trading post sells to the supply"),
        "no_small_wharf": _("only the owner of an occupied small wharf ships on it"),
        "small_wharf_used": _("the small wharf is used once a captain phase"),
        "small_wharf_empty": _("load at least one barrel on the small wharf"),
        "storehouse_too_small": _("your storehouse keeps %(barrels)s barrels"),
        "storehouse_not_filled": _("fill your storehouse before goods go back to the supply"),
        "no_guests": _("you have no guests in an occupied guest house"),
        "no_guest_moves_now": _("guests are not moved in the mayor phase"),
        "no_free_circle": _("no empty circle on %(place)s"),
        "no_noble_guest": _("no noble is a guest in your guest house"),
        "bad_black_market": _(
            "'black_market' maps 'colonist' (and 'noble'), 'good' and 'vp' to what is paid"
        ),
        "bad_place": _("unknown place '%(place)s'"),
        # The Nobles
        "nobles_not_in_game": _("there are no nobles in this game"),
        "noble_not_on_ship": _("no noble waits on the colonist ship for you"),
        "noble_must_take": _("only the ship's noble is left to deal to you: take it"),
        "too_many_nobles": _("you place %(placed)s nobles but have %(nobles)s"),
        "not_a_plantation": _("a quarry is no plantation"),
        "no_plantation": _("you have no %(tile)s plantation with this on it: %(occupant)s"),
        "no_land_office": _(
            "only the owner of a Land office with a colonist on it buys a plantation"
        ),
        "no_land_office_noble": _(
            "only the owner of a Land office with a noble on it sells a plantation"
        ),
        "land_office_used": _("the Land office is used once a turn, before selling"),
        "no_doubloon": _("a face-down plantation costs 1 doubloon"),
        "no_royal_supplier": _(
            "only the owner of an occupied Royal supplier trades barrels for VP"
        ),
        "supplier_not_now": _("the Royal supplier acts once, before the owner's first load"),
        "supplier_barrels": _(
            "one to %(nobles)s barrels of different kinds (one per noble you own)"
        ),
        "bad_occupant": _("'occupant' must be one of %(choices)s"),
        "bad_goods": _(
            "'goods' maps goods to barrel counts (small wharf) or lists goods (royal supplier)"
        ),
    }


def describe_refusal(code: str, params: dict[str, Any]) -> str:
    """Why the engine refused an action, in the active language."""
    return _refusals()[code] % _refusal_values(params)
