"""Every worked example of the Puerto Rico rulebooks, step by step.

Expected numbers come from the rulebook texts in ``shared/rules/source`` (English ``-c`` has
the sidebars and examples; the German 2011 rulebook decides where they differ).
"""

from __future__ import annotations

import pytest

from games.engines import puerto_rico as pr
from games.engines.protocol import SeatOutcome
from games.engines.puerto_rico import (
    CORN,
    INDIGO,
    QUARRY,
    SUGAR,
    TOBACCO,
    Arrange,
    Build,
    ExtraGood,
    IllegalAction,
    Load,
    Sell,
    Wharf,
)
from games.engines.puerto_rico.actions import HACIENDA, PASS

from .positions import (
    ANNA,
    BOB,
    CHRIS,
    DAVID,
    choose,
    goods_of,
    play,
    player,
    position,
    ships_of,
)

# --- Captain ---------------------------------------------------------------------------------


def test_captain_phase_example_anna_bob_chris_david():
    """Anna is captain: 2 corn + 6 sugar; the 5- and 7-ships are empty, 3 corn on the 6-ship."""
    state = position(
        [
            player(goods={"corn": 2, "sugar": 6}),
            player(goods={"sugar": 2, "tobacco": 3}),
            player(goods={"corn": 2, "tobacco": 1}),
            player(goods={"corn": 1, "indigo": 5}),
        ],
        ships=[(None, 0), ("corn", 3), (None, 0)],
    )
    log: list[dict] = []
    state = choose(state, "captain", log)
    assert state.current == ANNA

    # Anna must load her 2 corn (on the corn ship) or all 6 sugar on the 7-ship; the 5-ship
    # would leave a sugar behind, and loading is compulsory.
    assert set(pr.legal_actions(state)) == {Load(CORN, 1), Load(SUGAR, 2)}
    with pytest.raises(IllegalAction, match="the empty ship that takes the most"):
        pr.apply(state, Load(SUGAR, 0))
    with pytest.raises(IllegalAction, match="must load"):
        pr.apply(state, PASS)
    state = play(state, Load(SUGAR, 2), log=log)
    assert state.players[ANNA].vp == 7  # 6 + 1 for the captain
    assert ships_of(state)[2] == (7, "sugar", 6)

    # Bob: 2 sugar and 3 tobacco. Sugar fills the 7-ship with 1 barrel, or the tobacco could go
    # on the empty 5-ship; he chooses the sugar.
    assert state.current == BOB
    assert set(pr.legal_actions(state)) == {Load(SUGAR, 2), Load(TOBACCO, 0)}
    state = play(state, Load(SUGAR, 2), log=log)
    assert state.players[BOB].vp == 1
    assert goods_of(state, BOB) == {"sugar": 1, "tobacco": 3}
    assert ships_of(state)[2] == (7, "sugar", 7)

    # Chris: 2 corn and 1 tobacco; she loads the tobacco on the empty 5-ship.
    assert state.current == CHRIS
    assert set(pr.legal_actions(state)) == {Load(CORN, 1), Load(TOBACCO, 0)}
    state = play(state, Load(TOBACCO, 0), log=log)
    assert state.players[CHRIS].vp == 1

    # David: 1 corn and 5 indigo; no ship for indigo, so he must load the corn.
    assert state.current == DAVID
    assert list(pr.legal_actions(state)) == [Load(CORN, 1)]
    state = play(state, Load(CORN, 1), log=log)
    assert state.players[DAVID].vp == 1
    assert ships_of(state)[1] == (6, "corn", 4)

    # Second round: Anna must load her 2 corn (no second captain's VP).
    assert state.current == ANNA
    assert list(pr.legal_actions(state)) == [Load(CORN, 1)]
    state = play(state, Load(CORN, 1), log=log)
    assert state.players[ANNA].vp == 9
    # Bob has no choice: the 3 tobacco go on the 5-ship.
    assert state.current == BOB
    assert list(pr.legal_actions(state)) == [Load(TOBACCO, 0)]
    state = play(state, Load(TOBACCO, 0), log=log)
    assert state.players[BOB].vp == 4

    # Nobody can load: Chris and David keep one barrel each, the rest goes back; Anna empties
    # the full 6- and 7-ships and the 4 tobacco stay on the 5-ship.
    assert state.phase == "role"
    assert state.current == BOB  # the next role of the round
    assert goods_of(state, ANNA) == {}
    assert goods_of(state, BOB) == {"sugar": 1}  # the barrel that did not fit on the 7-ship
    assert goods_of(state, CHRIS) == {"corn": 1}
    assert goods_of(state, DAVID) == {"indigo": 1}
    assert ships_of(state) == [(5, "tobacco", 4), (6, None, 0), (7, None, 0)]
    supply = state.to_json()["goods"]
    assert supply == {"corn": 9, "indigo": 10, "sugar": 10, "tobacco": 5, "coffee": 9}
    assert state.vp_chips == 100 - (9 + 4 + 1 + 1)

    def load(seat, good, barrels, capacity, vp, captain=False):
        return {
            "event": "load",
            "seat": seat,
            "good": good,
            "barrels": barrels,
            "capacity": capacity,
            "vp": vp,
            "harbor": False,
            "captain": captain,
        }

    assert log == [
        {"event": "role", "seat": ANNA, "role": "captain", "doubloons": 0},
        load(ANNA, "sugar", 6, 7, 7, captain=True),
        load(BOB, "sugar", 1, 7, 1),
        load(CHRIS, "tobacco", 1, 5, 1),
        load(DAVID, "corn", 1, 6, 1),
        load(ANNA, "corn", 2, 6, 2),
        load(BOB, "tobacco", 3, 5, 3),
        {"event": "goods_returned", "seat": CHRIS, "goods": {"corn": 1}},
        {"event": "goods_returned", "seat": DAVID, "goods": {"indigo": 4}},
        {"event": "ship_emptied", "capacity": 6, "good": "corn", "barrels": 6},
        {"event": "ship_emptied", "capacity": 7, "good": "sugar", "barrels": 7},
    ]


# --- Builder: quarries -------------------------------------------------------------------------

QUARRY_EXAMPLE = [
    ("construction_hut", 1),
    ("office", 3),
    ("harbor", 5),
    ("city_hall", 7),
]


def _builder_phase_for_bob(bob_doubloons: int, *, bob_is_builder: bool) -> pr.State:
    """Bob has 3 occupied quarries (and an unoccupied fourth: only occupied ones count)."""
    state = position(
        [
            player(island={"corn": 1}),
            player(doubloons=bob_doubloons, island={"quarry": (4, 3), "indigo": 1}),
            player(island={"corn": 1}),
            player(island={"indigo": 1}),
        ],
        seat=BOB if bob_is_builder else ANNA,
    )
    state = choose(state, "builder")
    if state.current == ANNA:
        state = play(state, PASS)
    assert state.current == BOB
    return state


@pytest.mark.parametrize(("building", "cost"), QUARRY_EXAMPLE)
def test_quarry_example_three_quarries_construction_hut_1_office_3_harbor_5_city_hall_7(
    building, cost
):
    state = _builder_phase_for_bob(cost, bob_is_builder=False)
    assert Build(building) in pr.legal_actions(state)
    state = play(state, Build(building))
    assert state.players[BOB].doubloons == 0
    assert building in state.players[BOB].city

    short = _builder_phase_for_bob(cost - 1, bob_is_builder=False)
    assert Build(building) not in pr.legal_actions(short)
    with pytest.raises(IllegalAction, match=f"costs you {cost} doubloons; you have {cost - 1}"):
        pr.apply(short, Build(building))


@pytest.mark.parametrize(("building", "cost"), QUARRY_EXAMPLE)
def test_quarry_example_builder_privilege_comes_on_top(building, cost):
    state = _builder_phase_for_bob(cost, bob_is_builder=True)
    state = play(state, Build(building))
    assert state.players[BOB].doubloons == 1  # one doubloon less than the quarry price


def test_quarry_example_builder_privilege_never_below_zero():
    """Construction hut 2 - 1 quarry (column 1) - 1 privilege = 0; small market 1 - 1 - 1 is 0,
    not -1: nobody is paid for building."""
    for building in ("construction_hut", "small_market"):
        state = _builder_phase_for_bob(0, bob_is_builder=True)
        assert Build(building) in pr.legal_actions(state)
        state = play(state, Build(building))
        assert state.players[BOB].doubloons == 0


# --- Craftsman ---------------------------------------------------------------------------------


def test_production_example():
    """2 corn (the 3rd corn plantation is unoccupied), 1 tobacco (the 2nd circle of the tobacco
    storage is empty), 3 sugar (the 4th sugar plantation is unoccupied; the 4th colonist in the
    sugar mills produces nothing)."""
    producer = player(
        island={"corn": (3, 2), "tobacco": (2, 2), "sugar": (4, 3)},
        city={"tobacco_storage": 1, "small_sugar_mill": 1, "sugar_mill": 3},
    )
    state = position([player(), producer, player(), player()])
    log: list[dict] = []
    state = choose(state, "craftsman", log)  # Anna produces nothing: no privilege to take
    assert state.phase == "role"
    assert goods_of(state, BOB) == {"corn": 2, "sugar": 3, "tobacco": 1}
    assert state.to_json()["goods"] == {
        "corn": 8,
        "indigo": 11,
        "sugar": 8,
        "tobacco": 8,
        "coffee": 9,
    }
    assert log[1:] == [
        {"event": "produce", "seat": ANNA, "goods": {}, "factory": 0},
        {
            "event": "produce",
            "seat": BOB,
            "goods": {"corn": 2, "sugar": 3, "tobacco": 1},
            "factory": 0,
        },
        {"event": "produce", "seat": CHRIS, "goods": {}, "factory": 0},
        {"event": "produce", "seat": DAVID, "goods": {}, "factory": 0},
    ]


def _david_with_factory(**kw) -> pr.State:
    david = player(
        island={"corn": (3, 3), "sugar": (3, 3), "tobacco": (1, 1)},
        city={"factory": 1, "sugar_mill": 3, "tobacco_storage": 1},
    )
    return position([player(), player(), player(), david], goods={"corn": 0, "sugar": 2}, **kw)


def test_factory_example_david():
    """No corn and only 2 sugar in the supply: David gets 2 sugar and 1 tobacco, and 1 doubloon
    for two kinds."""
    state = choose(_david_with_factory(), "craftsman")
    assert state.phase == "role"
    assert goods_of(state, DAVID) == {"sugar": 2, "tobacco": 1}
    assert state.players[DAVID].doubloons == 1
    assert state.to_json()["goods"]["sugar"] == 0


def test_factory_example_david_as_craftsman_takes_his_extra_barrel_only_of_tobacco():
    """The privilege barrel must be of a kind he produced now and still in the supply."""
    state = choose(_david_with_factory(seat=DAVID, governor=ANNA), "craftsman")
    assert state.current == DAVID
    assert list(pr.legal_actions(state)) == [ExtraGood(TOBACCO), PASS]
    with pytest.raises(IllegalAction, match="no sugar is left"):
        pr.apply(state, ExtraGood(SUGAR))
    with pytest.raises(IllegalAction, match="a kind the craftsman produced"):
        pr.apply(state, ExtraGood(CORN))
    state = play(state, ExtraGood(TOBACCO))
    assert goods_of(state, DAVID) == {"sugar": 2, "tobacco": 2}
    assert state.players[DAVID].doubloons == 1


# --- Harbor and wharf --------------------------------------------------------------------------


def _harbor_and_wharf() -> pr.State:
    """Bob has an occupied harbor and wharf, 5 tobacco and 2 sugar; the tobacco ship has room
    for 3, the sugar ship for more than 2. Anna is captain with nothing to load."""
    bob = player(goods={"tobacco": 5, "sugar": 2}, city={"harbor": 1, "wharf": 1})
    return choose(
        position(
            [player(), bob, player(), player()],
            ships=[("tobacco", 2), ("sugar", 1), ("corn", 3)],
        ),
        "captain",
    )


def test_harbor_and_wharf_example():
    state = _harbor_and_wharf()
    assert state.current == BOB
    assert set(pr.legal_actions(state)) == {
        Load(TOBACCO, 0),
        Load(SUGAR, 1),
        Wharf(TOBACCO),
        Wharf(SUGAR),
    }
    log: list[dict] = []
    state = play(state, Load(TOBACCO, 0), log=log)  # 3 fill the tobacco ship
    assert state.players[BOB].vp == 3 + 1
    assert state.current == BOB  # nobody else can load
    state = play(state, Load(SUGAR, 1), log=log)
    assert state.players[BOB].vp == 4 + 2 + 1
    assert list(pr.legal_actions(state)) == [Wharf(TOBACCO), PASS]
    state = play(state, Wharf(TOBACCO), log=log)
    assert state.players[BOB].vp == 7 + 2 + 1  # 3 from the harbor, 2 from the wharf
    assert state.phase == "role"
    assert goods_of(state, BOB) == {}
    # The full tobacco ship is emptied; the sugar ship (3 of 6) stays.
    assert ships_of(state) == [(5, None, 0), (6, "sugar", 3), (7, "corn", 3)]
    assert state.to_json()["goods"]["tobacco"] == 9
    assert log[-2] == {
        "event": "wharf",
        "seat": BOB,
        "good": "tobacco",
        "barrels": 2,
        "vp": 3,
        "harbor": True,
        "captain": False,
    }
    assert log[-1] == {"event": "ship_emptied", "capacity": 5, "good": "tobacco", "barrels": 5}


def test_harbor_and_wharf_example_variant_wharf_takes_all_5_tobacco():
    """Had he shipped all 5 tobacco on the wharf, the tobacco ship would not be full and would
    not be emptied."""
    state = play(_harbor_and_wharf(), Wharf(TOBACCO))
    assert state.players[BOB].vp == 5 + 1
    state = play(state, Load(SUGAR, 1))
    assert state.players[BOB].vp == 6 + 2 + 1
    assert state.phase == "role"
    assert ships_of(state) == [(5, "tobacco", 2), (6, "sugar", 3), (7, "corn", 3)]


# --- Large buildings ---------------------------------------------------------------------------


def test_guild_hall_example():
    """Small and large sugar mill, small indigo plant, coffee roaster: 1 + 2 + 1 + 2 = 6 VP."""
    state = pr.State.from_json(
        position(
            [
                player(
                    vp=10,
                    city={
                        "guild_hall": 1,
                        "small_sugar_mill": 0,
                        "sugar_mill": 1,
                        "small_indigo_plant": 0,
                        "coffee_roaster": 0,
                        "harbor": 1,
                    },
                ),
                player(),
                player(),
            ]
        ).to_json()
    )
    result = pr.outcome(state)[0]
    assert result.parts["bonuses"] == {"guild_hall": 6}
    assert result.parts["buildings"] == 4 + 1 + 2 + 1 + 3 + 3
    assert result.score == 10 + 14 + 6


def _scored(**board) -> SeatOutcome:
    state = position([player(**board), player(), player()])
    return pr.outcome(state)[0]


@pytest.mark.parametrize(("spaces", "bonus"), [(10, 5), (1, 4), (9, 4), (11, 6), (12, 7)])
def test_residence_example(spaces, bonus):
    """10 filled island spaces: 5 VP; up to nine 4, eleven 6, all twelve 7 (occupied or not)."""
    quarries = min(spaces, 4)
    result = _scored(
        island={"quarry": (quarries, 1), "coffee": spaces - quarries},
        city={"residence": 1},
    )
    assert result.parts["bonuses"] == {"residence": bonus}
    assert result.score == 4 + bonus


def test_fortress_example():
    """20 colonists on plantations, quarries, buildings and in San Juan: 6 VP."""
    result = _scored(
        island={"corn": (3, 3), "sugar": (4, 4), "quarry": (2, 2)},
        city={"fortress": 1, "sugar_mill": 3, "small_sugar_mill": 1},
        san_juan=6,
    )
    assert result.parts["bonuses"] == {"fortress": 6}
    one = _scored(city={"fortress": 1}, island={"corn": (2, 2)})
    assert one.parts["bonuses"] == {"fortress": 1}


def test_customs_house_example():
    """23 VP in chips: 5 VP; the buildings' VP do not count."""
    result = _scored(vp=23, city={"customs_house": 1, "harbor": 1, "wharf": 1})
    assert result.parts["bonuses"] == {"customs_house": 5}
    assert result.score == 23 + 4 + 3 + 3 + 5


def test_city_hall_example():
    """Hacienda, harbor, office, construction hut, large warehouse, residence and the city hall
    itself: 7 VP; production buildings are not violet."""
    result = _scored(
        city={
            "city_hall": 1,
            "hacienda": 0,
            "harbor": 1,
            "office": 0,
            "construction_hut": 1,
            "large_warehouse": 0,
            "residence": 0,
            "indigo_plant": 2,
        }
    )
    assert result.parts["bonuses"] == {"city_hall": 7}  # the unoccupied residence gives no bonus


def test_large_buildings_score_4_vp_each_when_not_occupied():
    result = _scored(
        city={
            "guild_hall": 0,
            "residence": 0,
            "fortress": 0,
            "customs_house": 0,
            "city_hall": 0,
        },
        vp=8,
        island={"corn": (10, 0)},
    )
    assert result.parts["bonuses"] == {}
    assert result.score == 8 + 5 * 4


# --- Mayor -----------------------------------------------------------------------------------


def test_mayor_dealing_with_four_players():
    """A ship of 6: the mayor 3 (with his privilege colonist), the second player 2, the third
    and fourth 1 each."""
    boards = [player(island={"corn": 5, "indigo": 1}) for _ in range(4)]
    state = position(boards, colonists=(20, 6))
    log: list[dict] = []
    state = choose(state, "mayor", log)
    assert [pl.san_juan for pl in state.players] == [2, 2, 1, 1]
    assert state.colonist_ship == 0
    assert log[1] == {
        "event": "colonists_arrive",
        "colonists": 6,
        "shares": [
            {"seat": ANNA, "colonists": 2},
            {"seat": BOB, "colonists": 2},
            {"seat": CHRIS, "colonists": 1},
            {"seat": DAVID, "colonists": 1},
        ],
    }

    assert state.current == ANNA
    state = play(state, Arrange((3, 0, 0, 0, 0, 0), privilege=True), log=log)
    assert state.colonist_supply == 19
    state = play(
        state,
        Arrange((2, 0, 0, 0, 0, 0)),
        Arrange((1, 0, 0, 0, 0, 0)),
        Arrange((0, 1, 0, 0, 0, 0)),
        log=log,
    )
    assert [pl.colonists() for pl in state.players] == [3, 2, 1, 1]
    assert [pl.san_juan for pl in state.players] == [0, 0, 0, 0]
    # No empty building circles anywhere: the minimum, one per player, boards the ship.
    assert state.colonist_ship == 4
    assert state.colonist_supply == 15
    assert log[2] == {
        "event": "place_colonists",
        "seat": ANNA,
        "colonists": 3,
        "privilege": True,
        "san_juan": 0,
    }
    assert log[-1] == {"event": "colonist_ship_filled", "colonists": 4, "needed": 4}


# --- Trader ----------------------------------------------------------------------------------


def test_office_example_bob_and_chris_sell_tobacco():
    """A tobacco is in the trading house; Bob and Chris, each with an occupied office, both sell
    tobacco; David without an office may not."""
    state = position(
        [
            player(),
            player(goods={"tobacco": 2}, city={"office": 1}),
            player(goods={"tobacco": 1}, city={"office": 1}),
            player(goods={"tobacco": 1, "corn": 1}),
        ],
        trading_house=["tobacco"],
    )
    state = choose(state, "trader")  # Anna has nothing to sell
    assert state.current == BOB
    state = play(state, Sell(TOBACCO))
    assert state.players[BOB].doubloons == 3
    assert state.current == CHRIS
    state = play(state, Sell(TOBACCO))
    assert state.players[CHRIS].doubloons == 3
    assert state.to_json()["trading_house"] == ["tobacco"] * 3
    assert state.current == DAVID
    assert list(pr.legal_actions(state)) == [Sell(CORN), PASS]
    with pytest.raises(IllegalAction, match="already has tobacco"):
        pr.apply(state, Sell(TOBACCO))
    state = play(state, Sell(CORN))
    # The trading house is full: the trader empties it.
    assert state.to_json()["trading_house"] == []
    assert state.to_json()["goods"]["tobacco"] == 9 - 1 - 1  # Bob and David keep one each
    assert state.to_json()["goods"]["corn"] == 10


def test_office_is_no_use_when_the_trading_house_is_full():
    state = position(
        [player(goods={"indigo": 1}), player(goods={"tobacco": 1}, city={"office": 1}), player()],
        trading_house=["corn", "sugar", "tobacco"],
    )
    state = choose(state, "trader")
    state = play(state, Sell(INDIGO))
    assert state.phase == "role"  # Bob was never asked
    assert goods_of(state, BOB) == {"tobacco": 1}


def test_small_market_example_corn_for_1():
    """Anna (not the trader) sells a corn with an occupied small market: 1 doubloon."""
    state = position(
        [player(goods={"corn": 1}, city={"small_market": 1}), player(), player(), player()],
        seat=BOB,
        governor=ANNA,
    )
    log: list[dict] = []
    state = choose(state, "trader", log)
    assert state.current == ANNA
    state = play(state, Sell(CORN), log=log)
    assert state.players[ANNA].doubloons == 1
    assert log[-1] == {"event": "sell", "seat": ANNA, "good": "corn", "price": 1}


def test_large_and_small_market_stack_3():
    """Both markets: 3 extra doubloons; as trader one more."""
    markets = {"small_market": 1, "large_market": 1}
    state = position(
        [
            player(goods={"indigo": 1}, city=markets),
            player(goods={"indigo": 1}, city=markets),
            player(goods={"sugar": 1}),
        ]
    )
    state = choose(state, "trader")
    state = play(state, Sell(INDIGO))
    assert state.players[ANNA].doubloons == 1 + 3 + 1
    assert state.current == CHRIS  # Bob's indigo is in the trading house already
    state = position(
        [player(goods={"indigo": 1}), player(goods={"indigo": 1}, city=markets), player()]
    )
    state = play(choose(state, "trader"), PASS, Sell(INDIGO))
    assert state.players[BOB].doubloons == 1 + 3


def test_large_market_alone_2_extra():
    state = position([player(goods={"coffee": 1}, city={"large_market": 1}), player(), player()])
    state = play(choose(state, "trader"), Sell(pr.COFFEE))
    assert state.players[ANNA].doubloons == 4 + 2 + 1


# --- Prospector and the round ------------------------------------------------------------------


def test_prospector_with_2_doubloons_gets_3():
    state = position(
        [player(), player(), player(), player()], role_doubloons={"prospector": 2, "mayor": 1}
    )
    log: list[dict] = []
    state = choose(state, "prospector", log)
    assert state.players[ANNA].doubloons == 3
    assert state.roles[-1][1] == 0
    assert state.phase == "role" and state.current == BOB
    assert log == [
        {"event": "role", "seat": ANNA, "role": "prospector", "doubloons": 2},
        {"event": "prospect", "seat": ANNA, "doubloons": 1},
    ]


def test_settler_with_hacienda_takes_only_one_quarry():
    """'If the settler owns a hacienda, he may only take one quarry': the face-down tile is a
    plantation, and the privilege quarry comes instead of the face-up tile."""
    state = position(
        [
            player(island={"corn": 1}, city={"hacienda": 1, "construction_hut": 1}),
            player(),
            player(),
        ],
        stack=["coffee", "sugar"],
        face_up=["corn", "indigo", "indigo", "tobacco"],
    )
    state = choose(state, "settler")
    state = play(state, HACIENDA)
    assert state.players[ANNA].tiles[pr.ISLAND_KINDS.index("sugar")] == 1  # top of the stack
    assert state.current == ANNA
    assert HACIENDA not in pr.legal_actions(state)
    state = play(state, pr.Settle(QUARRY))
    assert state.players[ANNA].tiles[QUARRY] == 1
    assert state.current == BOB
