"""One example of every event the engine writes into a log, with every field it carries.

The schema in ``docs/engine.md``, the engine's property tests (each event written has exactly
these fields) and the UI's tests (each kind reads in English and German) all check against
this list.
"""

EXAMPLES = [
    {"event": "role", "seat": 0, "role": "captain", "doubloons": 2},
    {"event": "prospect", "seat": 1, "doubloons": 1},
    {"event": "hacienda", "seat": 1, "tile": "tobacco"},
    {"event": "settle", "seat": 2, "tile": "quarry", "colonist": True},
    {"event": "settle_nothing", "seat": 2},
    {"event": "plantations_drawn", "tiles": ["corn", "indigo", "sugar", "coffee"]},
    {
        "event": "colonists_arrive",
        "colonists": 5,
        "shares": [
            {"seat": 1, "colonists": 2},
            {"seat": 2, "colonists": 2},
            {"seat": 0, "colonists": 1},
        ],
    },
    {"event": "place_colonists", "seat": 1, "colonists": 3, "privilege": True, "san_juan": 1},
    {"event": "colonist_ship_filled", "colonists": 2, "needed": 4},
    {"event": "build", "seat": 0, "building": "large_market", "price": 4, "colonist": True},
    {"event": "build_nothing", "seat": 1},
    {"event": "produce", "seat": 0, "goods": {"corn": 2, "sugar": 1}, "factory": 1},
    {"event": "extra_good", "seat": 0, "good": "coffee"},
    {"event": "extra_good_declined", "seat": 0},
    {"event": "sell", "seat": 2, "good": "tobacco", "price": 4},
    {"event": "sell_nothing", "seat": 0},
    {"event": "trading_house_emptied", "goods": ["corn", "indigo", "sugar", "coffee"]},
    {
        "event": "load",
        "seat": 1,
        "good": "sugar",
        "barrels": 6,
        "capacity": 7,
        "vp": 8,
        "harbor": True,
        "captain": True,
    },
    {
        "event": "wharf",
        "seat": 2,
        "good": "indigo",
        "barrels": 3,
        "vp": 3,
        "harbor": False,
        "captain": False,
    },
    {"event": "wharf_declined", "seat": 0},
    {"event": "goods_returned", "seat": 2, "goods": {"corn": 3, "indigo": 1}},
    {"event": "ship_emptied", "capacity": 5, "good": "corn", "barrels": 5},
    {"event": "game_ends", "reason": "vp_chips"},
    # New Buildings
    {"event": "draft", "seat": 1, "building": "church", "copies": 2},
    {"event": "forest", "seat": 0, "tile": "sugar"},
    {
        "event": "black_market",
        "seat": 2,
        "colonist": "san_juan",
        "noble": False,
        "good": "indigo",
        "vp": False,
    },
    {"event": "church", "seat": 2, "vp": 1},
    {"event": "specialty_factory", "seat": 0, "doubloons": 2},
    {"event": "trading_post", "seat": 1, "good": "coffee", "price": 5},
    {"event": "union_hall", "seat": 1, "vp": 3},
    {"event": "lighthouse", "seat": 0, "doubloons": 1},
    {
        "event": "small_wharf",
        "seat": 2,
        "goods": {"corn": 2, "sugar": 1},
        "vp": 1,
        "harbor": False,
        "captain": False,
    },
    {"event": "guest_moved", "seat": 0, "to": "library", "noble": False},
    {"event": "drawn_shown", "seat": 1, "tile": "coffee"},
    # Expansion II, the Nobles
    {"event": "noble_arrives", "seat": 2},
    {"event": "noble_taken", "seat": 1},
    {"event": "villa", "seat": 0, "piece": "noble"},
    {"event": "place_nobles", "seat": 1, "nobles": 2, "san_juan": 0},
    {"event": "noble_on_ship"},
    {"event": "hunting_lodge", "seat": 1, "tile": "corn", "occupant": "colonist"},
    {"event": "hunting_lodge_declined", "seat": 1},
    {"event": "hunting_lodge_vp", "seat": 2, "vp": 2},
    {"event": "production_bonus", "seat": 0, "doubloons": 3, "vp": 1},
    {"event": "land_office_buy", "seat": 2, "tile": "coffee"},
    {"event": "land_office_sell", "seat": 0, "tile": "indigo", "occupant": "empty"},
    {"event": "royal_supplier", "seat": 1, "goods": ["corn", "sugar"], "vp": 2},
    {"event": "royal_supplier_declined", "seat": 1},
]
FIELDS = {e["event"]: set(e) for e in EXAMPLES}
"""Each kind's fields."""

UNSEEN = [
    {"event": "hacienda", "seat": 1, "tile": None},
    {"event": "land_office_buy", "seat": 2, "tile": None},
    {"event": "forest", "seat": 0, "tile": None},
]
"""The events of a tile only its drawer has seen (an occupied forest house): no ``tile``."""

NOBLE_PAID = {
    "event": "black_market",
    "seat": 1,
    "colonist": "corn",
    "noble": True,
    "good": None,
    "vp": False,
}
"""The black market paid with a noble (both expansions)."""
