"""Expansion II, "Die Adligen" (German rulebook 2011, "2. Erweiterung: DIE ADLIGEN").

The Nobles section has no worked example of its own ("Beispiel"); its rules, notes ("Hinweis")
and warnings ("Achtung") become tests named after them, then edge cases of every building.
Expected numbers come from the rulebook text in ``shared/rules/source``.
"""

from __future__ import annotations

import json

import pytest

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import COFFEE, CORN, INDIGO, SUGAR, TOBACCO, IllegalAction
from games.engines.puerto_rico.actions import (
    BUY_PLANTATION,
    PASS,
    Arrange,
    Build,
    DiscardPlantation,
    Load,
    RoyalSupplier,
    Sell,
    action_from_json,
    action_to_json,
)
from games.engines.puerto_rico.common import uses_nobles
from games.engines.puerto_rico.data import BUILDINGS, NOBLES_IN_BOX

from .positions import ANNA, BOB, CHRIS, DAVID, choose, island, play, player, position

NOBLES = {"edition": "nobles"}


def noble_player(
    *,
    island_nobles: dict[str, int] | None = None,
    city_nobles: dict[str, int] | None = None,
    san_juan_nobles: int = 0,
    **board,
) -> dict:
    """A seat's board with nobles: ``island``/``city`` count colonists, these the nobles
    (a kind in ``island_nobles`` must be in ``island``, a building in ``city``)."""
    data = player(**board)
    for kind, n in (island_nobles or {}).items():
        data["island"][kind]["nobles"] = n
    data["city_nobles"] = dict(city_nobles or {})
    data["san_juan_nobles"] = san_juan_nobles
    return data


def nobles_position(players: list[dict], **kw) -> pr.State:
    return position(players, options=NOBLES, **kw)


def rejects(state: pr.State, action, code: str) -> None:
    before = state.to_json()
    with pytest.raises(IllegalAction) as refused:
        pr.apply(state, action)
    assert refused.value.code == code
    assert state.to_json() == before


# --- Spielvorbereitung ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_spielvorbereitung_20_adlige_und_die_8_neuen_gebaeude(n):
    """ "Die 20 Adligen werden neben dem Kolonistenvorrat bereitgelegt"; no piece is counted
    out; "Zu Beginn des Spiels
    … wird immer ein Adliger anstelle eines Kolonisten auf das Kolonistenschiff gelegt"; the 8
    new buildings lie beside the others (with two players one of each, the Jeweler too)."""
    base, state = pr.new_game(n, 3), pr.new_game(n, 3, NOBLES)
    assert (state.noble_ship, state.noble_supply) == (1, NOBLES_IN_BOX - 1)
    assert state.colonist_ship == base.colonist_ship - 1
    # "… müssen weder die Kolonisten noch die Adligen zu Spielbeginn abgezählt werden": all
    # 100 of the box, the one whose place on the ship the noble takes in the supply.
    assert state.colonist_supply + state.colonist_ship == 100
    new = {name: k for name, k in state.buildings.items() if name not in base.buildings}
    small = 1 if n == 2 else 2
    assert new == {
        "land_office": small,
        "chapel": small,
        "hunting_lodge": small,
        "building_office": small,
        "royal_supplier": small,
        "villa": small,
        "jeweler": small,
        "royal_garden": 1,
    }
    assert {k: v for k, v in state.buildings.items() if k in base.buildings} == base.buildings
    assert "nobles" not in base.to_json() and base.noble_ship == 0
    assert uses_nobles(state) and uses_nobles(NOBLES) and not uses_nobles(base)


def test_an_unknown_edition_is_refused():
    with pytest.raises(ValueError, match="edition"):
        pr.new_game(4, 1, {"edition": "deluxe"})


# --- The ship's noble -------------------------------------------------------------------------


def _mayor_table() -> pr.State:
    """Three seats, Anna the mayor; the ship: 2 colonists and the noble (one piece each)."""
    state = nobles_position(
        [
            player(island={"corn": 3}),
            player(island={"corn": 3}),
            player(island={"corn": 3}),
        ],
        colonists=(20, 2),
    )
    assert state.noble_ship == 1
    return state


def test_adlige_werden_zumeist_vom_buergermeister_statt_eines_kolonisten_genommen():
    """ "Diese Adlige können dann in den Bürgermeisterphasen (zumeist vom jeweiligen
    Bürgermeister selbst) statt eines Kolonisten genommen werden." Anna takes the noble; the
    colonist she leaves goes to Chris, the last seat dealt a piece."""
    log: list[dict] = []
    state = choose(_mayor_table(), "mayor", log)
    assert {"event": "noble_arrives", "seat": CHRIS} in log
    assert [p.san_juan for p in state.players] == [1, 1, 0]
    state = play(
        state,
        Arrange(island(1), (), True, island(1), take_noble=True),
        log=log,
    )
    anna = state.players[ANNA]
    assert (anna.worked[CORN], anna.noble_worked[CORN], anna.san_juan) == (2, 1, 0)
    assert state.noble_ship == 0 and state.noble_seat is None
    assert state.players[CHRIS].san_juan == 1
    assert {"event": "noble_taken", "seat": ANNA} in log
    assert {"event": "place_nobles", "seat": ANNA, "nobles": 1, "san_juan": 0} in log
    # Bob and Chris have colonists only now.
    assert len(pr.legal_actions(state)) == 1
    rejects(state, Arrange(island(0), (), False, island(1)), "too_many_nobles")
    rejects(state, Arrange(island(1), take_noble=True), "noble_not_on_ship")


def test_das_privileg_des_buergermeisters_ist_ein_kolonist_kein_adliger():
    """The mayor's privilege stays a colonist from the supply, never a noble: "wherever the
    rules say colonist, this also means noble" does not reach it (expansions-en §4.7)."""
    state = choose(_mayor_table(), "mayor")
    colonists, nobles = state.colonist_supply, state.noble_supply
    state = play(state, Arrange(island(2), (), True))
    anna = state.players[ANNA]
    assert (anna.worked[CORN], anna.nobles()) == (2, 0)
    assert (state.colonist_supply, state.noble_supply) == (colonists - 1, nobles)


def test_the_last_seat_dealt_a_piece_must_take_the_noble():
    state = choose(_mayor_table(), "mayor")
    state = play(state, Arrange(island(2), (), True), Arrange(island(1)))
    assert state.current == CHRIS
    offered = pr.legal_actions(state)
    assert len(offered) == 1 and offered[0].take_noble
    assert offered[0] == Arrange(island(0), (), False, island(1), take_noble=True)
    rejects(state, Arrange(island(1)), "noble_must_take")
    state = play(state, offered[0])
    assert state.players[CHRIS].nobles() == 1


def test_am_ende_jeder_buergermeisterphase_ein_adliger_auf_das_kolonistenschiff():
    """ "… und am Ende jeder Bürgermeisterphase wird immer ein Adliger anstelle eines
    Kolonisten auf das Kolonistenschiff gelegt (sofern sich noch Adlige im Vorrat befinden)."""
    log: list[dict] = []
    state = choose(_mayor_table(), "mayor", log)
    while state.phase == "mayor":
        state = play(state, pr.legal_actions(state)[0], log=log)
    # Three seats, no empty circle: 3 pieces, one of them the noble.
    assert (state.noble_ship, state.colonist_ship) == (1, 2)
    assert state.noble_supply == NOBLES_IN_BOX - 2
    assert log[-2:] == [
        {"event": "noble_on_ship"},
        {"event": "colonist_ship_filled", "colonists": 2, "needed": 2},
    ]


def test_no_noble_left_the_ship_is_all_colonists():
    state = _mayor_table()
    state.noble_supply = 0
    state = choose(state, "mayor")
    while state.phase == "mayor":
        state = play(state, pr.legal_actions(state)[0])
    assert (state.noble_ship, state.colonist_ship) == (0, 3)


def test_aufgebrauchte_kolonisten_sind_keine_spielende_bedingung():
    """ "Da bei dieser Erweiterung aufgebrauchte Kolonisten/Adlige nicht mehr als Bedingung
    für das Spielende gelten …": the ship gets what is left and the game goes on."""
    state = _mayor_table()
    state.colonist_supply = 1
    log: list[dict] = []
    state = choose(state, "mayor", log)
    while state.phase == "mayor":
        state = play(state, pr.legal_actions(state)[0], log=log)
    assert (state.colonist_ship, state.colonist_supply, state.noble_ship) == (1, 0, 1)
    assert state.end_reasons == []
    assert not any(e["event"] == "game_ends" for e in log)


def test_jeder_adlige_ist_am_spielende_1_siegpunkt_wert():
    """ "Jeder eigene Adlige ist am Spielende 1 Siegpunkt wert" — wherever it stands."""
    state = pr.from_json(
        nobles_position(
            [
                noble_player(
                    island={"corn": (2, 0)},
                    island_nobles={"corn": 1},
                    city={"small_market": 0},
                    city_nobles={"small_market": 1},
                    san_juan_nobles=1,
                    vp=5,
                ),
                player(),
                player(),
            ]
        ).to_json()
    )
    table = pr.outcome(state)[ANNA]
    assert table.parts["nobles"] == 3
    assert table.score == 5 + 1 + 3  # chips, small market, nobles


def test_allgemeiner_hinweis_ein_adliger_gilt_als_kolonist():
    """ "Wird in dieser Regel von Kolonisten gesprochen, gilt dies auch für Adlige": a noble
    works a plantation and a production building, occupies a building, counts for the
    Fortress."""
    state = nobles_position(
        [
            noble_player(
                island={"indigo": (1, 0), "corn": (1, 0)},
                island_nobles={"indigo": 1},
                city={"small_indigo_plant": 0, "factory": 0, "fortress": 0},
                city_nobles={"small_indigo_plant": 1, "factory": 1, "fortress": 1},
                san_juan=1,
                san_juan_nobles=2,
            ),
            player(),
            player(),
        ]
    )
    pl = state.players[ANNA]
    assert pl.colonists() == 7  # fortress: 1 VP per three colonists, nobles included
    assert pr.outcome(state)[ANNA].parts["bonuses"] == {"fortress": 2}
    log: list[dict] = []
    state = choose(state, "craftsman", log)
    assert log[1] == {"event": "produce", "seat": ANNA, "goods": {"indigo": 1}, "factory": 0}


# --- Grundbuchamt (Land office) ---------------------------------------------------------------


def _land_office(piece: str, **board) -> pr.State:
    office = {"land_office": 0} if piece == "noble" else {"land_office": 1}
    nobles = {"land_office": 1} if piece == "noble" else {}
    return nobles_position(
        [
            noble_player(city={**office, **board.pop("city", {})}, city_nobles=nobles, **board),
            player(goods={"corn": 1}),
            player(),
        ],
        stack=["indigo", "coffee"],  # coffee on top
    )


def test_grundbuchamt_mit_kolonist_kauft_die_oberste_verdeckte_plantage_fuer_1_dublone():
    """ "… darf er entweder die oberste Plantage vom verdeckten Stapel für 1 Dublone kaufen und
    auf seine Insel legen (wenn das Grundbuchamt mit einem Kolonisten besetzt ist) …"; read as
    in addition to selling, on the same turn."""
    state = choose(_land_office("colonist", doubloons=2, goods={"sugar": 1}), "trader")
    assert BUY_PLANTATION in pr.legal_actions(state)
    assert DiscardPlantation(CORN) not in pr.legal_actions(state)
    log: list[dict] = []
    state = play(state, BUY_PLANTATION, log=log)
    anna = state.players[ANNA]
    assert anna.tiles[4] == 1 and anna.doubloons == 1
    assert state.stack == [INDIGO]
    assert log == [{"event": "land_office_buy", "seat": ANNA, "tile": "coffee"}]
    # Still her turn: she sells too, but cannot buy twice.
    assert state.current == ANNA
    assert set(pr.legal_actions(state)) == {Sell(SUGAR), PASS}
    rejects(state, BUY_PLANTATION, "land_office_used")
    state = play(state, Sell(SUGAR))
    assert state.players[ANNA].doubloons == 1 + 2 + 1  # sugar 2, trader's privilege 1


def test_land_office_buy_is_hidden_until_it_lies_open():
    """Only the number of face-down tiles is public; the bought tile lies open on the island."""
    state = choose(_land_office("colonist", doubloons=1), "trader")
    for seat in (ANNA, BOB, None):
        assert pr.player_view(state, seat)["plantations"]["stack"] == 2
    state = play(state, BUY_PLANTATION)
    assert pr.player_view(state, BOB)["players"][ANNA]["island"]["coffee"]["tiles"] == 1


def test_land_office_buy_needs_a_doubloon_a_tile_and_a_free_space():
    state = choose(_land_office("colonist"), "trader")  # no money, nothing to sell
    assert state.current == BOB
    state = _land_office("colonist", doubloons=1, island={"corn": 12})
    state = choose(state, "trader")
    assert state.current == BOB
    state = _land_office("colonist", doubloons=3)
    state.stack = []
    state = choose(state, "trader")
    assert state.current == BOB
    state = choose(_land_office("colonist", doubloons=1, goods={"corn": 1}), "trader")
    state.stack = []
    rejects(state, BUY_PLANTATION, "stack_empty")
    rejects(state, DiscardPlantation(CORN), "no_land_office_noble")


def test_grundbuchamt_mit_adligem_legt_eine_plantage_fuer_1_dublone_ab():
    """ "… oder eine beliebige seiner Plantagen für 1 Dublone auf den offenen Ablagestapel
    legen (wenn das Grundbuchamt mit einem Adligen besetzt ist). Hinweis: Befindet sich auf
    einer abgelegten Plantage ein Kolonist / Adliger, wird er auf der Windrose platziert."""
    state = _land_office(
        "noble", island={"indigo": (2, 1), "quarry": (1, 1)}, island_nobles={"indigo": 1}
    )
    state = choose(state, "trader")
    offered = set(pr.legal_actions(state))
    assert offered == {
        DiscardPlantation(INDIGO, "colonist"),
        DiscardPlantation(INDIGO, "noble"),
        PASS,
    }
    assert offered.isdisjoint({BUY_PLANTATION, DiscardPlantation(INDIGO)})
    rejects(state, DiscardPlantation(5), "not_a_plantation")  # a quarry
    rejects(state, DiscardPlantation(INDIGO, "empty"), "no_plantation")
    log: list[dict] = []
    state = play(state, DiscardPlantation(INDIGO, "noble"), log=log)
    anna = state.players[ANNA]
    assert (anna.tiles[INDIGO], anna.worked[INDIGO], anna.noble_worked[INDIGO]) == (1, 1, 0)
    assert (anna.san_juan, anna.noble_san_juan, anna.doubloons) == (1, 1, 1)
    assert state.discards[-1] == INDIGO
    assert log[0] == {
        "event": "land_office_sell",
        "seat": ANNA,
        "tile": "indigo",
        "occupant": "noble",
    }
    assert state.current == BOB  # nothing to sell: her turn is over


def test_land_office_is_used_even_when_the_trading_house_is_full():
    state = _land_office("noble", island={"corn": 1})
    state.trading_house = [CORN, INDIGO, SUGAR, TOBACCO]
    state.goods[CORN] -= 1
    state.goods[INDIGO] -= 1
    state.goods[SUGAR] -= 1
    state.goods[TOBACCO] -= 1
    state = choose(state, "trader")
    assert set(pr.legal_actions(state)) == {DiscardPlantation(CORN), PASS}


# --- Kapelle (Chapel) -------------------------------------------------------------------------


@pytest.mark.parametrize(("piece", "doubloons", "vp"), [("colonist", 1, 0), ("noble", 0, 1)])
def test_kapelle_1_dublone_mit_kolonist_oder_1_siegpunkt_mit_adligem(piece, doubloons, vp):
    """ "In jeder Aufseherphase erhält der Besitzer einer Kapelle entweder 1 Dublone (wenn sie
    mit einem Kolonisten besetzt ist) oder 1 Siegpunkt (wenn sie mit einem Adligen besetzt ist)."""
    noble = piece == "noble"
    state = nobles_position(
        [
            noble_player(
                city={"chapel": 0 if noble else 1}, city_nobles={"chapel": 1} if noble else {}
            ),
            player(city={"chapel": 0}),
            player(),
        ]
    )
    log: list[dict] = []
    state = choose(state, "craftsman", log)
    assert (state.players[ANNA].doubloons, state.players[ANNA].vp) == (doubloons, vp)
    assert {"event": "production_bonus", "seat": ANNA, "doubloons": doubloons, "vp": vp} in log
    assert state.players[BOB].doubloons == 0  # unoccupied


# --- Jagdschloss (Hunting lodge) ----------------------------------------------------------------


def test_jagdschloss_mit_kolonist_legt_am_ende_der_siedlerphase_eine_plantage_zurueck():
    """ "… darf er am Ende jeder Siedlerphase eine seiner Plantagen ersatzlos zurück auf den
    Ablagestapel legen"; its colonist goes to the windrose ("gilt auch für das Jagdschloss")."""
    state = nobles_position(
        [
            player(island={"corn": (2, 1), "quarry": 1}, city={"hunting_lodge": 1}),
            player(),
            player(),
        ],
        face_up=["sugar", "sugar", "tobacco", "coffee"],
    )
    state = choose(state, "settler")
    state = play(state, PASS, PASS, PASS)
    assert state.phase == "hunting_lodge" and state.current == ANNA
    # After every seat's turn and before the row is discarded (expansions-en §4.6).
    assert state.face_up == [SUGAR, SUGAR, TOBACCO, COFFEE]
    assert set(pr.legal_actions(state)) == {
        DiscardPlantation(CORN, "empty"),
        DiscardPlantation(CORN, "colonist"),
        PASS,
    }
    log: list[dict] = []
    state = play(state, DiscardPlantation(CORN, "colonist"), log=log)
    anna = state.players[ANNA]
    assert (anna.tiles[CORN], anna.worked[CORN], anna.san_juan) == (1, 0, 1)
    assert state.phase == "role"
    assert log[0] == {
        "event": "hunting_lodge",
        "seat": ANNA,
        "tile": "corn",
        "occupant": "colonist",
    }
    assert sorted(state.discards) == sorted([CORN, SUGAR, SUGAR, TOBACCO, COFFEE])


def test_jagdschloss_mit_adligem_2_siegpunkte_fuer_die_eindeutig_meisten_leeren_felder():
    """ "Hat er einen Adligen auf seinem Jagdschloss liegen und besitzt am Ende einer
    Siedlerphase die (eindeutig!) meisten leeren Anbaufelder, erhält er 2 Siegpunkte."""

    def settle(bob_tiles: int) -> pr.State:
        state = nobles_position(
            [
                noble_player(
                    island={"corn": 2}, city={"hunting_lodge": 0}, city_nobles={"hunting_lodge": 1}
                ),
                player(island={"corn": bob_tiles}),
                player(island={"corn": 4}),
            ]
        )
        state = choose(state, "settler")
        return play(state, PASS, PASS, PASS)

    state = settle(3)
    assert state.players[ANNA].vp == 2 and state.phase == "role"
    state = settle(2)  # a tie for the most empty spaces: nothing
    assert state.players[ANNA].vp == 0


# --- Bauamt (Building office) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("piece", "building", "price"),
    [
        ("colonist", "hospice", 4 - 1 - 1),  # builder, column 2: -1
        ("colonist", "city_hall", 10 - 1),  # column 4: nothing
        ("noble", "hospice", 4 - 1),  # nothing
        ("noble", "city_hall", 10 - 1 - 2),  # column 4: -2
    ],
)
def test_bauamt_achtung_dies_gilt_nicht_umgekehrt(piece, building, price):
    """ "Der Besitzer eines Bauamtes spart beim Bau kleiner Gebäude (1.-3. Spalte) je 1
    Dublone, wenn es mit einem Kolonisten besetzt ist. Oder er spart beim Bau großer Gebäude
    (4. Spalte) je 2 Dublonen, wenn es mit einem Adligen besetzt ist. Achtung: Dies gilt nicht
    umgekehrt!\""""
    noble = piece == "noble"
    state = nobles_position(
        [
            noble_player(
                doubloons=10,
                city={"building_office": 0 if noble else 1},
                city_nobles={"building_office": 1} if noble else {},
            ),
            player(),
            player(),
        ]
    )
    log: list[dict] = []
    state = play(choose(state, "builder"), Build(building), log=log)
    assert log[0]["price"] == price
    assert state.players[ANNA].doubloons == 10 - price


# --- Hoflieferant (Royal supplier) ------------------------------------------------------------


def _supplier(piece: str, nobles: int, goods: dict, san_juan_nobles: int = 0, **kw) -> pr.State:
    """Anna's Royal supplier with ``piece`` on it and ``nobles`` placed (on it, on the harbor,
    on corn plantations), and ``san_juan_nobles`` waiting in San Juan."""
    on_supplier = int(piece == "noble")
    on_harbor = min(1, nobles - on_supplier)
    on_corn = nobles - on_supplier - on_harbor
    return nobles_position(
        [
            noble_player(
                goods=goods,
                island={"corn": (on_corn, 0)} if on_corn else {},
                island_nobles={"corn": on_corn} if on_corn else {},
                city={"royal_supplier": 1 - on_supplier, "harbor": 1 - on_harbor},
                city_nobles={"royal_supplier": on_supplier, "harbor": on_harbor},
                san_juan_nobles=san_juan_nobles,
            ),
            player(goods={"corn": 1}),
            player(),
        ],
        **kw,
    )


@pytest.mark.parametrize("piece", ["colonist", "noble"])
def test_hoflieferant_pro_adligem_ein_warenstein_verschiedener_sorten_fuer_je_1_siegpunkt(piece):
    """ "… kann er (noch vor seiner ersten Lieferung) pro eigenem Adligen … einen Warenstein
    zurück in den Vorrat legen und sich dafür jeweils 1 Siegpunkt nehmen. Hinweis: Es spielt
    keine Rolle, ob dieses Gebäude dabei mit einem Kolonisten oder einem Adligen besetzt ist.
    Achtung: Die eingelösten Warensteine müssen alle von verschiedenen Sorten sein! Weitere
    Boni auf diese eingelösten Warensteine gibt es nicht."""
    state = choose(_supplier(piece, 2, {"corn": 3, "sugar": 1, "coffee": 1}), "captain")
    offered = pr.legal_actions(state)
    supplies = {a for a in offered if isinstance(a, RoyalSupplier)}
    assert len(supplies) == 3 + 3  # one of three kinds, or two different kinds
    rejects(state, RoyalSupplier((CORN, CORN)), "supplier_barrels")
    rejects(state, RoyalSupplier((CORN, SUGAR, 4)), "supplier_barrels")
    rejects(state, RoyalSupplier((TOBACCO,)), "no_good")
    log: list[dict] = []
    state = play(state, RoyalSupplier((CORN, SUGAR)), log=log)
    anna = state.players[ANNA]
    assert anna.vp == 2  # no harbor, no captain bonus on these
    assert (anna.goods[CORN], anna.goods[SUGAR]) == (2, 0)
    assert log[0] == {"event": "royal_supplier", "seat": ANNA, "goods": ["corn", "sugar"], "vp": 2}
    # Then her turn goes on: she loads, and the supplier is gone for this phase.
    assert state.current == ANNA
    assert not any(isinstance(a, RoyalSupplier) for a in pr.legal_actions(state))
    rejects(state, RoyalSupplier((4,)), "supplier_not_now")


def test_hoflieferant_adlige_auf_der_windrose_zaehlen_mit():
    """ "pro eigenem Adligen auf seiner Insel": the rulebook glosses the same words for the
    Hofgarten as "gleichgültig, wo sie sich befinden: auf einem Gebäude, einer Plantage oder
    der Windrose", so nobles waiting in San Juan count too. One noble placed, two waiting:
    three barrels, but not four."""
    state = _supplier(
        "colonist", 1, {"corn": 1, "sugar": 1, "tobacco": 1, "coffee": 1}, san_juan_nobles=2
    )
    state = choose(state, "captain")
    assert play(state, RoyalSupplier((CORN, SUGAR, 4))).players[ANNA].vp == 3
    rejects(state, RoyalSupplier((CORN, SUGAR, TOBACCO, 4)), "supplier_barrels")


def test_hoflieferant_nur_vor_der_ersten_lieferung():
    state = choose(_supplier("colonist", 1, {"corn": 2, "coffee": 1}), "captain")
    state = play(state, Load(CORN, 0))
    state = play(state, Load(CORN, 0))  # Bob
    assert state.current == ANNA
    rejects(state, RoyalSupplier((4,)), "supplier_not_now")


def test_hoflieferant_ohne_ladung_wird_trotzdem_gefragt():
    """A seat with no ship for its barrels still gets its supplier turn (and may decline)."""
    state = _supplier(
        "colonist", 1, {"coffee": 1}, ships=[("corn", 4), ("sugar", 5), ("indigo", 6)]
    )
    state.goods[CORN] -= 4
    state.goods[SUGAR] -= 5
    state.goods[INDIGO] -= 6
    log: list[dict] = []
    state = choose(state, "captain", log)
    assert state.current == ANNA
    assert set(pr.legal_actions(state)) == {RoyalSupplier((4,)), PASS}
    state = play(state, PASS, log=log)
    assert {"event": "royal_supplier_declined", "seat": ANNA} in log


# --- Villa ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("nobles_left", "piece"), [(5, "noble"), (0, "colonist")])
def test_villa_ein_zusaetzlicher_adliger_direkt_aus_dem_vorrat(nobles_left, piece):
    """ "… erhält er 1 zusätzlichen Adligen direkt aus dem Vorrat (also nicht vom Schiff).
    Gibt es im Vorrat keinen Adligen mehr, erhält er von dort stattdessen einen Kolonisten."""
    state = nobles_position(
        [player(), player(island={"corn": 3}, city={"villa": 1}), player()],
        colonists=(20, 2),
    )
    state.noble_supply = nobles_left
    log: list[dict] = []
    state = choose(state, "mayor", log)
    assert not any(e["event"] == "villa" for e in log)  # not before Bob's turn
    state = play(state, pr.legal_actions(state)[0], log=log)
    assert {"event": "villa", "seat": BOB, "piece": piece} in log
    bob = state.players[BOB]
    assert bob.noble_san_juan == (1 if piece == "noble" else 0)
    assert state.noble_supply == max(0, nobles_left - 1)


# --- Juwelier (Jeweler) -----------------------------------------------------------------------


def test_juwelier_1_dublone_pro_adligem_und_grosses_produktionsgebaeude():
    """ "In jeder Aufseherphase erhält der Besitzer eines Juweliers für jeden Adligen auf seiner
    Insel 1 Dublone. Hinweis: Der Juwelier zählt als großes Produktionsgebäude (s.
    Zunfthalle)." Nobles waiting on the windrose count too, as the Hofgarten glosses "auf
    seiner Insel": two placed and three waiting give 5 doubloons."""
    state = nobles_position(
        [
            noble_player(
                island={"corn": (1, 0)},
                island_nobles={"corn": 1},
                city={"jeweler": 0, "guild_hall": 1, "small_indigo_plant": 0},
                city_nobles={"jeweler": 1},
                san_juan_nobles=3,
            ),
            player(),
            player(),
        ]
    )
    log: list[dict] = []
    state = choose(state, "craftsman", log)
    assert state.players[ANNA].doubloons == 5
    assert {"event": "production_bonus", "seat": ANNA, "doubloons": 5, "vp": 0} in log
    assert BUILDINGS["jeweler"].good is None and not BUILDINGS["jeweler"].violet
    # Guild hall: 2 VP for the jeweler (large), 1 for the small indigo plant.
    assert pr.outcome(state)[ANNA].parts["bonuses"]["guild_hall"] == 3


# --- Hofgarten (Royal garden) -----------------------------------------------------------------


def test_hofgarten_jeder_adlige_zaehlt_zwei_siegpunkte_gleichgueltig_wo():
    """ "… für jeden Adligen auf seiner Insel 1 weiteren Siegpunkt (d.h. für ihn zählt jeder
    seiner Adligen zwei Siegpunkte, gleichgültig, wo sie sich befinden: auf einem Gebäude,
    einer Plantage oder der Windrose)."""
    state = nobles_position(
        [
            noble_player(
                island={"corn": (1, 0)},
                island_nobles={"corn": 1},
                city={"royal_garden": 0, "small_market": 0},
                city_nobles={"royal_garden": 1, "small_market": 1},
                san_juan_nobles=1,
            ),
            player(),
            player(),
        ]
    )
    table = pr.outcome(state)[ANNA]
    assert table.parts["bonuses"] == {"royal_garden": 4}
    assert table.parts["nobles"] == 4
    assert table.score == 4 + 1 + 4 + 4  # buildings, nobles, royal garden


# --- JSON ---------------------------------------------------------------------------------------


def test_noble_actions_have_a_json_form():
    action = Arrange(island(1), (("chapel", 0),), False, island(0, 1), (("chapel", 1),), True)
    data = action_to_json(action)
    assert data == {
        "type": "arrange",
        "island": {"corn": 1},
        "city": {},
        "privilege": False,
        "nobles": {"island": {"indigo": 1}, "city": {"chapel": 1}},
        "take_noble": True,
    }
    for a in (action, BUY_PLANTATION, DiscardPlantation(SUGAR, "noble"), RoyalSupplier((4, 0))):
        assert action_from_json(json.loads(json.dumps(action_to_json(a)))) == a
    assert action_to_json(Arrange(island(1))) == {
        "type": "arrange",
        "island": {"corn": 1},
        "city": {},
        "privilege": False,
    }
    for bad, code in (
        ({"type": "discard_plantation", "tile": "quarry"}, "bad_tile"),
        ({"type": "discard_plantation", "tile": "corn", "occupant": "guest"}, "bad_occupant"),
        ({"type": "royal_supplier", "goods": "corn"}, "bad_goods"),
        ({"type": "arrange", "island": {}, "nobles": []}, "bad_placement"),
    ):
        with pytest.raises(IllegalAction) as refused:
            action_from_json(bad)
        assert refused.value.code == code


def test_nobles_in_a_base_game_are_refused():
    state = choose(
        position([player(island={"corn": 2}), player(), player()], colonists=(20, 3)), "mayor"
    )
    rejects(state, Arrange(island(0), (), False, island(1)), "nobles_not_in_game")


def test_the_state_json_keeps_nobles_apart_and_round_trips():
    state = nobles_position(
        [
            noble_player(
                island={"corn": (2, 1)},
                island_nobles={"corn": 1},
                city={"chapel": 0},
                city_nobles={"chapel": 1},
                san_juan=1,
                san_juan_nobles=1,
            ),
            player(),
            player(),
        ]
    )
    anna = state.players[ANNA]
    assert (anna.worked[CORN], anna.city["chapel"], anna.san_juan, anna.nobles()) == (2, 1, 2, 3)
    data = state.to_json()
    assert data["players"][ANNA]["island"]["corn"] == {"tiles": 2, "colonists": 1, "nobles": 1}
    assert data["players"][ANNA]["city"] == {"chapel": 0}
    assert data["players"][ANNA]["city_nobles"] == {"chapel": 1}
    assert data["nobles"] == {"supply": NOBLES_IN_BOX - 1, "ship": 1}
    assert pr.from_json(json.loads(json.dumps(data))).to_json() == data
    assert pr.player_view(state, DAVID if state.num_players > 3 else BOB)["nobles"]["ship"] == 1
