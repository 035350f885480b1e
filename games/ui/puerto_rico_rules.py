"""Short rule texts of Puerto Rico's roles, buildings and components, in the reader's language.

Written for this site from the rulebooks (``shared/rules/source``): what a piece does, in a
sentence or two, for the board's help (hover, focus or tap) and the rules page. German in "du",
names as in ``shared/rules/names-de.md``. The expansions add their rows to the same tables:
the New Buildings' and the Nobles' buildings to ``BUILDING_RULES`` (the rules page groups
buildings by ``Building.expansion``), forests, nobles and guests to ``COMPONENT_RULES``.
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import pgettext_lazy

from games.engines.puerto_rico.data import BASE, BUILDINGS, GOODS, NEW_BUILDINGS, NOBLES
from games.ui.puerto_rico_names import BUILDING_NAMES, GOOD_NAMES, ROLE_NAMES

ROLE_RULES = {
    "settler": pgettext_lazy(
        "rule",
        "In turn, everyone may take one face-up plantation onto a free island space. "
        "Privilege: the settler may take a quarry instead. The rest are then discarded and "
        "new ones turned up.",
    ),
    "mayor": pgettext_lazy(
        "rule",
        "The colonists on the colonist ship are shared out one by one, the mayor first; then "
        "everyone places all their colonists anew. Privilege: the mayor takes one more from "
        "the supply. The ship is refilled with one colonist per empty building circle, at "
        "least one per player.",
    ),
    "builder": pgettext_lazy(
        "rule",
        "In turn, everyone may build one building: its cost less one doubloon per occupied "
        "quarry (at most the building's column). Privilege: the builder pays one doubloon "
        "less. No city holds the same building twice.",
    ),
    "craftsman": pgettext_lazy(
        "rule",
        "Everyone produces: corn from each occupied corn plantation, the other goods only as "
        "far as occupied plantations and occupied circles of their production building "
        "allow. Privilege: the craftsman takes one more barrel of a kind he produced.",
    ),
    "trader": pgettext_lazy(
        "rule",
        "In turn, everyone may sell one barrel to the trading house: corn 0, indigo 1, sugar "
        "2, tobacco 3, coffee 4 doubloons, each kind once in the house. Privilege: the trader "
        "gets one doubloon more.",
    ),
    "captain": pgettext_lazy(
        "rule",
        "In turn, everyone must load goods onto the cargo ships until nobody can: 1 VP per "
        "barrel. Privilege: the captain gets 1 VP more for his first load. Then everyone keeps "
        "one barrel (more with a warehouse); the rest go back.",
    ),
    "prospector": pgettext_lazy(
        "rule", "No phase: whoever takes it gets one doubloon from the bank."
    ),
}

PRODUCTION_RULE = pgettext_lazy(
    "rule",
    "Production building: in the craftsman phase each occupied circle turns the crop of one "
    "occupied %(good)s plantation into a barrel of %(good)s.",
)
"""The rule of every production building; the expansions' pink jeweler has its own."""

BUILDING_RULES = {
    "small_market": pgettext_lazy(
        "rule", "When you sell a barrel in the trader phase, you get one doubloon more."
    ),
    "hacienda": pgettext_lazy(
        "rule",
        "In the settler phase you may first draw a plantation from the face-down stack onto "
        "your island, then take a face-up one as usual.",
    ),
    "construction_hut": pgettext_lazy(
        "rule", "In the settler phase you may take a quarry instead of a plantation."
    ),
    "small_warehouse": pgettext_lazy(
        "rule",
        "At the end of the captain phase you may keep all barrels of one kind besides the "
        "one barrel everyone keeps.",
    ),
    "hospice": pgettext_lazy(
        "rule",
        "When you take an island tile in the settler phase, a colonist from the supply comes "
        "onto it.",
    ),
    "office": pgettext_lazy(
        "rule", "In the trader phase you may also sell a kind the trading house already holds."
    ),
    "large_market": pgettext_lazy(
        "rule",
        "When you sell a barrel in the trader phase, you get two doubloons more (three with "
        "a small market too).",
    ),
    "large_warehouse": pgettext_lazy(
        "rule",
        "At the end of the captain phase you may keep all barrels of two kinds besides the "
        "one barrel everyone keeps.",
    ),
    "factory": pgettext_lazy(
        "rule",
        "When you produce two or more kinds in the craftsman phase, you get 1, 2, 3 or 5 "
        "doubloons for 2, 3, 4 or 5 kinds.",
    ),
    "university": pgettext_lazy(
        "rule", "When you build a building, a colonist from the supply comes onto it."
    ),
    "harbor": pgettext_lazy(
        "rule", "Each time you load goods in the captain phase, you get one VP more."
    ),
    "wharf": pgettext_lazy(
        "rule",
        "Once per captain phase, on your turn, you may ship all barrels of one kind on your "
        "own imaginary ship instead of a cargo ship (1 VP each).",
    ),
    "guild_hall": pgettext_lazy(
        "rule",
        "At the game's end: 1 VP for each small and 2 VP for each large production building "
        "in your city.",
    ),
    "residence": pgettext_lazy(
        "rule",
        "At the game's end: 4 VP for up to 9 filled island spaces, 5 for 10, 6 for 11, 7 for 12.",
    ),
    "fortress": pgettext_lazy(
        "rule", "At the game's end: 1 VP for every three colonists you have."
    ),
    "customs_house": pgettext_lazy(
        "rule", "At the game's end: 1 VP for every four VP of your VP chips."
    ),
    "city_hall": pgettext_lazy(
        "rule",
        "At the game's end: 1 VP for each violet building in your city, this one included.",
    ),
    # Expansion I, "The New Buildings"
    "aqueduct": pgettext_lazy(
        "rule",
        "When your indigo plant (sugar mill) produces at least one barrel, you get one "
        "indigo (sugar) more. Not for the small indigo plant or small sugar mill.",
    ),
    "forest_house": pgettext_lazy(
        "rule",
        "In the settler phase you may lay the tile you take face down as a forest (never a "
        "quarry); it is never occupied: a colonist coming with it (hospice) waits in San Juan, "
        "and so does a guest moved onto a drawn tile that was the last free one of its kind. "
        "Every two forests make each building one doubloon cheaper, occupied or not, on top "
        "of the quarries.",
    ),
    "black_market": pgettext_lazy(
        "rule",
        "When you build, you may pay one doubloon each with a colonist (with the Nobles also a "
        "noble), a barrel and a VP (at most one of each), only as far as your doubloons fall "
        "short: you have none left. A colonist paid leaves its place first: that place does "
        "nothing for this build (puerto's reading).",
    ),
    "storehouse": pgettext_lazy(
        "rule",
        "At the end of the captain phase you may keep up to three more barrels of any kinds "
        "besides the one barrel everyone keeps.",
    ),
    "guest_house": pgettext_lazy(
        "rule",
        "In the mayor phase up to two colonists may stay here as guests. Whenever you decide "
        "later (not in the mayor phase) you may move a guest to an empty circle, where it "
        "works at once until the next mayor phase. You are also asked at the start of every "
        "other phase, before storage and before the final scoring.",
    ),
    "trading_post": pgettext_lazy(
        "rule",
        "In the trader phase you may sell any one barrel to the supply instead of the "
        "trading house, at the plain price (the trader's privilege counts, the markets not).",
    ),
    "church": pgettext_lazy(
        "rule",
        "When you build a building of the 2nd or 3rd column you get 1 VP, of the 4th column 2 VP.",
    ),
    "small_wharf": pgettext_lazy(
        "rule",
        "Once per captain phase, on your turn, you may ship any barrels of any kinds on your "
        "own small ship: 1 VP for every two barrels.",
    ),
    "lighthouse": pgettext_lazy(
        "rule",
        "Each time you load goods in the captain phase you get one doubloon; as captain one "
        "more when the phase starts.",
    ),
    "specialty_factory": pgettext_lazy(
        "rule",
        "In the craftsman phase you get one doubloon less than the barrels of the kind you "
        "produced most of (corn does not count).",
    ),
    "library": pgettext_lazy(
        "rule",
        "The role you choose gives you its privilege twice: as settler a second plantation "
        "after everyone else, as craftsman two extra barrels, and so on.",
    ),
    "union_hall": pgettext_lazy(
        "rule",
        "When the captain phase starts you get 1 VP for every two barrels of one kind you "
        "have, kind by kind.",
    ),
    "statue": pgettext_lazy("rule", "Takes no colonist: 8 VP at the game's end."),
    "cloister": pgettext_lazy(
        "rule",
        "At the game's end: 1, 3, 6 or 10 VP for 1, 2, 3 or 4 sets of three identical "
        "island tiles (forests, quarries or a plantation kind).",
    ),
    # Expansion II, "The Nobles"
    "land_office": pgettext_lazy(
        "rule",
        "In the trader phase, besides selling: with a colonist, buy the top face-down "
        "plantation for 1 doubloon; with a noble, give up one of your plantations and get 1 "
        "doubloon (puerto's reading: in addition to selling, on the same turn).",
    ),
    "chapel": pgettext_lazy(
        "rule",
        "In every craftsman phase: 1 doubloon with a colonist on it, 1 VP with a noble.",
    ),
    "hunting_lodge": pgettext_lazy(
        "rule",
        "At the end of every settler phase: with a colonist, you may give up one plantation "
        "(or forest); with a noble, 2 VP if you alone have the most empty island spaces.",
    ),
    "building_office": pgettext_lazy(
        "rule",
        "With a colonist, 1 doubloon off every building of columns 1 to 3; with a noble, 2 "
        "doubloons off every large building.",
    ),
    "royal_supplier": pgettext_lazy(
        "rule",
        "On your first turn of a captain phase, before shipping: per noble you own (placed "
        "or waiting in San Juan), return one barrel of a different kind to the supply for 1 "
        "VP each.",
    ),
    "villa": pgettext_lazy(
        "rule",
        "On your first turn of a mayor phase: 1 extra noble from the supply (a colonist if "
        "none is left).",
    ),
    "jeweler": pgettext_lazy(
        "rule",
        "In every craftsman phase: 1 doubloon per noble you own (placed or waiting in San "
        "Juan). Counts as a large production building for the guild hall.",
    ),
    "royal_garden": pgettext_lazy(
        "rule",
        "At the game's end, when occupied: 1 more VP per noble you own, wherever it stands.",
    ),
}
"""The rules of the violet buildings; production buildings take ``PRODUCTION_RULE``."""

COMPONENT_RULES = {
    "island": pgettext_lazy(
        "rule",
        "Island: 12 spaces for plantations and quarries. Only an occupied tile (a colonist on "
        "its circle) works.",
    ),
    "plantation": pgettext_lazy(
        "rule",
        "An occupied plantation yields one good of its kind in the craftsman phase; all but "
        "corn also need a production building.",
    ),
    "quarry": pgettext_lazy(
        "rule",
        "An occupied quarry makes a building one doubloon cheaper, up to the building's column.",
    ),
    "city": pgettext_lazy(
        "rule",
        "City: 12 building spaces; a large building takes two. A building works only while "
        "occupied. Filling the 12th space ends the game after the round.",
    ),
    "colonist": pgettext_lazy(
        "rule",
        "A colonist on a circle occupies it: only occupied plantations, quarries and "
        "buildings work.",
    ),
    "san_juan": pgettext_lazy(
        "rule",
        "San Juan: colonists for whom no circle is free wait here until the next mayor phase.",
    ),
    "goods": pgettext_lazy(
        "rule",
        "Barrels of goods: sold in the trader phase, shipped for VP in the captain phase.",
    ),
    "doubloons": pgettext_lazy(
        "rule",
        "Doubloons pay for buildings. Each role card nobody took gets one at the end of the "
        "round, for whoever takes it next.",
    ),
    "vp": pgettext_lazy(
        "rule",
        "VP chips for shipping; with hidden VP chips nobody sees another player's. When they "
        "run out, the game ends after the round.",
    ),
    "colonist_ship": pgettext_lazy(
        "rule",
        "Brings the colonists for the next mayor phase. If the supply cannot refill it, the "
        "game ends after the round; with the Nobles, whose supply is every colonist of the "
        "box, it takes what is left and the game goes on.",
    ),
    "cargo_ship": pgettext_lazy(
        "rule",
        "A cargo ship takes one kind of goods only, and no kind goes on two ships. A full "
        "ship is emptied at the end of the captain phase.",
    ),
    "trading_house": pgettext_lazy(
        "rule",
        "Takes up to four barrels, each kind once (unless the seller has an office); full, it "
        "is emptied at the end of the trader phase.",
    ),
    "face_up": pgettext_lazy(
        "rule",
        "The settlers choose from these; after the settler phase one more than there are "
        "players are turned up.",
    ),
    "stack": pgettext_lazy(
        "rule",
        "Face-down plantations: nobody knows their order; only the hacienda draws from them.",
    ),
    "governor": pgettext_lazy(
        "rule",
        "The governor chooses the first role of the round; the card passes to the left each round.",
    ),
    "forest": pgettext_lazy(
        "rule",
        "Forest (New Buildings): a tile laid face down with the forest house. It fills an "
        "island space, is never occupied, and every two forests make buildings one doubloon "
        "cheaper. Laid from a tile drawn face down (hacienda, Land office), its kind stays "
        "its owner's secret.",
    ),
    "guest": pgettext_lazy(
        "rule",
        "Guest (New Buildings): a colonist in the guest house. Its owner may move it to an "
        "empty circle whenever he decides, outside the mayor phase.",
    ),
    "noble": pgettext_lazy(
        "rule",
        "Noble (Nobles): comes on the colonist ship, taken instead of a colonist and placed "
        "like one; worth 1 VP at the game's end. Some buildings do more with a noble on them.",
    ),
    "draft": pgettext_lazy(
        "rule",
        "Building draft (New Buildings): before the first round everyone in turn, the start "
        "player first, puts one violet building on a free space of its cost until the 12 "
        "small and 5 large spaces are full. Always the office or the trading post, never "
        "both: while neither is drafted, the last space of cost 5 takes one of them.",
    ),
}


def building_rule(name: str) -> str:
    """What the building ``name`` does, in the reader's language."""
    good = BUILDINGS[name].good
    if good is None:
        return str(BUILDING_RULES[name])
    return PRODUCTION_RULE % {"good": GOOD_NAMES[GOODS[good]]}


COMPONENT_ORDER = (
    "governor",
    "island",
    "plantation",
    "quarry",
    "colonist",
    "san_juan",
    "city",
    "goods",
    "doubloons",
    "vp",
    "colonist_ship",
    "cargo_ship",
    "trading_house",
    "face_up",
    "stack",
    "draft",
    "forest",
    "guest",
    "noble",
)
COMPONENT_NAMES = {
    "governor": pgettext_lazy("component", "Governor"),
    "island": pgettext_lazy("component", "Island"),
    "plantation": pgettext_lazy("component", "Plantation"),
    "quarry": pgettext_lazy("component", "Quarry"),
    "colonist": pgettext_lazy("component", "Colonist"),
    "san_juan": pgettext_lazy("component", "San Juan"),
    "city": pgettext_lazy("component", "City"),
    "goods": pgettext_lazy("component", "Goods"),
    "doubloons": pgettext_lazy("component", "Doubloons"),
    "vp": pgettext_lazy("component", "VP chips"),
    "colonist_ship": pgettext_lazy("component", "Colonist ship"),
    "cargo_ship": pgettext_lazy("component", "Cargo ships"),
    "trading_house": pgettext_lazy("component", "Trading house"),
    "face_up": pgettext_lazy("component", "Face-up plantations"),
    "stack": pgettext_lazy("component", "Face-down plantations"),
    "draft": pgettext_lazy("component", "Building draft"),
    "forest": pgettext_lazy("component", "Forest"),
    "guest": pgettext_lazy("component", "Guest"),
    "noble": pgettext_lazy("component", "Noble"),
}
EXPANSION_NAMES = {
    BASE: pgettext_lazy("expansion", "Base game"),
    NEW_BUILDINGS: pgettext_lazy("expansion", "Expansion I: The New Buildings"),
    NOBLES: pgettext_lazy("expansion", "Expansion II: The Nobles"),
}
"""Headings of the rules page's building sections; the expansions add theirs."""


def rules_page() -> dict:
    """The rules page: roles, buildings by expansion and column, components."""
    roles = [{"name": capfirst(ROLE_NAMES[r]), "rule": ROLE_RULES[r]} for r in ROLE_RULES]
    sections = []
    for expansion, heading in EXPANSION_NAMES.items():
        buildings = [
            {
                "name": capfirst(BUILDING_NAMES[b.name]),
                "css": "is-violet" if b.good is None else f"good-{GOODS[b.good]}",
                "cost": b.cost,
                "vp": b.vp,
                "column": b.column,
                "circles": b.circles,
                "large": b.large,
                "rule": building_rule(b.name),
            }
            for b in sorted(BUILDINGS.values(), key=lambda b: (b.column, b.cost))
            if b.expansion == expansion
        ]
        sections.append({"heading": heading, "buildings": buildings})
    components = [{"name": COMPONENT_NAMES[c], "rule": COMPONENT_RULES[c]} for c in COMPONENT_ORDER]
    return {"roles": roles, "sections": sections, "components": components}
