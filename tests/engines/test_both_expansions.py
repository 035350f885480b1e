"""Both expansions together (``edition="both"``): where the German rulebook joins them.

"2. Erweiterung: DIE ADLIGEN", Spielvorbereitung: the Nobles' eight buildings are laid out
"zusätzlich zu den anderen 23 verschiedenen Gebäuden (vom Basis-Spiel oder auch gemischt mit
denen der 1. Erweiterung)"; the Land office's and the Hunting lodge's notes name the forest.
Where the text is silent the engine's readings are those of ``docs/engine.md``.
"""

from __future__ import annotations

import json

import pytest

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import COFFEE, CORN, INDIGO, TOBACCO, IllegalAction
from games.engines.puerto_rico.actions import (
    BUY_PLANTATION,
    FOREST,
    PASS,
    Build,
    DiscardPlantation,
    MoveGuest,
)
from games.engines.puerto_rico.data import BUILDINGS, DRAFT_SPACES

from .positions import ANNA, BOB, choose, play, player, position
from .test_nobles import noble_player, rejects

BOTH = {"edition": "both"}
NOBLES_BUILDINGS = {name for name, b in BUILDINGS.items() if b.expansion == "nobles"}


def both_position(players: list[dict], *, forests: dict[int, list[int]] | None = None, **kw):
    """A position after the draft, in the role phase; ``forests``: per seat the plantation
    kinds lying face down as forests."""
    state = position(players, options=BOTH, **kw)
    state.phase = "role"
    for seat, kinds in (forests or {}).items():
        pl = state.players[seat]
        pl.forests = len(kinds)
        for k in kinds:
            pl.forest_kinds[k] += 1
    return state


def test_the_nobles_buildings_lie_out_besides_the_draft():
    """ "Die 8 neuen Gebäude werden zusätzlich zu den anderen 23 verschiedenen Gebäuden …
    ausgelegt": they are on the board from the start and never drafted."""
    for n in pr.PLAYER_COUNTS:
        state = pr.new_game(n, 3, BOTH)
        assert state.phase == "draft" and state.noble_ship == 1
        on_board = {name for name in state.buildings if BUILDINGS[name].expansion != "base"}
        assert on_board == NOBLES_BUILDINGS
        copies = {name: state.buildings[name] for name in NOBLES_BUILDINGS}
        small = 1 if n == 2 else 2
        assert copies == {name: 1 if name == "royal_garden" else small for name in copies}
        assert not {a.building for a in pr.legal_actions(state)} & NOBLES_BUILDINGS
    for name in sorted(NOBLES_BUILDINGS):
        assert rejects_draft(pr.new_game(3, 3, BOTH), name) == "not_in_draft"


def rejects_draft(state: pr.State, name: str) -> str:
    try:
        pr.check(state, pr.Draft(name))
    except IllegalAction as refused:
        return refused.code
    return "accepted"


def test_a_drafted_game_has_every_kind_of_building_and_the_nobles():
    state = pr.new_game(4, 5, BOTH)
    while state.phase == "draft":
        state = play(state, pr.legal_actions(state)[0])
    assert len(state.drafted) == sum(DRAFT_SPACES.values())
    assert set(state.buildings) >= NOBLES_BUILDINGS
    assert state.phase == "role" and state.noble_supply == 19


def test_grundbuchamt_mit_forsthaus_darf_die_neue_plantage_als_wald_ablegen():
    """ "Besitzt man neben dem Grundbuchamt auch das Forsthaus, darf man die neue Plantage auch
    als Wald ablegen." The owner has seen the tile, as with the hacienda."""
    state = both_position(
        [
            player(doubloons=2, city={"land_office": 1, "forest_house": 1}),
            player(),
            player(),
        ],
        stack=["indigo", "coffee"],  # coffee on top
    )
    state = choose(state, "trader")
    state = play(state, BUY_PLANTATION)
    assert state.current == ANNA and set(pr.legal_actions(state)) == {FOREST, PASS}
    log: list[dict] = []
    state = play(state, FOREST, log=log)
    anna = state.players[ANNA]
    assert (anna.tiles[COFFEE], anna.forests, anna.forest_kinds[COFFEE]) == (0, 1, 1)
    assert log == [{"event": "forest", "seat": ANNA, "tile": None}]  # the others have not seen it
    assert "forest_kinds" not in pr.player_view(state, BOB)["players"][ANNA]
    assert state.current == BOB  # nothing to sell: the turn is over


def test_the_bought_plantation_is_seen_only_by_its_buyer_with_a_forest_house():
    """The Land office's tile, like the hacienda's, may become a forest: until the buyer's turn
    ends (or a guest stands on it) the others see a face-down tile; then it lies face up."""
    state = both_position(
        [
            player(doubloons=2, goods={"corn": 1}, city={"land_office": 1, "forest_house": 1}),
            player(),
            player(),
        ],
        stack=["indigo", "coffee"],
    )
    log: list[dict] = []
    state = play(choose(state, "trader"), BUY_PLANTATION, log=log)
    assert log == [{"event": "land_office_buy", "seat": ANNA, "tile": None}]
    assert pr.player_view(state, BOB)["players"][ANNA]["island"] == {}
    state = play(state, pr.Sell(CORN), log=log)
    assert log[-1] == {"event": "drawn_shown", "seat": ANNA, "tile": "coffee"}
    assert pr.player_view(state, BOB)["players"][ANNA]["island"]["coffee"]["tiles"] == 1


def test_a_guest_moved_onto_the_drawn_tile_shows_it():
    """A piece stands only on a tile lying face up: the guest shows the drawn tile, and a
    forest laid from it afterwards is of a kind everyone knows."""
    state = draw_for_the_forest("hacienda", {}, {}, "colonist")
    assert pr.player_view(state, BOB)["players"][ANNA]["island"] == {}
    log: list[dict] = []
    state = play(state, MoveGuest("tobacco"), log=log)
    assert {"event": "drawn_shown", "seat": ANNA, "tile": "tobacco"} in log
    assert pr.player_view(state, BOB)["players"][ANNA]["island"]["tobacco"]["tiles"] == 1
    state = play(state, FOREST, log=log)
    assert log[-1] == {"event": "forest", "seat": ANNA, "tile": "tobacco"}
    assert pr.player_view(state, BOB)["players"][ANNA]["forest_kinds"] == {"tobacco": 1}


def test_the_hunting_lodge_returns_a_known_forest_before_a_secret_one():
    """The forest returned lies face up on the open discard pile: of two indigo forests, one
    laid from the row and one unseen, the known one goes and the other stays a secret; with
    no known one left, the secret one goes and is shown."""
    for forests, secret_left in (([INDIGO, INDIGO], 1), ([INDIGO], 0)):
        state = both_position(
            [player(city={"hunting_lodge": 1}), player(), player()],
            forests={ANNA: forests},
            face_up=["sugar", "sugar", "tobacco", "coffee"],
        )
        state.players[ANNA].secret_forest_kinds = (0, 1, 0, 0, 0)
        state = play(choose(state, "settler"), PASS, PASS, PASS)
        log: list[dict] = []
        state = play(state, DiscardPlantation(INDIGO, "forest"), log=log)
        assert log[0]["tile"] == "indigo" and INDIGO in state.discards
        assert state.players[ANNA].secret_forest_kinds[INDIGO] == secret_left
        assert "forest_kinds" not in pr.player_view(state, BOB)["players"][ANNA]


def draw_for_the_forest(draw: str, island: dict, island_nobles: dict, guest: str) -> pr.State:
    """Anna, with an occupied forest house and a ``guest`` ("colonist" or "noble") in her
    guest house, draws a tobacco plantation with her hacienda or Land office (``draw``)."""
    city = {"forest_house": 1, draw: 1, "guest_house": 0}
    city_nobles = {}
    if guest == "noble":
        city_nobles["guest_house"] = 1
    else:
        city["guest_house"] = 1
    state = both_position(
        [
            noble_player(
                doubloons=2,
                island=island,
                island_nobles=island_nobles,
                city=city,
                city_nobles=city_nobles,
            ),
            player(),
            player(),
        ],
        face_up=["sugar", "coffee", "indigo", "corn"],
        stack=["corn", "tobacco"],  # tobacco on top
    )
    if draw == "hacienda":
        return play(choose(state, "settler"), pr.Hacienda())
    return play(choose(state, "trader"), BUY_PLANTATION)


@pytest.mark.parametrize("draw", ["hacienda", "land_office"])
def test_forest_house_noble_guest_goes_to_san_juan_as_noble(draw):
    """The drawn tile, a noble guest moved onto it, then laid as a forest: "Wälder werden
    nicht mit Kolonisten besetzt", and the piece on the tile goes to the windrose (the Land
    office's note) as what it is, a noble, still worth its VP. Also after a JSON round trip
    between the move and the forest."""
    state = draw_for_the_forest(draw, {"corn": (1, 1)}, {}, "noble")
    state = play(state, MoveGuest("tobacco", True))
    state = pr.from_json(json.loads(json.dumps(state.to_json())))
    state = play(state, FOREST)
    anna = state.players[ANNA]
    assert (anna.tiles[TOBACCO], anna.worked[TOBACCO], anna.forests) == (0, 0, 1)
    assert anna.noble_worked[TOBACCO] == 0 and not anna.noble_city
    assert (anna.san_juan, anna.noble_san_juan, anna.nobles()) == (1, 1, 1)
    assert pr.outcome(state)[ANNA].parts["nobles"] == 1
    restored = pr.from_json(json.loads(json.dumps(state.to_json())))
    assert restored.players[ANNA].noble_san_juan == 1
    assert pr.outcome(restored)[ANNA].parts["nobles"] == 1


@pytest.mark.parametrize(
    ("beside", "guest"), [("noble", "colonist"), ("colonist", "noble")], ids=str
)
def test_the_forest_sends_the_guest_on_the_drawn_tile_not_the_piece_beside_it(beside, guest):
    """A tobacco plantation worked by one kind of piece, the drawn tobacco by the guest of the
    other kind: laying the drawn tile as a forest sends the guest to San Juan, and the piece
    on the older tile keeps working."""
    island_nobles = {"tobacco": 1} if beside == "noble" else {}
    island = {"tobacco": (1, 0 if beside == "noble" else 1)}
    state = draw_for_the_forest("hacienda", island, island_nobles, guest)
    state = play(state, MoveGuest("tobacco", guest == "noble"), FOREST)
    anna = state.players[ANNA]
    assert (anna.tiles[TOBACCO], anna.worked[TOBACCO], anna.forests) == (1, 1, 1)
    assert anna.noble_worked[TOBACCO] == (beside == "noble")
    assert (anna.san_juan, anna.noble_san_juan) == (1, guest == "noble")


def test_the_bought_plantation_stays_a_plantation_without_an_occupied_forest_house():
    state = both_position(
        [player(doubloons=2, city={"land_office": 1, "forest_house": 0}), player(), player()],
        stack=["coffee"],
    )
    state = play(choose(state, "trader"), BUY_PLANTATION)
    assert state.current == BOB and state.players[ANNA].tiles[COFFEE] == 1


def test_jagdschloss_legt_auch_einen_wald_zurueck():
    """ "… eine seiner Plantagen (oder einen Wald) ersatzlos zurück auf den Ablagestapel": the
    forest goes back as the plantation it is."""
    state = both_position(
        [player(island={"corn": 1}, city={"hunting_lodge": 1}), player(), player()],
        forests={ANNA: [INDIGO, INDIGO]},
        face_up=["sugar", "sugar", "tobacco", "coffee"],
    )
    state = play(choose(state, "settler"), PASS, PASS, PASS)
    assert state.phase == "hunting_lodge"
    assert set(pr.legal_actions(state)) == {
        DiscardPlantation(CORN, "empty"),
        DiscardPlantation(INDIGO, "forest"),
        PASS,
    }
    log: list[dict] = []
    state = play(state, DiscardPlantation(INDIGO, "forest"), log=log)
    anna = state.players[ANNA]
    assert (anna.forests, anna.forest_kinds[INDIGO], anna.tiles[CORN]) == (1, 1, 1)
    assert log[0] == {
        "event": "hunting_lodge",
        "seat": ANNA,
        "tile": "indigo",
        "occupant": "forest",
    }
    assert INDIGO in state.discards


def test_the_land_office_sells_no_forest():
    """The Land office names "eine beliebige seiner Plantagen", not a forest."""
    state = both_position(
        [
            noble_player(
                island={"corn": 1}, city={"land_office": 0}, city_nobles={"land_office": 1}
            ),
            player(),
            player(),
        ],
        forests={ANNA: [INDIGO]},
    )
    state = choose(state, "trader")
    assert DiscardPlantation(INDIGO, "forest") not in pr.legal_actions(state)
    rejects(state, DiscardPlantation(INDIGO, "forest"), "no_plantation")


def test_forests_are_no_empty_spaces_for_the_hunting_lodge():
    """ "… die (eindeutig!) meisten leeren Anbaufelder": a forest fills its space."""

    def settle(forests: int) -> pr.State:
        state = both_position(
            [
                noble_player(
                    island={"corn": 2}, city={"hunting_lodge": 0}, city_nobles={"hunting_lodge": 1}
                ),
                player(island={"corn": 4}),
                player(island={"corn": 5}),
            ],
            forests={ANNA: [CORN] * forests},
        )
        return play(choose(state, "settler"), PASS, PASS, PASS)

    assert settle(1).players[ANNA].vp == 2  # 9 empty spaces against 8
    assert settle(3).players[ANNA].vp == 0  # 7 against 8


@pytest.mark.parametrize("place", ["corn", "small_market", "san_juan"])
def test_the_black_market_pays_with_a_noble_too(place):
    """ "… maximal je einen Kolonisten, einen Warenstein und einen Siegpunkt (zurück in den
    entsprechenden Vorrat)", and "Wird in dieser Regel von Kolonisten gesprochen, gilt dies
    auch für Adlige (falls mit der 2. Erweiterung gespielt wird)": a noble pays a doubloon,
    goes back to the nobles' supply and is no longer worth its VP."""
    state = both_position(
        [
            noble_player(
                doubloons=6,
                island={"corn": 1},
                island_nobles={"corn": 1} if place == "corn" else {},
                city={"black_market": 1, "small_market": 0},
                city_nobles={"small_market": 1} if place == "small_market" else {},
                san_juan_nobles=int(place == "san_juan"),
            ),
            player(),
            player(),
        ],
    )
    state = choose(state, "builder")  # harbor 8, less 1 for the builder: 7
    by_noble = Build("harbor", colonist=place, noble=True)
    assert by_noble in pr.legal_actions(state)
    rejects(state, Build("harbor", colonist=place), "no_colonist_there")
    rejects(state, Build("harbor", colonist="black_market", noble=True), "no_noble_there")
    supply = state.noble_supply
    log: list[dict] = []
    after = play(state, by_noble, log=log)
    anna = after.players[ANNA]
    assert after.noble_supply == supply + 1 and anna.nobles() == 0
    assert anna.city["small_market"] == 0 and anna.worked[CORN] == 0 and anna.san_juan == 0
    assert "harbor" in anna.city and anna.doubloons == 0
    assert pr.outcome(after)[ANNA].parts["nobles"] == 0
    assert log[0] == {
        "event": "black_market",
        "seat": ANNA,
        "colonist": place,
        "noble": True,
        "good": None,
        "vp": False,
    }
    assert pr.action_from_json(json.loads(json.dumps(pr.action_to_json(by_noble)))) == by_noble
    restored = pr.from_json(json.loads(json.dumps(after.to_json())))
    assert restored.to_json() == after.to_json()


def test_a_noble_guest_moves_as_a_noble():
    """The guest house takes "bis zu zwei Kolonisten"; a noble placed there is a guest too and
    keeps being a noble where it moves (the engine's reading)."""
    state = both_position(
        [
            noble_player(
                island={"corn": 1},
                city={"guest_house": 1, "library": 0},
                city_nobles={"guest_house": 1},
            ),
            player(),
            player(),
        ],
    )
    moves = {a for a in pr.legal_actions(state) if a.type == "move_guest"}
    assert moves == {
        MoveGuest("corn"),
        MoveGuest("library"),
        MoveGuest("corn", True),
        MoveGuest("library", True),
    }
    log: list[dict] = []
    state = play(state, MoveGuest("library", True), log=log)
    anna = state.players[ANNA]
    assert (anna.city["guest_house"], anna.city["library"]) == (1, 1)
    assert anna.noble_city == {"library": 1}
    assert log == [{"event": "guest_moved", "seat": ANNA, "to": "library", "noble": True}]
    rejects(state, MoveGuest("corn", True), "no_noble_guest")
    json = pr.action_to_json(MoveGuest("corn", True))
    assert json == {"type": "move_guest", "to": "corn", "noble": True}
    assert pr.action_from_json(json) == MoveGuest("corn", True)
