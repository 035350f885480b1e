"""The buildings as data: one row each, and each power hooked where the rulebook says it acts.

Expected numbers are those of ``shared/rules/buildings.md`` (the rulebook's table); the
powers are those of the building descriptions in the rulebook.
"""

from __future__ import annotations

import pytest

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import powers
from games.engines.puerto_rico.data import BUILDINGS, GOODS, SETUPS
from games.engines.puerto_rico.scoring import large_building_bonuses
from games.engines.puerto_rico.state import Player, RoleCard, Ship

# name: cost, VP, column, circles, copies (3-5 players), kind, large (two city spaces)
RULEBOOK_TABLE = {
    "small_indigo_plant": (1, 1, 1, 1, 4, "small_production", False),
    "small_sugar_mill": (2, 1, 1, 1, 4, "small_production", False),
    "indigo_plant": (3, 2, 2, 3, 3, "large_production", False),
    "sugar_mill": (4, 2, 2, 3, 3, "large_production", False),
    "tobacco_storage": (5, 3, 3, 3, 3, "large_production", False),
    "coffee_roaster": (6, 3, 3, 2, 3, "large_production", False),
    "small_market": (1, 1, 1, 1, 2, "violet", False),
    "hacienda": (2, 1, 1, 1, 2, "violet", False),
    "construction_hut": (2, 1, 1, 1, 2, "violet", False),
    "small_warehouse": (3, 1, 1, 1, 2, "violet", False),
    "hospice": (4, 2, 2, 1, 2, "violet", False),
    "office": (5, 2, 2, 1, 2, "violet", False),
    "large_market": (5, 2, 2, 1, 2, "violet", False),
    "large_warehouse": (6, 2, 2, 1, 2, "violet", False),
    "factory": (7, 3, 3, 1, 2, "violet", False),
    "university": (8, 3, 3, 1, 2, "violet", False),
    "harbor": (8, 3, 3, 1, 2, "violet", False),
    "wharf": (9, 3, 3, 1, 2, "violet", False),
    "guild_hall": (10, 4, 4, 1, 1, "violet", True),
    "residence": (10, 4, 4, 1, 1, "violet", True),
    "fortress": (10, 4, 4, 1, 1, "violet", True),
    "customs_house": (10, 4, 4, 1, 1, "violet", True),
    "city_hall": (10, 4, 4, 1, 1, "violet", True),
}
# Expansion I, "Die neuen Gebäude" (buildings.md): 2 of each small one, 1 of each large one.
NEW_BUILDINGS_TABLE = {
    "aqueduct": (1, 1, 1, 1, 2, "violet", False),
    "forest_house": (2, 1, 1, 1, 2, "violet", False),
    "black_market": (2, 1, 1, 1, 2, "violet", False),
    "storehouse": (3, 1, 1, 1, 2, "violet", False),
    "guest_house": (4, 2, 2, 2, 2, "violet", False),
    "trading_post": (5, 2, 2, 1, 2, "violet", False),
    "church": (5, 2, 2, 1, 2, "violet", False),
    "small_wharf": (6, 2, 2, 1, 2, "violet", False),
    "lighthouse": (7, 3, 3, 1, 2, "violet", False),
    "specialty_factory": (8, 3, 3, 1, 2, "violet", False),
    "library": (8, 3, 3, 1, 2, "violet", False),
    "union_hall": (9, 3, 3, 1, 2, "violet", False),
    "statue": (10, 8, 4, 0, 1, "violet", True),
    "cloister": (10, 4, 4, 1, 1, "violet", True),
}
# Expansion II, the Nobles (the pink Jeweler counts as a large production building).
NOBLES_TABLE = {
    "land_office": (2, 1, 1, 1, 2, "violet", False),
    "chapel": (3, 1, 1, 1, 2, "violet", False),
    "hunting_lodge": (4, 2, 2, 1, 2, "violet", False),
    "building_office": (5, 2, 2, 1, 2, "violet", False),
    "royal_supplier": (6, 2, 2, 1, 2, "violet", False),
    "villa": (7, 3, 3, 1, 2, "violet", False),
    "jeweler": (8, 3, 3, 1, 2, "large_production", False),
    "royal_garden": (10, 4, 4, 1, 1, "violet", True),
}

# Where each building's power acts, from the rulebook's building descriptions.
RULEBOOK_POWERS = {
    powers.DRAW_FACE_DOWN: {"hacienda"},
    powers.SETTLE_QUARRY: {"construction_hut"},
    powers.COLONIST_WITH_TILE: {"hospice"},
    powers.COLONIST_WITH_BUILDING: {"university"},
    powers.PRODUCTION_PAY: {"factory"},
    powers.SALE_PRICE: {"small_market", "large_market"},
    powers.SELL_SAME_KIND: {"office"},
    powers.LOADING_VP: {"harbor"},
    powers.OWN_SHIP: {"wharf"},
    powers.STORAGE_KINDS: {"small_warehouse", "large_warehouse"},
    powers.SCORING: {
        "guild_hall",
        "residence",
        "fortress",
        "customs_house",
        "city_hall",
        "cloister",
        "royal_garden",
    },
    # Expansion I (the statue has no power: its 8 VP are its row's)
    powers.LAY_FOREST: {"forest_house"},
    powers.MOVE_GUESTS: {"guest_house"},
    powers.BUILD_PAYMENT: {"black_market"},
    powers.BUILD_VP: {"church"},
    powers.EXTRA_BARRELS: {"aqueduct"},
    powers.BEST_KIND_PAY: {"specialty_factory"},
    powers.SELL_TO_SUPPLY: {"trading_post"},
    powers.CAPTAIN_START_VP: {"union_hall"},
    powers.CAPTAIN_PAY: {"lighthouse"},
    powers.LOADING_PAY: {"lighthouse"},
    powers.OWN_SHIP_MIXED: {"small_wharf"},
    powers.STORAGE_BARRELS: {"storehouse"},
    powers.DOUBLE_PRIVILEGE: {"library"},
    # Expansion II, the Nobles
    powers.RETURN_PLANTATION: {"hunting_lodge"},
    powers.EMPTIEST_ISLAND_VP: {"hunting_lodge"},
    powers.EXTRA_NOBLE: {"villa"},
    powers.BUILDING_COST: {"building_office"},
    powers.PRODUCTION_INCOME: {"chapel", "jeweler"},
    powers.PRODUCTION_VP: {"chapel"},
    powers.BUY_PLANTATION: {"land_office"},
    powers.SELL_PLANTATION: {"land_office"},
    powers.NOBLES_FOR_GOODS: {"royal_supplier"},
}


def test_each_building_is_one_row_of_the_rulebook_table():
    rows = {
        name: (b.cost, b.vp, b.column, b.circles, b.copies, b.kind, b.large)
        for name, b in BUILDINGS.items()
    }
    assert rows == {**RULEBOOK_TABLE, **NEW_BUILDINGS_TABLE, **NOBLES_TABLE}
    expansions = {name: b.expansion for name, b in BUILDINGS.items()}
    assert expansions == {
        **dict.fromkeys(RULEBOOK_TABLE, "base"),
        **dict.fromkeys(NEW_BUILDINGS_TABLE, "new_buildings"),
        **dict.fromkeys(NOBLES_TABLE, "nobles"),
    }
    assert all(b.violet == (b.good is None) for b in BUILDINGS.values() if b.name != "jeweler")


def test_each_power_is_hooked_at_the_point_of_the_game_it_changes():
    hooked = {point: {h.building for h in hooks} for point, hooks in powers.HOOKS.items()}
    assert hooked == RULEBOOK_POWERS


def test_production_buildings_and_their_goods():
    goods = {b.name: GOODS[b.good] for b in BUILDINGS.values() if b.good is not None}
    assert goods == {
        "small_indigo_plant": "indigo",
        "small_sugar_mill": "sugar",
        "indigo_plant": "indigo",
        "sugar_mill": "sugar",
        "tobacco_storage": "tobacco",
        "coffee_roaster": "coffee",
    }


def _player_with(building: str, colonists: int) -> Player:
    pl = Player()
    pl.city[building] = colonists
    return pl


# The argument a point's function gets, and what the rulebook says it yields when occupied.
AMOUNTS = {
    ("factory", (5,)): 5,  # five kinds produced: 5 doubloons
    ("factory", (2,)): 1,
    ("small_market", (0,)): 1,
    ("large_market", (0,)): 2,
    ("harbor", (3,)): 1,  # 1 VP per loading, whatever the barrels
    ("small_warehouse", ()): 1,  # kinds kept whole
    ("large_warehouse", ()): 2,
    ("church", ("hospice",)): 1,  # 2nd column
    ("church", ("factory",)): 1,  # 3rd column
    ("church", ("residence",)): 2,  # 4th column
    ("church", ("small_market",)): 0,  # 1st column: nothing
    ("specialty_factory", (4,)): 3,  # one less than the best kind's barrels
    ("specialty_factory", (0,)): 0,
    ("storehouse", ()): 3,  # barrels of any kinds
}


@pytest.mark.parametrize(("building", "args", "amount"), [(*k, v) for k, v in AMOUNTS.items()])
def test_an_amount_counts_only_while_its_building_is_occupied(building, args, amount):
    point = next(p for p, hooks in powers.HOOKS.items() if building in {h.building for h in hooks})
    hooks = powers.HOOKS[point]
    assert powers.total(_player_with(building, 1), hooks, *args) == amount
    assert powers.total(_player_with(building, 0), hooks, *args) == 0
    assert powers.total(Player(), hooks, *args) == 0


@pytest.mark.parametrize(
    ("point", "building"),
    [
        (powers.DRAW_FACE_DOWN, "hacienda"),
        (powers.SETTLE_QUARRY, "construction_hut"),
        (powers.COLONIST_WITH_TILE, "hospice"),
        (powers.COLONIST_WITH_BUILDING, "university"),
        (powers.SELL_SAME_KIND, "office"),
        (powers.OWN_SHIP, "wharf"),
        (powers.LAY_FOREST, "forest_house"),
        (powers.MOVE_GUESTS, "guest_house"),
        (powers.BUILD_PAYMENT, "black_market"),
        (powers.SELL_TO_SUPPLY, "trading_post"),
        (powers.OWN_SHIP_MIXED, "small_wharf"),
        (powers.DOUBLE_PRIVILEGE, "library"),
    ],
)
def test_a_privilege_applies_only_while_its_building_is_occupied(point, building):
    hooks = powers.HOOKS[point]
    assert powers.has(_player_with(building, 1), hooks)
    assert not powers.has(_player_with(building, 0), hooks)
    assert not powers.has(_player_with("small_market", 1), hooks)


def test_end_bonuses_of_occupied_large_buildings_only():
    pl = Player()
    pl.tiles = [3, 3, 2, 1, 1, 0]  # ten island spaces: residence 5 VP
    pl.vp = 9  # customs house: 2 VP
    pl.city = {"small_indigo_plant": 1, "indigo_plant": 2, "residence": 1, "customs_house": 1}
    pl.city["guild_hall"] = 0  # unoccupied: no bonus
    pl.city["city_hall"] = 1  # three violet buildings besides itself: 4 VP
    assert large_building_bonuses(pl) == {"residence": 5, "customs_house": 2, "city_hall": 4}


def test_a_power_for_a_building_not_in_the_table_is_refused():
    with pytest.raises(ValueError, match="no building 'windmill'"):
        powers.privilege(powers.SETTLE_QUARRY, "windmill")
    with pytest.raises(ValueError, match="no building 'windmill'"):
        powers.power(powers.SCORING, "windmill")(lambda pl: 1)


def test_role_cards_and_ships_are_named_records():
    state = pr.new_game(3, seed=1)
    assert state.ships == [Ship(4, None, 0), Ship(5, None, 0), Ship(6, None, 0)]
    assert state.ships[2].capacity == 6
    assert state.roles[0] == RoleCard("settler", 0, None)
    state = pr.apply(state, pr.ChooseRole("mayor"))
    assert state.roles[1].taken_by == 0
    assert [r.role for r in state.roles] == list(SETUPS[3].roles)
