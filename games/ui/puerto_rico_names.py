"""The names of Puerto Rico's pieces in the reader's language, one place for the whole site.

The engine names things in snake_case English (``"small_indigo_plant"``, ``"captain"``); the
board, the log and the refusals show them through these tables. The German names are those of
the German rulebook (``shared/rules/names-de.md``); the translations live in ``locale/``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

GOOD_NAMES = {
    "corn": pgettext_lazy("good", "corn"),
    "indigo": pgettext_lazy("good", "indigo"),
    "sugar": pgettext_lazy("good", "sugar"),
    "tobacco": pgettext_lazy("good", "tobacco"),
    "coffee": pgettext_lazy("good", "coffee"),
}
"""Goods, and the plantations that grow them."""

ISLAND_KIND_NAMES = {**GOOD_NAMES, "quarry": pgettext_lazy("island", "quarry")}

ROLE_NAMES = {
    "settler": pgettext_lazy("role", "settler"),
    "mayor": pgettext_lazy("role", "mayor"),
    "builder": pgettext_lazy("role", "builder"),
    "craftsman": pgettext_lazy("role", "craftsman"),
    "trader": pgettext_lazy("role", "trader"),
    "captain": pgettext_lazy("role", "captain"),
    "prospector": pgettext_lazy("role", "prospector"),
}

PHASE_NAMES = {
    "draft": pgettext_lazy("phase", "building draft"),
    "role": pgettext_lazy("phase", "choosing a role"),
    "settler": pgettext_lazy("phase", "settler phase"),
    "mayor": pgettext_lazy("phase", "mayor phase"),
    "builder": pgettext_lazy("phase", "builder phase"),
    "craftsman": pgettext_lazy("phase", "craftsman phase"),
    "trader": pgettext_lazy("phase", "trader phase"),
    "captain": pgettext_lazy("phase", "captain phase"),
    "storage": pgettext_lazy("phase", "storage"),
    "hunting_lodge": pgettext_lazy("phase", "hunting lodge"),
    "guests": pgettext_lazy("phase", "guest window"),
    "over": pgettext_lazy("phase", "game over"),
}

BUILDING_NAMES = {
    "small_indigo_plant": pgettext_lazy("building", "small indigo plant"),
    "small_sugar_mill": pgettext_lazy("building", "small sugar mill"),
    "indigo_plant": pgettext_lazy("building", "indigo plant"),
    "sugar_mill": pgettext_lazy("building", "sugar mill"),
    "tobacco_storage": pgettext_lazy("building", "tobacco storage"),
    "coffee_roaster": pgettext_lazy("building", "coffee roaster"),
    "small_market": pgettext_lazy("building", "small market"),
    "hacienda": pgettext_lazy("building", "hacienda"),
    "construction_hut": pgettext_lazy("building", "construction hut"),
    "small_warehouse": pgettext_lazy("building", "small warehouse"),
    "hospice": pgettext_lazy("building", "hospice"),
    "office": pgettext_lazy("building", "office"),
    "large_market": pgettext_lazy("building", "large market"),
    "large_warehouse": pgettext_lazy("building", "large warehouse"),
    "factory": pgettext_lazy("building", "factory"),
    "university": pgettext_lazy("building", "university"),
    "harbor": pgettext_lazy("building", "harbor"),
    "wharf": pgettext_lazy("building", "wharf"),
    "guild_hall": pgettext_lazy("building", "guild hall"),
    "residence": pgettext_lazy("building", "residence"),
    "fortress": pgettext_lazy("building", "fortress"),
    "customs_house": pgettext_lazy("building", "customs house"),
    "city_hall": pgettext_lazy("building", "city hall"),
    # Expansion I, "Die neuen Gebäude"
    "aqueduct": pgettext_lazy("building", "aqueduct"),
    "forest_house": pgettext_lazy("building", "forest house"),
    "black_market": pgettext_lazy("building", "black market"),
    "storehouse": pgettext_lazy("building", "storehouse"),
    "guest_house": pgettext_lazy("building", "guest house"),
    "trading_post": pgettext_lazy("building", "trading post"),
    "church": pgettext_lazy("building", "church"),
    "small_wharf": pgettext_lazy("building", "small wharf"),
    "lighthouse": pgettext_lazy("building", "lighthouse"),
    "specialty_factory": pgettext_lazy("building", "specialty factory"),
    "library": pgettext_lazy("building", "library"),
    "union_hall": pgettext_lazy("building", "union hall"),
    "statue": pgettext_lazy("building", "statue"),
    "cloister": pgettext_lazy("building", "cloister"),
    # Expansion II, the Nobles
    "land_office": pgettext_lazy("building", "land office"),
    "chapel": pgettext_lazy("building", "chapel"),
    "hunting_lodge": pgettext_lazy("building", "hunting lodge"),
    "building_office": pgettext_lazy("building", "building office"),
    "royal_supplier": pgettext_lazy("building", "royal supplier"),
    "villa": pgettext_lazy("building", "villa"),
    "jeweler": pgettext_lazy("building", "jeweler"),
    "royal_garden": pgettext_lazy("building", "royal garden"),
}
"""Every building of the base game and the expansions."""

PLACE_NAMES = {
    "san_juan": pgettext_lazy("place", "San Juan"),
    "forest": pgettext_lazy("island", "forest"),
}
"""Places that are neither an island kind nor a building."""

OCCUPANT_NAMES = {
    "empty": pgettext_lazy("occupant", "empty"),
    "colonist": pgettext_lazy("occupant", "colonist"),
    "noble": pgettext_lazy("occupant", "noble"),
    "forest": pgettext_lazy("occupant", "laid as a forest"),
}
"""What stands on a plantation the Nobles' Land office or Hunting lodge gives up ("forest":
the plantation lies face down, both expansions)."""

END_REASON_NAMES = {
    "colonists": pgettext_lazy("end", "the colonist supply ran short"),
    "city": pgettext_lazy("end", "a city's 12th space was filled"),
    "vp_chips": pgettext_lazy("end", "the VP chips ran out"),
}

EDITION_NAMES = {
    "base": pgettext_lazy("edition", "base game"),
    "new_buildings": pgettext_lazy("edition", "New Buildings"),
    "nobles": pgettext_lazy("edition", "Nobles"),
    "both": pgettext_lazy("edition", "New Buildings and Nobles"),
}
"""The game's editions (option ``edition``): the base game and its expansions."""

OUTCOME_PARTS = {
    "chips": _("VP chips"),
    "buildings": _("Buildings"),
    "bonuses": _("Large building bonuses"),
    **BUILDING_NAMES,
    "nobles": _("Nobles (1 VP each)"),
    "doubloons_and_goods": _("tie-break: doubloons + goods"),
}
"""The label of each part of a seat's final score, of each building whose bonus is one, and
of the tie-break (``engines.puerto_rico.outcome``), in the order the final table shows them."""

OPTION_CHOICE_NAMES = {"edition": EDITION_NAMES}
"""The words of an option's choices in the new-game form, where the value is a name."""

OPTION_TEXTS = {
    "hidden_vp": (
        pgettext_lazy("option", "Hidden VP chips"),
        pgettext_lazy(
            "option", "VP chips lie face down: nobody sees another player's VP until the end."
        ),
    ),
    "vp_chips": (
        pgettext_lazy("option", "VP chips with five players"),
        pgettext_lazy("option", "122 (first edition) or 126 (2011 edition)."),
    ),
    "edition": (
        pgettext_lazy("option", "Expansions"),
        pgettext_lazy(
            "option",
            "The base game, or with the New Buildings (the violet buildings are drafted "
            "before the first round), the Nobles, or both.",
        ),
    ),
}
"""The label and help of each option of the new-game form (``engines.puerto_rico.OPTIONS``)."""


def doubloons(count: int) -> str:
    """An amount of money: "1 doubloon", "3 Dublonen"."""
    return ngettext("%(count)d doubloon", "%(count)d doubloons", count) % {"count": count}


GOOD_LETTERS = {
    "corn": pgettext_lazy("good letter", "C"),
    "indigo": pgettext_lazy("good letter", "I"),
    "sugar": pgettext_lazy("good letter", "S"),
    "tobacco": pgettext_lazy("good letter", "T"),
    "coffee": pgettext_lazy("good letter", "Cf"),
    "quarry": pgettext_lazy("good letter", "Q"),
}
FOREST_LETTER = pgettext_lazy("forest letter", "F")
"""The letter on a forest (New Buildings), a tile drawn in its own pattern."""
"""The letter on a drawn barrel or island tile, so that colour never carries a kind alone."""
