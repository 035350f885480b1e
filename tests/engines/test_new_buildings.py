"""Expansion I, "Die neuen Gebäude": the draft, forests and the 14 buildings.

The worked examples of the German rulebook (``shared/rules/source``, p. 12 ff.) are named after
them; the other tests are the edge cases of each building's text. The readings the engine
takes where the text is silent are in ``docs/engine.md`` (*The New Buildings*).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import (
    CORN,
    INDIGO,
    QUARRY,
    SUGAR,
    TOBACCO,
    Build,
    IllegalAction,
    draft,
    guests,
)
from games.engines.puerto_rico.actions import (
    FOREST,
    HACIENDA,
    PASS,
    Arrange,
    Draft,
    ExtraGood,
    Load,
    MoveGuest,
    Sell,
    Settle,
    SmallWharf,
    Store,
)
from games.engines.puerto_rico.common import uses_new_buildings
from games.engines.puerto_rico.data import BASE, BUILDINGS, DRAFT_SPACES
from games.engines.puerto_rico.data import NEW_BUILDINGS as EXP_I
from games.engines.puerto_rico.view import moderator_view

from .positions import ANNA, BOB, CHRIS, choose, goods_of, play, player, position

NEW = {"edition": "new_buildings"}


def nb_position(players: list[dict], *, forests: dict[int, int] | None = None, **kw) -> pr.State:
    """A New Buildings position after the draft, in the role phase (see ``position``)."""
    state = position(players, options=NEW, **kw)
    state.phase = "role"
    for seat, n in (forests or {}).items():
        state.players[seat].forests = n
    return state


def refused(state: pr.State, action: pr.Action) -> str:
    with pytest.raises(IllegalAction) as error:
        pr.check(state, action)
    return error.value.code


# The edition option -------------------------------------------------------------------------


def test_the_edition_option_and_its_predicate():
    option = next(o for o in pr.OPTIONS if o["name"] == "edition")
    assert option["choices"] == ("base", "new_buildings", "nobles", "both")
    assert option["default"] == "base"
    assert pr.new_game(3, 1).phase == "role"
    assert not uses_new_buildings(pr.new_game(3, 1))
    assert uses_new_buildings(pr.new_game(3, 1, NEW))
    assert uses_new_buildings({"edition": "both"}) and not uses_new_buildings({})
    with pytest.raises(ValueError):
        pr.new_game(3, 1, {"edition": "deluxe"})


def test_the_base_game_has_no_new_building_on_the_board():
    board = pr.new_game(4, 1).buildings
    assert {BUILDINGS[b].expansion for b in board} == {"base"}


# The draft ----------------------------------------------------------------------------------


def test_the_draft_starts_with_production_buildings_only_and_the_start_player():
    state = pr.new_game(3, 5, NEW)
    assert state.phase == "draft" and pr.current_player(state) == 0
    assert all(not BUILDINGS[b].violet for b in state.buildings)
    offered = {a.building for a in pr.legal_actions(state)}
    # 17 violet kinds of the base game and 14 of Expansion I: 55 tiles with the twins.
    assert len(offered) == 31
    assert sum(BUILDINGS[b].copies for b in offered) == 55
    assert refused(state, pr.ChooseRole("settler")) == "draft_expected"
    assert refused(state, Draft("indigo_plant")) == "not_in_draft"


def test_draft_example_church_on_the_offices_space():
    """ "Ein Spieler legt die Kirche auf die Fläche des Kontors. Später legt ein Spieler das
    Kontor auf die zweite freie 5er-Fläche. Die gr. Markthalle und der Handelsposten können nun
    nicht mehr ausgewählt werden.\""""
    state = pr.new_game(3, 5, NEW)
    log: list[dict] = []
    state = play(state, Draft("church"), Draft("office"), log=log)
    assert log == [
        {"event": "draft", "seat": 0, "building": "church", "copies": 2},
        {"event": "draft", "seat": 1, "building": "office", "copies": 2},
    ]
    assert pr.current_player(state) == 2
    assert refused(state, Draft("large_market")) == "no_draft_space"
    assert refused(state, Draft("trading_post")) == "no_draft_space"
    offered = {a.building for a in pr.legal_actions(state)}
    assert not offered & {"large_market", "trading_post", "church", "office"}
    assert refused(state, Draft("church")) == "already_drafted"


def test_office_and_trading_post_are_never_both_drafted():
    state = play(pr.new_game(4, 5, NEW), Draft("trading_post"))
    assert refused(state, Draft("office")) == "office_or_trading_post"
    assert Draft("large_market") in pr.legal_actions(state)


def test_immer_entweder_das_kontor_oder_den_handelsposten_im_spiel():
    """ "Es wird dringend empfohlen, immer entweder das Kontor oder den Handelsposten im Spiel
    zu haben, aber nicht beide gleichzeitig!": with one space of cost 5 left and neither
    drafted, only the two of them may take it."""
    state = play(pr.new_game(3, 5, NEW), Draft("church"))
    assert refused(state, Draft("large_market")) == "office_or_trading_post_needed"
    fives = {a.building for a in pr.legal_actions(state) if BUILDINGS[a.building].cost == 5}
    assert fives == {"office", "trading_post"}
    assert Draft("small_market") in pr.legal_actions(state)  # other costs are untouched
    state = play(state, Draft("office"))
    assert refused(state, Draft("trading_post")) == "no_draft_space"


@pytest.mark.parametrize(("players", "small", "large"), [(2, 1, 1), (3, 2, 1), (5, 2, 1)])
def test_the_draft_fills_12_small_and_5_large_spaces_with_twins(players, small, large):
    state = pr.new_game(players, 9, NEW)
    seats = []
    while state.phase == "draft":
        seats.append(pr.current_player(state))
        state = pr.apply(state, pr.legal_actions(state)[-1])
    assert seats == [i % players for i in range(17)]
    assert state.phase == "role" and pr.current_player(state) == 0
    violet = [b for b in state.buildings if BUILDINGS[b].violet]
    assert len(violet) == 17 == len(state.drafted)
    assert sorted(BUILDINGS[b].cost for b in violet) == sorted(
        [1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 10, 10, 10, 10]
    )
    for b in violet:
        assert state.buildings[b] == (large if BUILDINGS[b].large else small)


@pytest.mark.parametrize("seed", range(4))
def test_what_is_on_offer_free_and_legal_in_the_draft_agrees_with_check(seed):
    """At every pick of a random draft: the free spaces are the board's less the drafted
    costs; ``check`` accepts exactly the legal picks; those on offer but not legal wait for
    the Office or the Trading post, and every other violet kind is refused for its own reason.
    The church takes the first space of cost 5, so the last one waits for those two."""
    rng = random.Random(seed)
    state = play(pr.new_game(2 + seed, seed, NEW), Draft("church"))
    violet = [b.name for b in BUILDINGS.values() if b.violet and b.expansion in (BASE, EXP_I)]
    while state.phase == "draft":
        taken = Counter(BUILDINGS[b].cost for b in state.drafted)
        assert draft.free_spaces(state) == {c: n - taken[c] for c, n in DRAFT_SPACES.items()}
        legal = {a.building for a in pr.legal_actions(state)}
        on_offer = set(draft.on_offer(state))
        assert legal <= on_offer
        for name in violet:
            if name in legal:
                pr.check(state, Draft(name))
            elif name in on_offer:
                assert refused(state, Draft(name)) == "office_or_trading_post_needed"
            else:
                assert refused(state, Draft(name)) in (
                    "already_drafted",
                    "no_draft_space",
                    "office_or_trading_post",
                )
        state = pr.apply(state, Draft(rng.choice(sorted(legal))))


def test_the_draft_is_public():
    state = play(pr.new_game(3, 5, NEW), Draft("statue"), Draft("library"))
    views = [pr.player_view(state, seat) for seat in (0, 1, 2, None)]
    for view in views:
        assert view["drafted"] == ["statue", "library"]
        assert view["buildings"] == views[0]["buildings"]


# Forests and the forest house ---------------------------------------------------------------


def test_forest_house_example_4_forests_2_quarries():
    """ "Der Spieler besitzt 4 Wälder und 2 besetzte Steinbrüche … und ist selbst Baumeister;
    für den Bau des großen Lagerhauses muss er nur noch 1 Dublone bezahlen.\""""
    state = nb_position(
        [
            player(doubloons=1, island={"quarry": (2, 2)}, city={"forest_house": 0}),
            player(),
            player(),
        ],
        forests={ANNA: 4},
    )
    log: list[dict] = []
    state = play(state, pr.ChooseRole("builder"), Build("large_warehouse"), log=log)
    assert log[-1] == {
        "event": "build",
        "seat": ANNA,
        "building": "large_warehouse",
        "price": 1,
        "colonist": False,
    }
    assert state.players[ANNA].doubloons == 0


def test_forests_save_beyond_the_quarry_column_cap_and_only_by_twos():
    state = nb_position(
        [player(doubloons=9, island={"quarry": (3, 3)}), player(), player()],
        forests={ANNA: 5},
    )
    state = choose(state, "builder")
    # Hospice: cost 4, column 2: 2 quarries + 2 for five forests + 1 builder -> 0 (never below).
    assert BUILDINGS["hospice"].column == 2
    state = play(state, Build("hospice"))
    assert state.players[ANNA].doubloons == 9


def test_forest_house_lays_the_new_tile_face_down():
    state = nb_position(
        [
            player(island={"corn": 1}, city={"forest_house": 1, "hospice": 1}),
            player(),
            player(),
        ],
        face_up=["sugar", "coffee", "indigo", "corn"],
        colonists=(20, 3),
    )
    state = choose(state, "settler")
    assert Settle(SUGAR, True, True) in pr.legal_actions(state)
    assert Settle(QUARRY, False, True) not in pr.legal_actions(state)
    assert refused(state, Settle(QUARRY, False, True)) == "quarry_no_forest"
    log: list[dict] = []
    state = play(state, Settle(SUGAR, True, True), log=log)
    anna = state.players[ANNA]
    # The hospice colonist waits in San Juan: forests are never worked.
    assert (anna.forests, anna.tiles[SUGAR], anna.san_juan) == (1, 0, 1)
    assert anna.island_filled() == 2
    assert log[-2:] == [
        {"event": "settle", "seat": ANNA, "tile": "sugar", "colonist": True},
        {"event": "forest", "seat": ANNA, "tile": "sugar"},
    ]


def test_forest_house_hospice_colonist_waits_in_san_juan_beside_a_free_plantation():
    """ "Benutzt der Forsthaus-Besitzer auch … das Hospiz, platziert er den Kolonisten auf
    seiner Windrose": also when a plantation of the same kind lies free beside the forest."""
    state = nb_position(
        [
            player(island={"sugar": 1}, city={"forest_house": 1, "hospice": 1}),
            player(),
            player(),
        ],
        face_up=["sugar", "coffee", "indigo", "corn"],
        colonists=(20, 3),
    )
    state = play(choose(state, "settler"), Settle(SUGAR, True, True))
    anna = state.players[ANNA]
    assert (anna.tiles[SUGAR], anna.worked[SUGAR], anna.forests) == (1, 0, 1)
    assert anna.san_juan == 1


def test_a_colonist_guest_on_the_drawn_tile_goes_to_san_juan_with_the_forest():
    """The hacienda's tile, a guest moved onto it, then laid as a forest: "Wälder werden nicht
    mit Kolonisten besetzt", so the guest waits in San Juan."""
    state = nb_position(
        [
            player(
                island={"corn": (1, 1)},
                city={"forest_house": 1, "hacienda": 1, "guest_house": 1},
            ),
            player(),
            player(),
        ],
        face_up=["sugar", "coffee", "indigo", "corn"],
        stack=["corn", "tobacco"],
    )
    state = play(choose(state, "settler"), HACIENDA, MoveGuest("tobacco"), FOREST)
    anna = state.players[ANNA]
    assert (anna.tiles[TOBACCO], anna.worked[TOBACCO], anna.forests) == (0, 0, 1)
    assert (anna.city["guest_house"], anna.san_juan, anna.worked[CORN]) == (0, 1, 1)


def test_a_guest_moved_onto_the_drawn_kind_works_an_older_free_tile_and_stays():
    """Tiles of one kind are interchangeable: a guest moved onto the kind just drawn works a
    free tile that was there before, and laying the new tile as a forest leaves it working
    (the engine's reading, docs/engine.md)."""
    state = nb_position(
        [
            player(
                island={"tobacco": 1},
                city={"forest_house": 1, "hacienda": 1, "guest_house": 1},
            ),
            player(),
            player(),
        ],
        face_up=["sugar", "coffee", "indigo", "corn"],
        stack=["corn", "tobacco"],
    )
    state = choose(state, "settler")
    assert state.phase == "guests"  # the guest could move to the tobacco tile now
    state = play(state, PASS, HACIENDA, MoveGuest("tobacco"), FOREST)
    anna = state.players[ANNA]
    assert (anna.tiles[TOBACCO], anna.worked[TOBACCO], anna.forests) == (1, 1, 1)
    assert anna.san_juan == 0


def test_forest_needs_an_occupied_forest_house():
    state = nb_position(
        [player(city={"forest_house": 0}), player(), player()],
        face_up=["sugar", "coffee", "indigo", "corn"],
    )
    state = choose(state, "settler")
    assert refused(state, Settle(SUGAR, False, True)) == "no_forest_house"


def test_forest_house_with_the_hacienda_looks_at_the_tile_first():
    """ "Benutzt der Forsthaus-Besitzer auch die Hazienda, darf er das Plättchen anschauen,
    bevor er es ggf. als Wald auslegt": he sees it, the others see a face-down tile, and if
    he lays it as a forest they never learn its kind."""
    state = nb_position(
        [player(city={"forest_house": 1, "hacienda": 1}), player(), player()],
        face_up=["sugar", "coffee", "indigo", "corn"],
        stack=["corn", "tobacco"],
    )
    log: list[dict] = []
    state = play(choose(state, "settler"), HACIENDA, log=log)
    assert log[-1] == {"event": "hacienda", "seat": ANNA, "tile": None}
    anna_sees, bob_sees = pr.player_view(state, ANNA), pr.player_view(state, BOB)
    assert anna_sees["phase_state"]["drawn"] == "tobacco"
    assert anna_sees["players"][ANNA]["island"] == {"tobacco": {"tiles": 1, "colonists": 0}}
    assert bob_sees["phase_state"]["drawn"] is None and bob_sees["phase_state"]["drawn_hidden"]
    assert bob_sees["players"][ANNA]["island"] == {}
    assert pr.player_view(state, None)["players"][ANNA]["island"] == {}
    assert FOREST in pr.legal_actions(state)
    state = play(state, FOREST, Settle(SUGAR), log=log)
    anna = state.players[ANNA]
    assert (anna.forests, anna.tiles[TOBACCO], anna.tiles[SUGAR]) == (1, 0, 1)
    assert {"event": "forest", "seat": ANNA, "tile": None} in log
    assert "tobacco" not in json.dumps(log)
    for seat in (BOB, CHRIS, None):
        seen = pr.player_view(state, seat)["players"][ANNA]
        assert seen["forests"] == 1 and "forest_kinds" not in seen
    assert pr.player_view(state, ANNA)["players"][ANNA]["forest_kinds"] == {"tobacco": 1}
    assert moderator_view(state)["players"][ANNA]["forest_kinds"] == {"tobacco": 1}


def hacienda_with_forest_house() -> pr.State:
    """Anna, owner of an occupied hacienda and forest house, has drawn a tobacco plantation."""
    state = nb_position(
        [player(city={"forest_house": 1, "hacienda": 1}), player(), player()],
        face_up=["sugar", "coffee", "indigo", "corn"],
        stack=["corn", "tobacco"],
    )
    return play(choose(state, "settler"), HACIENDA)


def test_the_drawn_tile_kept_as_a_plantation_is_shown_when_the_turn_ends():
    log: list[dict] = []
    state = play(hacienda_with_forest_house(), Settle(SUGAR), log=log)
    assert log[-1] == {"event": "drawn_shown", "seat": ANNA, "tile": "tobacco"}
    assert pr.player_view(state, BOB)["players"][ANNA]["island"]["tobacco"]["tiles"] == 1
    assert not state.drawn_hidden


def test_the_hacienda_without_an_occupied_forest_house_shows_the_tile_at_once():
    state = nb_position(
        [player(city={"forest_house": 0, "hacienda": 1}), player(), player()],
        stack=["corn", "tobacco"],
    )
    log: list[dict] = []
    state = play(choose(state, "settler"), HACIENDA, log=log)
    assert log[-1] == {"event": "hacienda", "seat": ANNA, "tile": "tobacco"}
    assert pr.player_view(state, BOB)["players"][ANNA]["island"]["tobacco"]["tiles"] == 1


def tiles_in_play(state: pr.State) -> Counter:
    """Every plantation of the game: stack, row, discards, islands and forests."""
    tiles = Counter(pr.GOODS[k] for k in (*state.stack, *state.face_up, *state.discards))
    for pl in state.players:
        tiles.update({pr.GOODS[k]: n for k, n in enumerate(pl.tiles[:QUARRY]) if n})
        tiles.update({pr.GOODS[k]: n for k, n in enumerate(pl.forest_kinds) if n})
    return tiles


@pytest.mark.parametrize("forest", [False, True], ids=["drawn", "laid as a forest"])
def test_determinize_guesses_the_unseen_tile_from_the_others_view(forest):
    """Bob's guess of the tile Anna drew (or laid face down beside a forest laid from the
    row) comes out of the tiles he has not seen: no tile counted twice, none lost, his view
    of the guess his view, and the guess not always the truth."""
    dealt = pr.new_game(3, 1, NEW).players
    islands = [{pr.ISLAND_KINDS[k]: n for k, n in enumerate(pl.tiles) if n} for pl in dealt]
    state = nb_position(
        [
            player(island=islands[ANNA], city={"forest_house": 1, "hacienda": 1}),
            player(island=islands[BOB]),
            player(island=islands[CHRIS]),
        ]
    )
    state = play(choose(state, "settler"), HACIENDA)
    drawn = state.drawn
    if forest:
        row = state.face_up[0]
        state = play(state, FOREST, Settle(row, False, True))
        assert state.players[ANNA].forest_kinds[row] >= 1
    view = pr.player_view(state, BOB)
    guesses = set()
    for seed in range(20):
        guess = pr.determinize(view, seed)
        assert pr.player_view(guess, BOB) == view
        assert tiles_in_play(guess) == tiles_in_play(state)
        guesses.add(guess.drawn if not forest else guess.players[ANNA].secret_forest_kinds)
    assert len(guesses) > 1, f"always {drawn}: the truth, not a guess"


def test_a_full_island_counts_its_forests():
    state = nb_position(
        [player(island={"corn": 10}, city={"residence": 1}), player(), player()],
        forests={ANNA: 2},
        face_up=["sugar", "coffee", "indigo", "corn"],
    )
    assert pr.outcome(state)[ANNA].parts["bonuses"]["residence"] == 7  # 12 filled spaces
    state = choose(state, "settler")
    assert pr.current_player(state) == BOB  # Anna, her island full, is passed over


# Black market -------------------------------------------------------------------------------


def test_black_market_example_paying_for_the_harbor():
    """ "Der Spieler möchte den Hafen für 8 Dublonen bauen, besitzt aber nur 6 Dublonen. Er gibt
    ein Indigo und einen beliebigen Kolonisten ab, wodurch er 2 Dublonen einspart, und baut den
    Hafen.\""""
    state = nb_position(
        [
            player(),
            player(
                doubloons=6,
                goods={"indigo": 1},
                island={"corn": (1, 1)},
                city={"black_market": 1},
            ),
            player(),
        ],
        colonists=(20, 3),
    )
    state = play(state, pr.ChooseRole("builder"), PASS)  # Bob pays the full price
    assert pr.current_player(state) == BOB
    supply = (state.colonist_supply, state.goods[INDIGO])
    payment = Build("harbor", colonist="corn", good=INDIGO)
    assert payment in pr.legal_actions(state)
    assert refused(state, Build("harbor")) == "too_expensive"
    assert refused(state, Build("harbor", good=INDIGO)) == "black_market_not_needed"
    log: list[dict] = []
    state = play(state, payment, log=log)
    bob = state.players[BOB]
    assert "harbor" in bob.city and bob.doubloons == 0
    assert (bob.goods[INDIGO], bob.worked[CORN]) == (0, 0)
    assert (state.colonist_supply, state.goods[INDIGO]) == (supply[0] + 1, supply[1] + 1)
    assert log[-2] == {
        "event": "black_market",
        "seat": BOB,
        "colonist": "corn",
        "noble": False,
        "good": "indigo",
        "vp": False,
    }


def test_black_market_never_leaves_money_and_not_its_own_colonist():
    state = nb_position(
        [
            player(doubloons=5, vp=3, goods={"corn": 2}, city={"black_market": 1}),
            player(),
            player(),
        ]
    )
    state = choose(state, "builder")  # the builder: the harbor costs him 7
    assert refused(state, Build("harbor", colonist="black_market", good=CORN)) in (
        "no_colonist_there",
    )
    assert refused(state, Build("office", good=CORN)) == "black_market_not_needed"
    assert refused(state, Build("harbor", good=CORN, vp=True, colonist="san_juan")) in (
        "black_market_not_needed",
        "no_colonist_there",
    )
    chips = state.vp_chips
    state = play(state, Build("harbor", good=CORN, vp=True))
    anna = state.players[ANNA]
    assert (anna.doubloons, anna.vp, anna.goods[CORN]) == (0, 2, 1)
    assert state.vp_chips == chips + 1


def test_black_market_vp_after_the_chips_ran_out_goes_back_to_the_supply():
    """The VP goes "zurück in den entsprechenden Vorrat", and "Gibt man einen Siegpunkt …
    ab, nachdem bereits eine Spielende-Bedingung eingetreten ist, bleibt es beim Spielende!\""""
    state = nb_position(
        [
            player(doubloons=5, vp=3, goods={"corn": 1}, city={"black_market": 1}),
            player(),
            player(),
        ],
        vp_chips=0,
    )
    state.end_reasons = ["vp_chips"]
    state = play(choose(state, "builder"), Build("harbor", good=CORN, vp=True))
    assert "harbor" in state.players[ANNA].city and state.players[ANNA].vp == 2
    assert state.vp_chips == 1
    assert state.end_reasons == ["vp_chips"]


def test_black_market_needs_to_be_occupied():
    state = nb_position(
        [player(doubloons=5, goods={"corn": 2}, city={"black_market": 0}), player(), player()]
    )
    state = choose(state, "builder")
    assert refused(state, Build("harbor", good=CORN, vp=True)) == "no_black_market"


def black_market_builder(**board) -> pr.State:
    """Anna, the builder, with an occupied black market and ``board``; no one else builds."""
    city = {"black_market": 1, **board.pop("city", {})}
    return choose(nb_position([player(city=city, **board), player(), player()]), "builder")


def test_a_quarry_whose_colonist_pays_the_black_market_lowers_no_price():
    """Reading (``docs/engine.md``): the rulebook keeps the black market's own colonist from
    paying, so a colonist paid away has left its place for the build. The office costs Anna
    5 - 1 (builder) - 1 (quarry) = 3; paying with the quarry's colonist, it costs her 4."""
    state = black_market_builder(doubloons=2, goods={"corn": 1}, island={"quarry": (1, 1)})
    assert refused(state, Build("office", colonist="quarry")) == "black_market_not_needed"
    assert Build("office", colonist="quarry") not in pr.legal_actions(state)
    assert Build("office", good=CORN) in pr.legal_actions(state)
    state = play(state, Build("office", colonist="quarry", good=CORN))
    anna = state.players[ANNA]
    assert "office" in anna.city
    assert (anna.doubloons, anna.worked[QUARRY], anna.goods[CORN]) == (0, 0, 0)


def test_a_library_whose_colonist_pays_the_black_market_doubles_no_privilege():
    """With the library the harbor costs the builder 8 - 2 = 6; its colonist paid, 7."""
    state = black_market_builder(doubloons=5, vp=1, city={"library": 1}, san_juan=1)
    assert Build("harbor", colonist="san_juan") in pr.legal_actions(state)
    assert refused(state, Build("harbor", colonist="library")) == "black_market_not_needed"
    state = play(state, Build("harbor", colonist="library", vp=True))
    anna = state.players[ANNA]
    assert "harbor" in anna.city and (anna.doubloons, anna.vp, anna.city["library"]) == (0, 0, 0)


def test_a_university_or_church_whose_colonist_pays_the_black_market_does_not_act():
    """The harbor costs the builder 7 with 6 doubloons: one colonist pays the rest."""
    state = black_market_builder(doubloons=6, city={"university": 1, "church": 1}, san_juan=1)
    legal = pr.legal_actions(state)
    assert Build("harbor", True, colonist="san_juan") in legal
    assert Build("harbor", False, colonist="university") in legal
    assert Build("harbor", True, colonist="university") not in legal
    assert refused(state, Build("harbor", True, colonist="university")) == "no_university"
    log: list[dict] = []
    church = play(state, Build("harbor", True, colonist="church"), log=log)
    assert church.players[ANNA].vp == 0 and church.players[ANNA].city["harbor"] == 1
    assert "church" not in {e["event"] for e in log}
    paid_elsewhere = play(state, Build("harbor", colonist="san_juan"))
    assert paid_elsewhere.players[ANNA].vp == 1  # the church's VP for a column-3 building


# Storehouse ---------------------------------------------------------------------------------


def test_storehouse_keeps_three_more_barrels_of_any_kinds():
    state = nb_position(
        [
            player(goods={"corn": 3, "indigo": 2, "sugar": 1}, city={"storehouse": 1}),
            player(),
            player(),
        ],
        ships=[("corn", 4), ("indigo", 5), ("sugar", 6)],  # all full: nothing can be loaded
    )
    state = choose(state, "captain")
    assert state.phase == "storage"
    stores = pr.legal_actions(state)
    # Four of the six barrels stay: the windrose's and three more, of any kinds.
    assert all(a.windrose is not None and len(a.storehouse) == 3 for a in stores)
    kept = {
        tuple((a.windrose, *a.storehouse).count(g) for g in (CORN, INDIGO, SUGAR)) for a in stores
    }
    assert kept == {(3, 1, 0), (3, 0, 1), (2, 2, 0), (2, 1, 1), (1, 2, 1)}  # corn, indigo, sugar
    assert len(stores) == len(kept)
    assert refused(state, Store(CORN, (), (CORN,))) == "storehouse_not_filled"
    state = play(state, Store(CORN, (), (CORN, CORN, INDIGO)))
    assert goods_of(state, ANNA) == {"corn": 3, "indigo": 1}


# Guest house --------------------------------------------------------------------------------


def test_gaestehaus_beispiel_lagerhalle_am_ende_der_kapitaensphase():
    """ "Der Spieler versetzt gegen Ende der Kapitänphase einen Gast in die Lagerhalle und nutzt
    diese sofort zum Lagern überzähliger Waren. Anschließend wählt er den Händler als seine
    Rolle und versetzt zu Beginn dieser Phase den zweiten Gast in die Bibliothek, womit er nun
    das doppelte Händlerprivileg erhält." No ship takes Chris's corn and he has no choice in
    storage, so only his guest windows give him his moves."""
    state = nb_position(
        [
            player(),
            player(),
            player(
                goods={"corn": 3, "tobacco": 1},
                city={"guest_house": 2, "storehouse": 0, "library": 0},
            ),
        ],
        ships=[("corn", 4), ("indigo", 5), ("sugar", 6)],
    )
    state = choose(state, "captain")
    assert (state.phase, pr.current_player(state)) == ("guests", CHRIS)  # the phase's start
    state = play(state, PASS)
    assert (state.phase, pr.current_player(state)) == ("guests", CHRIS)  # before storage
    assert goods_of(state, CHRIS) == {"corn": 3, "tobacco": 1}
    log: list[dict] = []
    state = play(state, MoveGuest("storehouse"), log=log)
    assert log == [{"event": "guest_moved", "seat": CHRIS, "to": "storehouse", "noble": False}]
    assert pr.current_player(state) == CHRIS  # a move keeps the window open
    state = play(state, PASS)
    # The windrose and the storehouse keep all four barrels: nobody is asked to store.
    assert state.phase == "role" and goods_of(state, CHRIS) == {"corn": 3, "tobacco": 1}
    # Bob takes the builder (Chris passes his window and does not build); then Chris takes the
    # trader and at the start of the phase moves his second guest to the library.
    state = play(state, pr.ChooseRole("builder"))
    assert (state.phase, pr.current_player(state)) == ("guests", CHRIS)
    while state.phase != "role":
        state = play(state, PASS)
    assert pr.current_player(state) == CHRIS
    state = play(state, pr.ChooseRole("trader"))
    assert (state.phase, pr.current_player(state)) == ("guests", CHRIS)
    state = play(state, MoveGuest("library"))  # his last guest: the window closes
    assert (state.phase, pr.current_player(state)) == ("trader", CHRIS)
    log = []
    state = play(state, Sell(TOBACCO), log=log)
    assert log[0] == {"event": "sell", "seat": CHRIS, "good": "tobacco", "price": 3 + 2}


def test_gaestehaus_gast_vor_der_produktion_produziert():
    """Bob, not the craftsman, is asked before production: his guest on the empty corn
    plantation produces at once."""
    state = nb_position(
        [
            player(island={"corn": (1, 1)}),
            player(island={"corn": (1, 0)}, city={"guest_house": 1}),
            player(),
        ]
    )
    state = choose(state, "craftsman")
    assert (state.phase, pr.current_player(state)) == ("guests", BOB)
    assert goods_of(state, ANNA) == {}  # nothing is produced before the windows
    log: list[dict] = []
    state = play(state, MoveGuest("corn"), log=log)
    assert goods_of(state, BOB) == {"corn": 1} and goods_of(state, ANNA) == {"corn": 1}
    assert [e["event"] for e in log[:2]] == ["guest_moved", "produce"]


def test_gaestehaus_am_spielende_besetzt_ein_gast_das_grosse_gebaeude():
    """The last window comes after the last role of the game, from the governor on, before
    the final scoring: a guest moved to the guild hall scores its bonus."""

    def last_role(move: pr.Action) -> pr.State:
        state = nb_position(
            [
                player(),
                player(city={"guest_house": 1}),
                player(),
                player(city={"guild_hall": 0, "small_indigo_plant": 0, "guest_house": 1}),
            ],
            seat=3,
            governor=ANNA,
            taken={"settler": ANNA, "builder": BOB, "trader": CHRIS},
        )
        state.end_reasons = ["city"]
        state = choose(state, "prospector")
        assert (state.phase, pr.current_player(state), state.round) == ("guests", 3, 1)
        assert not pr.is_over(state)
        state = play(state, move)
        assert pr.is_over(state)
        return state

    moved = pr.outcome(last_role(MoveGuest("guild_hall")))[3]
    assert moved.parts["bonuses"] == {"guild_hall": 1}
    assert pr.outcome(last_role(PASS))[3].score == moved.score - 1


def test_gaestehaus_kein_fenster_ohne_freien_kreis_oder_ohne_gaeste():
    state = nb_position(
        [
            player(),
            player(island={"corn": (1, 1)}, city={"guest_house": 1}),  # no empty circle
            player(island={"corn": (1, 0)}, city={"guest_house": 0}),  # no guest
        ]
    )
    state = choose(state, "builder")
    assert (state.phase, pr.current_player(state)) == ("builder", ANNA)


@pytest.mark.parametrize("role", ["settler", "builder", "craftsman", "trader", "captain"])
def test_gaestehaus_weiter_im_fenster_setzt_die_phase_fort_wie_bisher(role, monkeypatch):
    """Passing every window (at the phase's start, and before storage) leaves the game and its
    log exactly as without the windows."""

    def played(windows: bool) -> tuple[dict, list[dict]]:
        state = nb_position(
            [
                player(goods={"corn": 2}, island={"corn": (2, 2)}, doubloons=3),
                player(goods={"corn": 2}, island={"corn": (2, 1)}, city={"guest_house": 1}),
                player(goods={"indigo": 2}, island={"indigo": 1}),
            ],
            ships=[(None, 0), (None, 0), (None, 0)],
        )
        log: list[dict] = []
        windows_passed = 0
        with monkeypatch.context() as m:
            if not windows:
                m.setattr(guests, "open_windows", lambda *_: False)
            state = choose(state, role, log=log)
            while state.phase != "role":
                windows_passed += state.phase == "guests"
                first = next(a for a in pr.legal_actions(state) if a.type != "move_guest")
                state = play(state, PASS if state.phase == "guests" else first, log=log)
        assert windows_passed == (0 if not windows else 2 if role == "captain" else 1)
        return state.to_json(), log

    assert played(True) == played(False)


def test_gaestehaus_fenster_im_json():
    """A window's queue and where it leads survive the JSON round trip."""
    state = nb_position(
        [
            player(island={"corn": (1, 0)}, city={"guest_house": 1}),
            player(island={"corn": (1, 0)}, city={"guest_house": 1}),
            player(),
        ]
    )
    state = choose(state, "trader")
    assert (state.current, state.guests_queue, state.guests_then) == (BOB, (CHRIS, ANNA), "trader")
    data = state.to_json()
    assert data["phase_state"]["guests"] == {"queue": [CHRIS, ANNA], "then": "trader"}
    back = pr.State.from_json(data)
    assert back.to_json() == data
    assert play(back, PASS).to_json() == play(state, PASS).to_json()
    assert pr.player_view(state, CHRIS)["phase_state"]["guests"] == data["phase_state"]["guests"]


def test_guests_work_at_once_and_move_only_to_empty_circles():
    state = nb_position(
        [
            player(island={"corn": (2, 1)}, city={"guest_house": 1, "small_market": 1}),
            player(),
            player(),
        ]
    )
    moves = {a.to for a in pr.legal_actions(state) if isinstance(a, MoveGuest)}
    assert moves == {"corn"}
    assert refused(state, MoveGuest("small_market")) == "no_free_circle"
    assert refused(state, MoveGuest("harbor")) == "no_building"
    state = play(state, MoveGuest("corn"))
    assert state.players[ANNA].worked[CORN] == 2
    assert refused(state, MoveGuest("corn")) == "no_guests"


def test_no_guest_moves_in_the_mayor_phase():
    state = nb_position([player(island={"corn": 2}, city={"guest_house": 1}), player(), player()])
    state = choose(state, "mayor")
    assert refused(state, MoveGuest("corn")) == "no_guest_moves_now"


# Trading post -------------------------------------------------------------------------------


def test_trading_post_sells_to_the_supply_without_markets_with_the_privilege():
    state = nb_position(
        [
            player(goods={"coffee": 1}, city={"trading_post": 1, "large_market": 1}),
            player(goods={"coffee": 1}, city={"trading_post": 1}),
            player(),
        ],
        trading_house=["corn", "indigo", "sugar", "coffee"],  # full
    )
    supply = state.goods[4]
    state = choose(state, "trader")
    assert pr.legal_actions(state) == [Sell(4, True), PASS]
    log: list[dict] = []
    state = play(state, Sell(4, True), Sell(4, True), log=log)
    assert [e["price"] for e in log if e["event"] == "trading_post"] == [4 + 1, 4]
    # Two to the supply, and the full house's coffee back at the end of the phase.
    assert state.goods[4] == supply + 2 + 1
    plain = choose(nb_position([player(goods={"corn": 1}), player(), player()]), "trader")
    assert refused(plain, Sell(CORN, True)) == "no_trading_post"


# Church -------------------------------------------------------------------------------------


def test_church_gives_vp_by_column_but_not_for_itself():
    state = nb_position(
        [player(doubloons=30, city={"university": 1}), player(), player()],
        colonists=(20, 3),
    )
    state = play(state, pr.ChooseRole("builder"), Build("church", True))
    assert state.players[ANNA].vp == 0 and state.players[ANNA].city["church"] == 1
    for building, vp in (("small_market", 0), ("hospice", 1), ("factory", 1), ("fortress", 2)):
        s = nb_position(
            [player(doubloons=30, city={"church": 1}), player(), player()],
        )
        log: list[dict] = []
        s = play(s, pr.ChooseRole("builder"), Build(building), log=log)
        assert s.players[ANNA].vp == vp, building
        assert ({"event": "church", "seat": ANNA, "vp": vp} in log) == bool(vp)


# Small wharf, lighthouse, union hall ----------------------------------------------------------


def test_small_wharf_ships_mixed_kinds_one_vp_per_two_and_need_not_ship_all():
    state = nb_position(
        [
            player(),
            player(goods={"corn": 2, "sugar": 1, "coffee": 2}, city={"small_wharf": 1}),
            player(),
        ],
        ships=[("corn", 4), ("sugar", 5), ("coffee", 6)],  # full
    )
    state = choose(state, "captain")
    assert pr.current_player(state) == BOB
    offered = pr.legal_actions(state)
    assert SmallWharf((2, 0, 1, 0, 0)) in offered and PASS in offered
    assert len(offered) == 3 * 2 * 3 - 1 + 1  # every non-empty choice, and passing
    log: list[dict] = []
    state = play(state, SmallWharf((2, 0, 1, 0, 0)), log=log)
    assert log[0] == {
        "event": "small_wharf",
        "seat": BOB,
        "goods": {"corn": 2, "sugar": 1},
        "vp": 1,
        "harbor": False,
        "captain": False,
    }
    assert goods_of(state, BOB) == {"coffee": 1}  # the rest spoiled at storage
    used = nb_position(
        [player(goods={"corn": 1}, city={"small_wharf": 1}), player(), player()],
        ships=[("corn", 4), ("sugar", 5), ("coffee", 6)],
    )
    used = choose(used, "captain")
    used.small_wharf_used[ANNA] = True
    assert refused(used, SmallWharf((1, 0, 0, 0, 0))) == "small_wharf_used"


def test_lighthouse_pays_per_loading_and_the_captain_without_shipping():
    state = nb_position(
        [
            player(city={"lighthouse": 1}),
            player(goods={"corn": 2}, city={"lighthouse": 1}),
            player(),
        ]
    )
    log: list[dict] = []
    state = play(state, pr.ChooseRole("captain"), log=log)
    assert {"event": "lighthouse", "seat": ANNA, "doubloons": 1} in log
    state = play(state, Load(CORN, 2), log=log)
    assert state.players[BOB].doubloons == 1
    assert state.players[ANNA].doubloons == 1


@pytest.mark.parametrize(
    ("goods", "vp"),
    [({"corn": 3, "indigo": 2, "coffee": 1}, 2), ({"corn": 4, "coffee": 2}, 3)],
    ids=["example_1_three_corn_two_indigo_one_coffee", "example_2_four_corn_two_coffee"],
)
def test_union_hall_examples(goods, vp):
    """ "Beispiel 1) Der Spieler besitzt 3 Mais, 2 Indigo und 1 Kaffee: er erhält 2 SP.
    Beispiel 2) Der Spieler besitzt 4 Mais und 2 Kaffee: er erhält 3 SP.\""""
    state = nb_position([player(), player(goods=goods, city={"union_hall": 1}), player()])
    log: list[dict] = []
    state = play(state, pr.ChooseRole("captain"), log=log)
    assert log[1] == {"event": "union_hall", "seat": BOB, "vp": vp}
    assert state.players[BOB].vp == vp  # before anything is shipped


# Craftsman: aqueduct, specialty factory --------------------------------------------------------


def test_aqueduct_adds_to_the_large_plants_only():
    def produced(city: dict[str, int]) -> dict[str, int]:
        state = nb_position(
            [
                player(island={"indigo": (2, 2), "sugar": (1, 1)}, city=city),
                player(),
                player(),
            ]
        )
        log: list[dict] = []
        play(state, pr.ChooseRole("craftsman"), log=log)
        return log[1]["goods"]

    assert produced({"aqueduct": 1, "indigo_plant": 2, "small_sugar_mill": 1}) == {
        "indigo": 3,
        "sugar": 1,
    }
    assert produced({"aqueduct": 1, "small_indigo_plant": 1, "sugar_mill": 1}) == {
        "indigo": 1,
        "sugar": 2,
    }
    assert produced({"aqueduct": 0, "indigo_plant": 2}) == {"indigo": 2}


def test_specialty_factory_pays_for_the_best_kind_not_corn_with_the_extra_barrel():
    state = nb_position(
        [
            player(
                island={"corn": (3, 3), "sugar": (2, 2), "indigo": (1, 1)},
                city={"specialty_factory": 1, "sugar_mill": 2, "small_indigo_plant": 1},
            ),
            player(
                island={"corn": (3, 3), "sugar": (1, 1)},
                city={"specialty_factory": 1, "small_sugar_mill": 1},
            ),
            player(),
        ]
    )
    log: list[dict] = []
    state = play(state, pr.ChooseRole("craftsman"), ExtraGood(SUGAR), log=log)
    pays = [e for e in log if e["event"] == "specialty_factory"]
    # Bob: best kind sugar 1 (corn not counted): 0. Anna, the craftsman: sugar 2 + 1 extra: 2.
    assert pays == [
        {"event": "specialty_factory", "seat": BOB, "doubloons": 0},
        {"event": "specialty_factory", "seat": ANNA, "doubloons": 2},
    ]


# Library ------------------------------------------------------------------------------------


def test_library_settler_takes_the_last_plantation_after_everyone():
    """ "Als Siedler darf er sich zunächst entweder einen Steinbruch oder eine Plantage nehmen.
    Nachdem alle anderen Spieler an der Reihe waren, darf er sich noch die letzte Plantage
    nehmen, aber keinen Steinbruch.\""""
    state = nb_position(
        [player(city={"library": 1, "hospice": 1}), player(), player()],
        face_up=["corn", "sugar", "coffee", "tobacco"],
        colonists=(20, 3),
    )
    state = play(
        state,
        pr.ChooseRole("settler"),
        Settle(QUARRY, True),
        Settle(SUGAR),
        Settle(CORN),
    )
    assert pr.current_player(state) == ANNA and state.phase == "settler"
    offered = pr.legal_actions(state)
    assert Settle(QUARRY) not in offered and Settle(4, True) not in offered
    # Two are left, not one: the Library's owner chooses either (expansions-en §4.1).
    assert {Settle(TOBACCO), Settle(pr.COFFEE)} <= set(offered)
    assert refused(state, Settle(QUARRY)) == "library_no_quarry"
    assert refused(state, Settle(4, True)) == "library_no_hospice"
    state = play(state, Settle(4))
    anna = state.players[ANNA]
    assert (anna.tiles[QUARRY], anna.worked[QUARRY], anna.tiles[4]) == (1, 1, 1)
    assert state.phase == "role"


def test_library_settler_with_a_construction_hut_may_take_a_second_quarry():
    state = nb_position(
        [player(city={"library": 1, "construction_hut": 1}), player(), player()],
        face_up=["corn", "sugar", "coffee", "tobacco"],
    )
    state = play(state, pr.ChooseRole("settler"), Settle(QUARRY), PASS, PASS)
    assert Settle(QUARRY) in pr.legal_actions(state)


def test_library_craftsman_takes_two_extra_barrels_of_two_kinds():
    """ "Als Aufseher darf er sich auch zwei verschiedene Warensteine nehmen.\""""
    state = nb_position(
        [
            player(
                island={"corn": (1, 1), "indigo": (1, 1)},
                city={"library": 1, "small_indigo_plant": 1},
            ),
            player(),
            player(),
        ]
    )
    state = play(state, pr.ChooseRole("craftsman"), ExtraGood(CORN))
    assert state.phase == "craftsman"  # a second extra barrel
    state = play(state, ExtraGood(INDIGO))
    assert goods_of(state, ANNA) == {"corn": 2, "indigo": 2}
    assert state.phase == "role"


def test_library_doubles_the_other_privileges():
    # Prospector: 2 doubloons.
    state = nb_position(
        [player(city={"library": 1}), player(), player(), player()],
    )
    assert play(state, pr.ChooseRole("prospector")).players[ANNA].doubloons == 2
    # Builder: 2 off.
    state = nb_position([player(doubloons=3, city={"library": 1}), player(), player()])
    assert play(state, pr.ChooseRole("builder"), Build("hospice")).players[ANNA].doubloons == 1
    # Mayor: two colonists from the supply.
    state = nb_position(
        [player(island={"corn": 3}, city={"library": 1}), player(), player()],
        colonists=(20, 0),
    )
    state = play(state, pr.ChooseRole("mayor"))  # the one on the library and two more
    placement = Arrange((2, 0, 0, 0, 0, 0), (("library", 0),), privilege=True)
    assert refused(state, placement) == "circles_empty"
    state = play(state, Arrange((2, 0, 0, 0, 0, 0), (("library", 1),), privilege=True))
    assert state.colonist_supply == 18
    # Captain: 2 VP at the first loading.
    state = nb_position([player(goods={"corn": 2}, city={"library": 1}), player(), player()])
    state = play(state, pr.ChooseRole("captain"), Load(CORN, 2))
    assert state.players[ANNA].vp == 2 + 2


# Statue, cloister ---------------------------------------------------------------------------


def test_statue_takes_no_colonist_and_is_worth_8():
    state = pr.from_json(nb_position([player(city={"statue": 0}), player(), player()]).to_json())
    assert BUILDINGS["statue"].circles == 0
    parts = pr.outcome(state)[ANNA].parts
    assert parts["buildings"] == 8 and parts["bonuses"] == {}


def test_cloister_example_6_forests_3_quarries_2_corn_1_coffee():
    """ "6 Wälder, 3 Steinbrüche, 2 Mais, 1 Kaffee: er erhält zusätzliche 6 SP.\""""
    state = nb_position(
        [
            player(island={"quarry": 3, "corn": 2, "coffee": 1}, city={"cloister": 1}),
            player(),
            player(),
        ],
        forests={ANNA: 6},
    )
    assert pr.outcome(state)[ANNA].parts["bonuses"] == {"cloister": 6}
    state.players[ANNA].forests = 3  # 1 + 2 sets: 3 VP; four sets are worth 10
    assert pr.outcome(state)[ANNA].parts["bonuses"] == {"cloister": 3}


# JSON -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        Draft("church"),
        FOREST,
        Settle(SUGAR, True, True),
        Build("harbor", False, "san_juan", INDIGO, True),
        Sell(CORN, True),
        SmallWharf((1, 0, 2, 0, 0)),
        Store(CORN, (SUGAR,), (CORN, INDIGO)),
        MoveGuest("library"),
    ],
)
def test_new_actions_round_trip_through_json(action):
    data = pr.action_to_json(action)
    assert pr.action_from_json(data) == action


def test_base_actions_keep_their_json():
    assert pr.action_to_json(Sell(CORN)) == {"type": "sell", "good": "corn"}
    assert pr.action_to_json(Build("harbor")) == {
        "type": "build",
        "building": "harbor",
        "university": False,
    }


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"type": "move_guest", "to": "moon"}, "bad_place"),
        ({"type": "small_wharf", "goods": []}, "bad_goods"),
        ({"type": "build", "building": "harbor", "black_market": []}, "bad_black_market"),
        ({"type": "draft", "building": 3}, "malformed"),
    ],
)
def test_malformed_new_actions_are_refused(data, code):
    with pytest.raises(pr.MalformedAction) as error:
        pr.action_from_json(data)
    assert error.value.code == code


def test_a_stored_base_state_without_the_new_fields_still_loads():
    data = pr.new_game(3, 4).to_json()
    del data["drafted"]
    for key in ("drawn", "drawn_guest", "extras", "made", "small_wharf_used"):
        del data["phase_state"][key]
    for pl in data["players"]:
        del pl["forests"]
    assert pr.from_json(data).to_json() == pr.new_game(3, 4).to_json()


def test_a_stored_state_with_an_unknown_guest_on_the_drawn_tile_is_refused():
    data = pr.new_game(3, 4, NEW).to_json()
    data["phase_state"]["drawn_guest"] = "pirate"
    with pytest.raises(ValueError, match="pirate"):
        pr.from_json(data)


def test_the_university_puts_no_colonist_on_the_statue():
    """Found by the property tests: the statue has no circle."""
    state = nb_position(
        [player(doubloons=10, city={"university": 1}), player(), player()],
        colonists=(20, 3),
    )
    state = choose(state, "builder")
    assert Build("statue") in pr.legal_actions(state)
    assert Build("statue", True) not in pr.legal_actions(state)
    assert refused(state, Build("statue", True)) == "no_free_circle"
