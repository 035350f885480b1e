"""The board of a Nobles game: nobles drawn apart from colonists, the mayor's form with a
count of nobles, and a form for each new choice (Land office, Royal supplier, Hunting lodge)
that posts exactly the engine's action, in English and German."""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations

import pytest
from django.urls import reverse
from django.utils import translation

from games.engines import puerto_rico as pr
from games.engines.puerto_rico.actions import (
    PASS,
    Arrange,
    DiscardPlantation,
    MoveGuest,
    RoyalSupplier,
)
from games.engines.puerto_rico.data import BUILDINGS, CORN, INDIGO
from games.models import Game
from games.ui.puerto_rico import action_from_post
from tests.engines.positions import ANNA, BOB, CHRIS, choose, island, play, player
from tests.engines.test_both_expansions import both_position, draw_for_the_forest
from tests.engines.test_nobles import _land_office, _mayor_table, _supplier, noble_player
from tests.engines.test_nobles import nobles_position as position
from tests.games.test_board_new_buildings import running, seat_user
from tests.games.test_board_ui import (
    Forms,
    assert_forms_are_wired,
    base_data,
    client_for,
    german,
    offered,
    people,
    player_board,
    post,
    query,
    render,
    section,
    text,
)


def posted(data: dict) -> pr.Action:
    return pr.action_from_json(action_from_post(query(data)))


def mayor_form(html: str) -> dict:
    (form,) = [f for f in Forms(html).forms if base_data(f).get("kind") == "arrange"]
    return form


def counts(form: dict) -> dict[str, str]:
    return {f["name"]: f["value"] for f in form["fields"] if f.get("type") == "number"}


# Drawing --------------------------------------------------------------------------------


def test_nobles_are_drawn_apart_from_colonists_for_every_viewer():
    players = [
        noble_player(
            island={"corn": (3, 1)},
            island_nobles={"corn": 1},
            city={"chapel": 0, "small_market": 1},
            city_nobles={"chapel": 1},
            san_juan=1,
            san_juan_nobles=2,
        ),
        player(),
        player(),
    ]
    state = position(players)
    for viewer in (ANNA, BOB, None):
        board = player_board(render(state, viewer), ANNA)
        corn = re.findall(r'<g class="pr-tile good-corn".*?</g>', board, re.S)
        assert [t.count("is-noble") for t in corn] == [1, 0, 0]
        assert [t.count("is-colonist") for t in corn] == [0, 1, 0]
        assert "Corn plantation, a noble on it" in corn[0]
        chapel = re.search(r"<title>Chapel.*?</g>", board, re.S).group(0)
        assert chapel.count("is-noble") == 1 and "is-colonist" not in chapel
        assert "1 of 1 colonist (nobles among them: 1)" in chapel
        san_juan = re.search(r'<g class="pr-sanjuan".*?</g>', board, re.S).group(0)
        assert san_juan.count("is-noble") == 2 and san_juan.count("is-colonist") == 1
        assert "San Juan: 3 colonists waiting (nobles among them: 2)" in san_juan


def test_the_ships_noble_and_the_nobles_supply_are_on_the_table():
    state = _mayor_table()
    html = render(state, BOB)
    table = section(html, "pr-table")
    assert "Colonist ship: 1 noble" in table and "Nobles in the supply: 19" in table
    assert re.search(r'class="pr-slot is-noble" cx="240"', table)
    base = render(pr.new_game(3, 1), BOB)
    assert "is-noble" not in base and "Nobles in the supply" not in base


# The mayor ------------------------------------------------------------------------------


def test_the_mayor_may_take_the_ships_noble_with_a_checkbox_and_counts_nobles_apart():
    state = choose(_mayor_table(), "mayor")
    html = render(state, ANNA)
    assert_forms_are_wired(html)
    form = mayor_form(html)
    assert counts(form) == {"island-corn": "1", "noble-island-corn": "0"}
    assert sorted(b["name"] for b in form["boxes"]) == ["privilege", "take_noble"]
    words = text(html)
    assert "You have 1 colonist and 0 nobles (2 if you take the privilege) for 3 circles" in words
    assert "Take the noble from the colonist ship instead of one of your colonists" in words
    # Every legal placement is a way of filling in the form, and nothing else comes out.
    base = base_data(form)
    placements = pr.legal_actions(state)
    for arrangement in placements:
        data = {
            **base,
            "island-corn": str(arrangement.island[CORN]),
            "noble-island-corn": str((arrangement.noble_island or island(0))[CORN]),
        }
        if arrangement.privilege:
            data["privilege"] = "on"
        if arrangement.take_noble:
            data["take_noble"] = "on"
        assert posted(data) == arrangement
    assert posted(base) in placements
    both = {"take_noble": "on", "privilege": "on"}
    taken = posted({**base, "noble-island-corn": "1", "island-corn": "1", **both})
    assert taken == Arrange(island(1), (), True, island(1), take_noble=True)


def test_the_last_seat_gets_the_noble_without_asking_and_it_is_prefilled():
    state = choose(_mayor_table(), "mayor")
    state = play(state, Arrange(island(2), (), True), Arrange(island(1)))
    assert state.current == CHRIS
    form = mayor_form(render(state, CHRIS))
    assert form["boxes"] == []
    assert base_data(form)["take_noble"] == "on"
    assert counts(form) == {"island-corn": "0", "noble-island-corn": "1"}
    assert posted(base_data(form)) == pr.legal_actions(state)[0]
    assert "The noble on the colonist ship comes to you" in text(render(state, CHRIS))


@pytest.mark.django_db
def test_a_refused_placement_comes_back_as_entered_with_the_reason_in_german(django_user_model):
    users = people(django_user_model, 3)
    game = running(users, choose(_mayor_table(), "mayor"))
    anna = seat_user(game, users, ANNA)
    anna.language = "de"
    anna.save()
    client = client_for(anna)
    with translation.override("en"):  # the requests switch the thread's language
        form = mayor_form(client.get(game.get_absolute_url()).content.decode())
        data = {**base_data(form), "noble-island-corn": "1"}  # a noble she does not have
        response = post(client, game, data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "du verteilst 1 Adlige, hast aber nur 0" in text(section(page, "pr-choices"))
    assert counts(mayor_form(page))["noble-island-corn"] == "1"
    assert Game.objects.get(pk=game.pk).version == game.version


# Land office, Royal supplier, Hunting lodge ---------------------------------------------


def test_the_land_office_buys_with_a_colonist_and_sells_with_a_noble():
    state = choose(_land_office("colonist", doubloons=2, goods={"sugar": 1}), "trader")
    html = render(state, ANNA)
    assert Counter(offered(html)) == Counter(pr.legal_actions(state))
    words = text(html)
    assert "Buy the top face-down plantation for 1 doubloon (land office)" in words
    assert "Your turn: use the land office, then sell one barrel or pass." in words

    state = _land_office(
        "noble", island={"indigo": (2, 1), "quarry": (1, 1)}, island_nobles={"indigo": 1}
    )
    state = choose(state, "trader")
    html = render(state, ANNA)
    assert Counter(offered(html)) == Counter(pr.legal_actions(state))
    words = text(html)
    assert "Sell one indigo plantation (its noble goes to San Juan) for 1 doubloon" in words
    assert "Sell one indigo plantation (its colonist goes to San Juan) for 1 doubloon" in words
    assert "Eine Indigo-Plantage (ihr Adliger geht nach San Juan) für 1 Dublone" in text(
        german(state, ANNA)
    )


def supplier_state() -> pr.State:
    return choose(_supplier("noble", 2, {"corn": 3, "sugar": 1, "coffee": 1}), "captain")


def test_the_royal_supplier_is_a_form_of_checkboxes_that_posts_each_choice():
    state = supplier_state()
    html = render(state, ANNA)
    assert_forms_are_wired(html)
    (form,) = [f for f in Forms(html).forms if base_data(f).get("kind") == "royal_supplier"]
    assert [b["value"] for b in form["boxes"]] == ["corn", "sugar", "coffee"]
    legend = text(section(html, "pr-royal-supplier"))
    assert (
        "Royal supplier: return up to 2 barrels (one per noble you own, each of a different kind)"
    ) in legend
    supplies = {a for a in pr.legal_actions(state) if a.type == "royal_supplier"}
    base = base_data(form)
    chosen = set()
    for size in (1, 2, 3):
        for goods in combinations(["corn", "sugar", "coffee"], size):
            q = query(base)
            q.setlist("goods", list(goods))
            action = pr.action_from_json(action_from_post(q))
            assert action == RoyalSupplier(tuple(pr.GOODS.index(g) for g in goods))
            chosen.add(action)
    assert supplies < chosen  # the three barrels at once: posted, and the engine refuses it
    with pytest.raises(pr.IllegalAction):
        pr.check(state, RoyalSupplier((0, 2, 4)))
    # The loads stay buttons beside it.
    assert Counter(offered(html)) == Counter(a for a in pr.legal_actions(state) if a.type == "load")
    assert "first return barrels for VP (royal supplier)" in text(html)


def test_declining_the_royal_supplier_names_it():
    ships = [("corn", 4), ("sugar", 5), ("indigo", 6)]
    state = _supplier("colonist", 1, {"coffee": 1}, ships=ships)
    state.goods[CORN] -= 4
    state.goods[2] -= 5
    state.goods[INDIGO] -= 6
    state = choose(state, "captain")
    html = render(state, ANNA)
    assert offered(html) == [PASS]
    assert "Do not use the royal supplier" in text(html)


def test_the_hunting_lodge_returns_a_plantation_or_nothing():
    state = position(
        [
            player(island={"corn": (2, 1), "quarry": 1}, city={"hunting_lodge": 1}),
            player(),
            player(),
        ],
        face_up=["sugar", "sugar", "tobacco", "coffee"],
    )
    state = play(choose(state, "settler"), PASS, PASS, PASS)
    assert state.phase == "hunting_lodge"
    html = render(state, ANNA)
    assert Counter(offered(html)) == Counter(pr.legal_actions(state))
    assert set(offered(html)) == {
        DiscardPlantation(CORN, "empty"),
        DiscardPlantation(CORN, "colonist"),
        PASS,
    }
    words = text(html)
    assert "Return one corn plantation (empty) (hunting lodge)" in words
    assert "Return no plantation" in words
    assert "<form" not in section(render(state, BOB), "pr-mine")


def test_seeded_games_render_every_choice_of_both_expansions():
    """Random games with both expansions: each new (phase, kinds of choice) is rendered for
    the seat to act; every legal action is a control, the mayor's form as filled in is legal,
    and what the next seat may not know changes nothing it sees. Games of 3 and 2 players
    in turn, until every kind of choice of the Nobles came (at most eight games)."""
    seen: set[tuple[str, frozenset]] = set()
    rng = random.Random(3)
    nobles_choices = {"arrange", "discard_plantation", "buy_plantation", "royal_supplier"}
    for seed in range(8):
        if nobles_choices <= set().union(*(k for _, k in seen)):
            break
        players = 3 - seed % 2
        state = pr.new_game(players, seed, {"edition": "both"})
        while not pr.is_over(state):
            legal = pr.legal_actions(state)
            kinds = frozenset({"arrange"} if state.phase == "mayor" else {a.type for a in legal})
            if (state.phase, kinds) not in seen:
                seen.add((state.phase, kinds))
                html = render(state, state.current)
                if state.phase == "mayor":
                    pr.check(state, posted(base_data(mayor_form(html))))
                else:
                    # The royal supplier's and the small wharf's choices are forms of their own.
                    forms = ("royal_supplier", "small_wharf")
                    shown = Counter(a for a in legal if a.type not in forms)
                    assert Counter(offered(html)) == shown
                    supplier = 'value="royal_supplier"' in html
                    assert supplier == any(a.type == "royal_supplier" for a in legal)
                    wharf = 'class="pr-small-wharf"' in html
                    assert wharf == any(a.type == "small_wharf" for a in legal)
                other = (state.current + 1) % players
                hidden = state.clone()
                hidden.stack.reverse()
                hidden.rng += 1
                assert render(hidden, other) == render(state, other)
            state = pr.apply(state, legal[rng.randrange(len(legal))])
    assert nobles_choices <= set().union(*(k for _, k in seen))


@pytest.mark.django_db
def test_a_nobles_game_opened_in_the_lobby_shows_the_nobles(django_user_model):
    (anna,) = people(django_user_model, 1)
    client = client_for(anna)
    form = {"num_players": "2", "seat_2": "easy", "option_edition": "nobles"}
    response = client.post(reverse("games:lobby"), form)
    game = Game.objects.get()
    assert response.status_code == 302 and game.options["edition"] == "nobles"
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Nobles in the supply: 19" in page and "· Nobles" in text(page)
    assert "Nobles" in text(client.get(reverse("games:mine")).content.decode())


def test_the_board_of_a_finished_nobles_game_names_its_last_round_and_edition():
    """(Its final table, with the nobles, is the platform's: ``tests/games/test_results``.)"""
    state = pr.new_game(2, 4, {"edition": "nobles"})
    rng = random.Random(4)
    while not pr.is_over(state):
        legal = pr.legal_actions(state)
        state = pr.apply(state, legal[rng.randrange(len(legal))])
    status = text(section(render(state, ANNA), "pr-round"))
    assert status.startswith(f"Round {state.round - 1} · Game over · Nobles"), status


@pytest.mark.parametrize("edition", ["nobles", "both"])
def test_the_nobles_buildings_are_on_the_building_board(edition):
    state = pr.new_game(3, 2, {"edition": edition})
    html = render(state, ANNA)
    nobles = [name for name, b in BUILDINGS.items() if b.expansion == "nobles"]
    assert len(nobles) == 8
    for name in nobles:
        assert f'id="pr-building-{name}"' in html


def test_a_noble_guest_has_buttons_of_its_own():
    players = [
        noble_player(
            island={"corn": 1},
            city={"guest_house": 1, "library": 0},
            city_nobles={"guest_house": 1},
        ),
        player(),
        player(),
    ]
    state = both_position(players)
    html = render(state, ANNA)
    guests = text(section(html, "pr-buttons pr-guests"))
    assert "Move a guest: Corn tile" in guests and "Move a noble guest: Corn tile" in guests
    assert Counter(offered(html)) == Counter(pr.legal_actions(state))


def test_the_forest_button_says_where_the_noble_guest_on_the_drawn_tile_goes():
    state = draw_for_the_forest("land_office", {"corn": (1, 1)}, {}, "noble")
    state = play(state, MoveGuest("tobacco", True))
    html = render(state, ANNA)
    assert Counter(offered(html)) == Counter(pr.legal_actions(state))
    words = text(html)
    assert (
        "Lay the drawn tobacco plantation as a forest (its noble goes to San Juan) "
        "(forest house)" in words
    )
    assert (
        "Gezogene Tabak-Plantage als Wald auslegen (ihr Adliger geht nach San Juan) "
        "(Forsthaus)" in text(german(state, ANNA))
    )
