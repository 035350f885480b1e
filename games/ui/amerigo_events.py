"""The Amerigo log and refusals in the reader's language.

The engine records what happened as events and refuses an action with a code and parameters
(both listed in ``docs/amerigo.md``); here they become sentences in the active language. A
line names islands, not fields: a field's name ("C7") needs the map's width, which
``describe_event`` is not given.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from games.ui.amerigo_names import (
    ACTION_NAMES,
    COLOUR_NAMES,
    GOLD_SOURCES,
    GOOD_NAMES,
    ap,
    cell_name,
    gold,
    island_name,
    marker_name,
    tile_name,
    vp,
)


def _cubes(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {COLOUR_NAMES[c]}" for c, n in counts.items()) or "—"


def log_heading(e: dict, names: Sequence[str]) -> str | None:
    """The cubes thrown into the tower head the log's lines of that colour's action."""
    if e["event"] != "throw":
        return None
    return capfirst(ACTION_NAMES[e["colour"]])


def describe_event(e: dict, names: Sequence[str]) -> str:
    """One log line for one engine event."""
    kind = e["event"]
    w = {"player": names[e["seat"]]} if "seat" in e else {}
    if kind == "throw":
        return _("The %(thrown)s %(colour)s cubes go into the cube tower; out come: %(out)s.") % {
            "thrown": e["thrown"],
            "colour": COLOUR_NAMES[e["colour"]],
            "out": _cubes(e["out"]),
        }
    if kind == "turn_skipped":
        return _("No cubes for %(colour)s: the turn is skipped.") % {
            "colour": COLOUR_NAMES[e["colour"]]
        }
    if kind == "choose":
        w |= {"action": ACTION_NAMES[e["colour"]], "ap": ap(e["ap"])}
        if e["special"]:
            return _("%(player)s chooses %(action)s with %(ap)s (special action).") % w
        return _("%(player)s chooses %(action)s with %(ap)s.") % w
    if kind == "take_gold":
        return _("%(player)s takes gold instead of an action.") % w
    if kind == "gold":
        w |= {"gold": gold(e["gold"]), "source": GOLD_SOURCES[e["source"]]}
        if e["vp"]:
            return _(
                "%(player)s gets %(gold)s (%(source)s) and %(vp)s for gold beyond the track."
            ) % (w | {"vp": vp(e["vp"])})
        return _("%(player)s gets %(gold)s (%(source)s).") % w
    if kind == "cube_vp":
        return _("%(player)s takes %(vp)s for the cubes in the action field.") % (
            w | {"vp": vp(e["vp"])}
        )
    if kind == "buy_ap":
        return _("%(player)s buys an action point for 1 gold (now %(ap)s).") % (
            w | {"ap": ap(e["ap"])}
        )
    if kind == "cannons":
        return _("%(player)s loads %(steps)s cannons (now %(cannons)s).") % (
            w | {"steps": e["steps"], "cannons": e["cannons"]}
        )
    if kind == "progress":
        return _("%(player)s moves %(steps)s on the progress track (field %(field)s).") % (
            w | {"steps": e["steps"], "field": e["field"]}
        )
    if kind == "progress_marker":
        return _("%(player)s takes the progress marker “%(marker)s”.") % (
            w | {"marker": marker_name(e["marker"])}
        )
    if kind == "order":
        return _("%(player)s moves the order disc %(steps)s on (field %(field)s).") % (
            w | {"steps": e["steps"], "field": e["field"] + 1}
        )
    if kind == "order_leap":
        return _("%(player)s leaps to the leader's field (field %(field)s).") % (
            w | {"field": e["field"] + 1}
        )
    if kind == "ship_placed":
        w |= {"ship": e["ship"] + 1}
        if "row" in e:  # events recorded before the field was named lack it
            return _("%(player)s puts ship %(ship)s on the water at %(field)s.") % (
                w | {"field": cell_name(e["row"], e["col"])}
            )
        return _("%(player)s puts ship %(ship)s on the water.") % w
    if kind == "ship8":
        return _("%(player)s uses the +8 shipping marker (now %(ap)s).") % (w | {"ap": ap(e["ap"])})
    if kind == "sail":
        w |= {"ship": e["ship"] + 1}
        if "row" not in e:  # recorded before the destination was named
            return _("%(player)s sails ship %(ship)s.") % w
        w["field"] = cell_name(e["row"], e["col"])
        if e["island"] is None:
            if e["stayed"]:
                return _("%(player)s leaves ship %(ship)s on %(field)s.") % w
            return _("%(player)s sails ship %(ship)s to %(field)s.") % w
        w["island"] = island_name(e["island"])
        if e["stayed"]:
            text = _(
                "%(player)s leaves ship %(ship)s on %(field)s, the anchor field at %(island)s."
            )
        else:
            text = _("%(player)s sails ship %(ship)s to %(field)s, the anchor field at %(island)s.")
        return text % w
    if kind == "trading_post":
        return _("%(player)s sets a trading post on %(island)s.") % (
            w | {"island": island_name(e["island"])}
        )
    if kind == "discoverer":
        return _("%(player)s discovers %(island)s: %(vp)s.") % (
            w | {"island": island_name(e["island"]), "vp": vp(e["vp"])}
        )
    if kind == "tile_taken":
        return _("%(player)s takes a %(tile)s.") % (w | {"tile": tile_name(e["tile"])})
    if kind == "build":
        return _("%(player)s builds a %(tile)s on %(island)s: %(vp)s.") % (
            w
            | {"tile": tile_name(e["tile"]), "island": island_name(e["island"]), "vp": vp(e["vp"])}
        )
    if kind == "raw_material":
        return _("%(player)s takes the raw material %(good)s.") % (
            w | {"good": GOOD_NAMES[e["good"]]}
        )
    if kind == "island_completed":
        w |= {"island": island_name(e["island"]), "vp": vp(e["vp"])}
        if e["chest"]:
            return _("%(player)s completes %(island)s: %(vp)s and a treasure chest.") % w
        return _("%(player)s completes %(island)s: %(vp)s.") % w
    if kind == "completion_vp":
        return _(
            "%(player)s scores %(vp)s for %(posts)s trading posts on %(island)s "
            "(time marker %(time)s)."
        ) % (
            w
            | {
                "vp": vp(e["vp"]),
                "posts": e["posts"],
                "island": island_name(e["island"]),
                "time": e["time"],
            }
        )
    if kind == "goods_bought":
        return _("%(player)s buys a %(good)s goods marker for %(cost)s AP.") % (
            w | {"good": GOOD_NAMES[e["good"]], "cost": e["cost"]}
        )
    if kind == "pirates_repelled":
        return _(
            "%(player)s repels the pirates (strength %(strength)s); %(cannons)s cannons left."
        ) % (w | {"strength": e["strength"], "cannons": e["cannons"]})
    if kind == "pirates_damage":
        return _("The pirates (strength %(strength)s) cost %(player)s %(vp)s.") % (
            w | {"strength": e["strength"], "vp": vp(e["vp"])}
        )
    if kind == "round_start":
        return _("Round %(round)s begins: pirates %(pirates)s, time marker %(time)s.") % {
            "round": e["round"],
            "pirates": e["pirates"],
            "time": e["time"],
        }
    if kind == "final_scoring":
        goods = sum(e["goods"].values())
        return _(
            "Final scoring for %(player)s: gold %(gold)s, goods %(goods)s, progress markers "
            "%(markers)s, progress track %(track)s, special-action track %(order)s: %(total)s."
        ) % (
            w
            | {
                "gold": e["gold"] + e["gold_overflow"],
                "goods": goods,
                "markers": e["progress_markers"],
                "track": e["progress_track"],
                "order": e["order_track"],
                "total": vp(e["total"]),
            }
        )
    if kind == "game_over":
        return _("The game is over. Winner: %(winners)s.") % {
            "winners": ", ".join(names[s] for s in e["winners"])
        }
    return _("Something happened that this page cannot tell (%(event)s).") % {"event": kind}


def describe_refusal(code: str, params: dict) -> str:
    """Why the engine refused a move, in the reader's language."""
    p = dict(params)
    if "colour" in p:
        p["colour"] = ACTION_NAMES.get(p["colour"], p["colour"])
    texts = {
        "game_over": _("The game is over."),
        "choose_first": _("Choose an action (or gold) first."),
        "already_chosen": _("You have already chosen %(colour)s this turn."),
        "pick_marker_first": _("Take your progress marker first."),
        "colour_not_offered": _("The action %(colour)s is not offered to you this turn."),
        "no_gold": _("You have no gold to buy an action point."),
        "place_ships_first": _(
            "Put both ships on frame fields before you end your first shipping action."
        ),
        "not_allowed": _("That move is not allowed now."),
        "not_an_action": _("That is not a move."),
        "bad_text": _("an action's text may not hold NUL characters or lone surrogates"),
        "unknown_type": _("Unknown kind of move."),
        "malformed": _("The move is incomplete or malformed (%(field)s)."),
    }
    if code not in texts:
        return _("The move was refused (%(code)s).") % {"code": code}
    return texts[code] % p
