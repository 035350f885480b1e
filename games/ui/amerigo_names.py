"""The names of Amerigo's pieces in the reader's language, one place for the whole site.

The engine names things in English keys (``"blue"``, ``"coconuts"``, ``"ap2_red"``); the
board, the log and the refusals show them through these tables. The German names are those
of the German rulebook (``shared/rules/names-de.md``, section 4).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

COLOUR_NAMES = {
    "blue": pgettext_lazy("amerigo colour", "blue"),
    "black": pgettext_lazy("amerigo colour", "black"),
    "red": pgettext_lazy("amerigo colour", "red"),
    "brown": pgettext_lazy("amerigo colour", "brown"),
    "green": pgettext_lazy("amerigo colour", "green"),
    "yellow": pgettext_lazy("amerigo colour", "yellow"),
    "white": pgettext_lazy("amerigo colour", "white"),
    "any": pgettext_lazy("amerigo colour", "any colour"),
}
"""The cube colours of the rondel."""

ACTION_NAMES = {
    "blue": pgettext_lazy("amerigo action", "shipping"),
    "black": pgettext_lazy("amerigo action", "cannons"),
    "red": pgettext_lazy("amerigo action", "planning"),
    "brown": pgettext_lazy("amerigo action", "progress"),
    "green": pgettext_lazy("amerigo action", "building"),
    "yellow": pgettext_lazy("amerigo action", "goods markers"),
    "white": pgettext_lazy("amerigo action", "order / special action"),
}
"""The action of each colour, as the rulebook heads them."""

GOOD_NAMES = {
    "cotton": pgettext_lazy("good", "cotton"),
    "tobacco": pgettext_lazy("good", "tobacco"),
    "sugar": pgettext_lazy("good", "sugar"),
    "coconuts": pgettext_lazy("good", "coconuts"),
    "coffee": pgettext_lazy("good", "coffee"),
}

MARKER_NAMES = {
    **{
        f"ap2_{c}": pgettext_lazy("amerigo marker", "+2 AP: %(action)s")
        for c in ("blue", "black", "red", "brown", "green", "yellow", "white")
    },
    "ap1_blue_green": pgettext_lazy("amerigo marker", "+1 AP: shipping and building"),
    "ap1_red_yellow": pgettext_lazy("amerigo marker", "+1 AP: planning and goods markers"),
    "pirates_plus2": pgettext_lazy("amerigo marker", "pirates +2 for the others"),
    "half_damage": pgettext_lazy("amerigo marker", "half damage from pirates"),
    "ship8": pgettext_lazy("amerigo marker", "+8 shipping AP (once)"),
    "repel_gold": pgettext_lazy("amerigo marker", "2 gold for repelling pirates"),
    "two_landscapes": pgettext_lazy("amerigo marker", "two landscape tiles"),
    "swap_plan_build": pgettext_lazy("amerigo marker", "planning/building swap"),
    "leader": pgettext_lazy("amerigo marker", "leap to the leader (once)"),
    "gold3": pgettext_lazy("amerigo marker", "3 gold (once)"),
    "gold5": pgettext_lazy("amerigo marker", "5 gold (once)"),
    "post_gold": pgettext_lazy("amerigo marker", "1 gold per trading post"),
    "gold_2to1": pgettext_lazy("amerigo marker", "gold at 2:1"),
    "cube_vp": pgettext_lazy("amerigo marker", "1 VP per cube (once)"),
    "end_posts": pgettext_lazy("amerigo marker", "E: 1 VP per trading post"),
    "end_7": pgettext_lazy("amerigo marker", "E: 7 VP"),
    "end_gold": pgettext_lazy("amerigo marker", "E: 1 VP per gold"),
}
"""The progress markers; an AP marker's name takes its action's name."""

OUTCOME_PARTS = {
    "during_play": _("Before the final scoring"),
    "gold": _("Gold"),
    "goods": _("Goods"),
    "progress_markers": _("Progress markers"),
    "progress_track": _("Progress track"),
    "special_action_track": _("Special-action track"),
    "special_action_field": _("tie-break: field on the special-action track"),
}
"""The label of each part of a seat's final score and of the tie-break
(``engines.amerigo.outcome``), in the order the final table shows them."""

GOLD_SOURCES = {
    "action": _("instead of an action"),
    "chest": _("treasure chest"),
    "gold3": MARKER_NAMES["gold3"],
    "gold5": MARKER_NAMES["gold5"],
    "track_end": _("end of a track"),
    "repel_gold": MARKER_NAMES["repel_gold"],
    "post_gold": MARKER_NAMES["post_gold"],
    "final": _("final scoring"),
}


def marker_name(marker: str) -> str:
    if marker.startswith("ap2_"):
        return MARKER_NAMES[marker] % {"action": ACTION_NAMES[marker.removeprefix("ap2_")]}
    return str(MARKER_NAMES[marker])


def tile_name(tile: str) -> str:
    """A general landscape tile by its shape ("3L"), or a village tile ("V2")."""
    if tile.startswith("V"):
        return _("village tile %(size)s") % {"size": tile[1:]}
    return _("landscape tile %(shape)s") % {"shape": tile}


def field_name(field: int, cols: int) -> str:
    """A field as on a chess board: column letter, row number ("C7")."""
    return cell_name(*divmod(field, cols))


def cell_name(row: int, col: int) -> str:
    """The field in ``row`` and ``col`` (from 0) as the map labels it ("C7")."""
    return f"{chr(ord('A') + col)}{row + 1}"


def island_name(island: int) -> str:
    return _("island %(number)s") % {"number": island + 1}


def vp(n: int) -> str:
    return ngettext("%(count)d VP", "%(count)d VP", n) % {"count": n}


def gold(n: int) -> str:
    return ngettext("%(count)d gold", "%(count)d gold", n) % {"count": n}


def ap(n: int) -> str:
    return ngettext("%(count)d AP", "%(count)d AP", n) % {"count": n}
