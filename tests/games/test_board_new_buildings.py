"""The board of a New Buildings game: the draft screen, forests and guests on the player
boards, a form for every new choice that posts exactly the engine's action, nothing hidden
shown, and the lobby offering the editions that can be played."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.engines import puerto_rico as pr
from games.forms import NewGameForm
from games.models import Game, Move
from games.ui.puerto_rico import action_from_post
from games.ui.puerto_rico_rules import building_rule
from tests.engines.positions import ANNA, BOB, choose, play, player
from tests.engines.test_new_buildings import NEW, nb_position
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


def new_game(seed: int = 1) -> pr.State:
    return pr.new_game(3, seed, NEW)


def assert_offers_the_legal_actions(state: pr.State) -> str:
    """Render for the seat to act: every legal action is a button or a radio, but the small
    wharf's barrels, which are counts in a form of their own."""
    html = render(state, state.current)
    legal = pr.legal_actions(state)
    if state.phase == "mayor":  # one form of counts (tests/games/test_board_ui.py)
        assert '<input type="hidden" name="kind" value="arrange">' in html
        return html
    assert Counter(offered(html)) == Counter(a for a in legal if a.type != "small_wharf")
    assert ('class="pr-small-wharf"' in html) == any(a.type == "small_wharf" for a in legal)
    assert_forms_are_wired(html)
    return html


# The draft ------------------------------------------------------------------------------


def test_the_draft_screen_lists_the_candidates_with_their_rules_and_who_picks():
    state = new_game()
    html = assert_offers_the_legal_actions(state)
    draft = section(html, "pr-draft pr-choices")
    # The 17 violet kinds of the base game and the 14 new ones, each with its rule.
    candidates = re.findall(r'<li class="pr-candidate.*?</li>', draft, re.S)
    assert len(candidates) == 31
    for name in ("church", "office", "trading_post", "statue", "city_hall"):
        assert building_rule(name).replace("'", "&#x27;") in draft
    words = text(draft)
    assert "Your pick:" in words and "17 spaces of the board are free (12 small, 5 large)" in words
    assert "Always the office or the trading post, never both" in words
    assert "pr-candidate-refusal" not in draft
    # The building board: production buildings and 17 free violet spaces.
    assert html.count('class="pr-building is-space"') == 17
    assert 'id="pr-building-coffee_roaster"' in html and 'id="pr-building-church"' not in html

    waiting = text(section(render(state, BOB), "pr-draft pr-choices"))
    assert "Anna picks." in waiting and "Draft " not in waiting
    assert "<form" not in section(render(state, BOB), "pr-mine")


def draft_columns(html: str) -> list[str]:
    """The draft's four columns, as the board has them: costs 1-3, 4-6, 7-9 and large."""
    return section(html, "pr-draft pr-choices").split('<div class="pr-draft-column">')[1:]


def candidate_names(column: str) -> list[str]:
    return re.findall(r'<li class="pr-candidate.*?<strong>(.*?)</strong>', column, re.S)


def test_the_draft_is_a_grid_of_the_boards_columns_with_their_spaces_and_candidates():
    state = new_game()
    columns = draft_columns(render(state, ANNA))
    heads = [text(re.search(r"<h3>.*?</h3>", c, re.S).group(0)) for c in columns]
    assert heads == [
        "Cost 1\u20133 4 spaces free",
        "Cost 4\u20136 4 spaces free",
        "Cost 7\u20139 4 spaces free",
        "Large buildings 5 spaces free",
    ]
    # Each candidate in the column of its cost, cheapest first; a space for each cost.
    for column, (low, high) in zip(columns, [(1, 3), (4, 6), (7, 9), (10, 10)], strict=True):
        costs = [int(c) for c in re.findall(r'<span class="pr-draft-coin"[^>]*>(\d+)<', column)]
        assert costs == sorted(costs) and {low, high} <= set(costs) <= set(range(low, high + 1))
    assert candidate_names(columns[0])[:2] == ["Small market", "Aqueduct"]
    assert "Statue" in candidate_names(columns[3]) and "Statue" not in candidate_names(columns[2])
    assert [len(candidate_names(c)) for c in columns] == [8, 8, 8, 7]
    assert [c.count('<li class="pr-draft-space"') for c in columns] == [4, 4, 4, 5]


def test_each_candidate_is_a_small_card_its_rule_folded_and_its_button_described_by_it():
    html = section(render(new_game(), ANNA), "pr-draft pr-choices")
    church = re.search(r'<li class="pr-candidate[^"]*"[^>]*title="Church: .*?</li>', html, re.S)
    church = church.group(0)
    rule = building_rule("church").replace("'", "&#x27;")
    assert f'<p id="pr-draft-rule-church">{rule}</p></details>' in church
    assert 'aria-label="Draft Church" aria-describedby="pr-draft-rule-church"' in church
    assert "2 VP" in text(church) and "cost 5, 2 VP, circles: 1" in text(church)
    # The rule is one folded line, the whole of it behind "Rules".
    fold = re.search(r'<details class="pr-draft-rules">.*?</summary>', html, re.S).group(0)
    assert "always the office or the trading post, never both." in text(fold)
    assert text(fold).endswith("Rules")


def test_a_drafted_building_takes_its_space_and_the_office_shuts_out_the_trading_post():
    state = play(new_game(), pr.Draft("office"))
    html = assert_offers_the_legal_actions(state)
    assert html.count('class="pr-building is-space"') == 16
    assert 'id="pr-building-office"' in html
    columns = draft_columns(html)
    spaces = text(re.search(r'<ul class="pr-draft-spaces">.*?</ul>', columns[1], re.S).group(0))
    assert spaces == "cost 4 free space cost 5 Office (Anna) cost 5 free space cost 6 free space"
    assert "Cost 4\u20136 3 spaces free" in text(columns[1])
    assert "Trading post" not in candidate_names(columns[1])
    assert "Office" not in candidate_names(columns[1])
    assert "Bob picks." in text(section(render(state, ANNA), "pr-draft pr-choices"))


def test_the_last_space_of_cost_5_says_it_is_kept_for_the_office_or_the_trading_post():
    state = play(new_game(), pr.Draft("church"))
    html = assert_offers_the_legal_actions(state)
    candidates = re.findall(r'<li class="pr-candidate.*?</li>', html, re.S)
    large_market = text(next(c for c in candidates if "Large market" in c))
    assert "The last space of cost 5 takes the office or the trading post" in large_market
    assert "Draft Large market" not in large_market
    noted = [c for c in candidates if "pr-candidate-refusal" in c]
    assert len(noted) == 1  # the office and the trading post may still be drafted
    assert "Der letzte Bauplatz für 5 Dublonen gehört dem Kontor oder dem Handelsposten" in text(
        german(state, BOB)
    )


def test_the_draft_reads_in_german():
    words = text(german(new_game(), ANNA))
    assert "Auswahl der Gebäude" in words and "Du wählst:" in words
    assert "Immer das Kontor oder den Handelsposten, nie beide" in words
    assert "Die neuen Gebäude" in words and "Kosten 1\u20133 4 Bauplätze frei" in words
    assert 'aria-label="Kirche wählen"' in german(new_game(), ANNA)


# Every phase of a game ------------------------------------------------------------------

NEW_CHOICES = {"draft", "forest", "move_guest", "small_wharf", "black_market", "trading_post"}


def kind(action: pr.Action) -> str:
    if action.type == "build" and action.black_market:
        return "black_market"
    if action.type == "sell" and action.trading_post:
        return "trading_post"
    return action.type


def test_every_phase_of_seeded_games_renders_every_choice_and_hides_the_stack():
    """Seeded games of random legal moves, until every choice but guests' and forests' came
    (at most eight games); each (phase, kind of choice) is rendered the first time it comes,
    for the seat to act and for the next seat."""
    seen: set[tuple[str, str]] = set()
    rng = random.Random(5)
    for seed in range(8):
        if {k for _, k in seen} >= NEW_CHOICES - {"forest", "move_guest"}:
            break
        state = new_game(seed)
        while not pr.is_over(state):
            legal = pr.legal_actions(state)
            fresh = {(state.phase, kind(a)) for a in legal} - seen
            if fresh:
                seen |= fresh
                assert_offers_the_legal_actions(state)
                other = render(state, (state.current + 1) % 3)
                assert "<form" not in other
                # What the seat may not know changes nothing it sees.
                hidden = state.clone()
                hidden.stack.reverse()
                hidden.rng += 1
                assert render(hidden, (state.current + 1) % 3) == other
            state = pr.apply(state, rng.choice(legal))
    phases = {phase for phase, _ in seen}
    assert phases >= {"draft", "role", "settler", "mayor", "builder", "craftsman", "trader"}
    assert {"captain", "storage"} <= phases
    assert {k for _, k in seen} >= NEW_CHOICES - {"forest", "move_guest"}


# Player boards --------------------------------------------------------------------------


def test_forests_and_guests_are_drawn_in_their_own_shapes():
    players = [
        player(island={"corn": (1, 1)}, city={"guest_house": 2, "forest_house": 1}),
        player(island={"indigo": 1}),
        player(),
    ]
    state = nb_position(players, forests={ANNA: 2})
    board = player_board(render(state, BOB), ANNA)
    forests = re.findall(r'<g class="pr-tile is-forest".*?</g>', board, re.S)
    assert len(forests) == 2
    assert all(">F<" in f and 'class="pr-tree"' in f and "<circle" not in f for f in forests)
    assert "<title>Forest. Forest (New Buildings)" in forests[0]
    house = re.search(r"<g class=\"pr-building is-violet\"[^>]*><title>Guest house.*?</g>", board)
    assert house.group(0).count("is-guest") == 2 and "is-colonist" not in house.group(0)
    assert "2 of 2 guests" in house.group(0)
    corn = re.search(r'<g class="pr-tile good-corn".*?</g>', board, re.S).group(0)
    assert "is-colonist" in corn and "is-guest" not in corn
    assert ">W<" in player_board(german(state, BOB), ANNA)


def test_a_tile_drawn_for_the_forest_house_is_face_down_to_the_others():
    """Anna draws with her hacienda and may still lay the tile as a forest: her board shows
    her the tobacco, Bob's page a face-down tile, and the log names it to nobody."""
    players = [player(city={"hacienda": 1, "forest_house": 1}), player(), player()]
    state = nb_position(players, stack=["corn", "tobacco"])
    state = play(choose(state, "settler"), pr.Hacienda())
    mine, bobs = player_board(render(state, ANNA), ANNA), player_board(render(state, BOB), ANNA)
    assert "pr-tile good-tobacco" in mine and "is-face-down" not in mine
    assert "pr-tile good-tobacco" not in bobs and "Tobacco plantation" not in bobs
    tile = re.search(r'<g class="pr-tile is-face-down".*?</g>', bobs, re.S).group(0)
    assert "only its owner has seen it" in tile and 'class="pr-tree"' not in tile
    german_tile = re.search(r'class="pr-tile is-face-down".*?</g>', german(state, BOB), re.S)
    assert "Nur ihr Besitzer hat sie angeschaut" in german_tile.group(0)


def test_the_status_line_names_the_edition():
    state = nb_position([player(), player(), player()])
    assert "Round 1 · Choosing a role · governor: Anna · New Buildings" in text(render(state, ANNA))


# The new choices, each a form that posts the engine's action ----------------------------


def black_market_state() -> pr.State:
    players = [
        player(
            doubloons=4,
            vp=1,
            goods={"indigo": 1},
            island={"indigo": (1, 1)},
            city={"black_market": 1},
        ),
        player(),
        player(),
    ]
    return choose(nb_position(players), "builder")


def test_black_market_builds_are_radios_saying_what_is_given_up():
    html = assert_offers_the_legal_actions(black_market_state())
    (form,) = [f for f in Forms(html).forms if f["attrs"]["class"] == "pr-black-market"]
    labels = text(section(html, "pr-black-market"))
    # The library costs 8, 7 for the builder: his 4 doubloons and three payments.
    assert (
        "Build library for all your 4 doubloons and a colonist from indigo tile, 1 indigo and"
        in (labels)
    )
    assert len(form["radios"]) == sum(
        1 for a in pr.legal_actions(black_market_state()) if a.type == "build" and a.black_market
    )


def test_the_trading_post_sale_and_the_librarys_double_privilege():
    players = [
        player(goods={"coffee": 1}, city={"trading_post": 1, "library": 1}),
        player(),
        player(),
    ]
    state = choose(nb_position(players, trading_house=["coffee"]), "trader")
    html = assert_offers_the_legal_actions(state)
    words = text(html)
    # Plain price 4, the trader's privilege twice with the library.
    assert "Sell 1 coffee to the supply for 6 doubloons (trading post)" in words
    assert "with the trader's privilege twice (library)" in words


def small_wharf_state() -> pr.State:
    players = [
        player(goods={"corn": 3, "sugar": 1}, city={"small_wharf": 1}),
        player(),
        player(),
    ]
    full = [("corn", 4), ("sugar", 5), ("indigo", 6)]
    return choose(nb_position(players, ships=full), "captain")


def test_the_small_wharf_form_posts_its_barrels():
    html = assert_offers_the_legal_actions(small_wharf_state())
    (form,) = [f for f in Forms(html).forms if f["attrs"]["class"] == "pr-small-wharf"]
    counts = {f["name"]: f["max"] for f in form["fields"] if f.get("type") == "number"}
    assert counts == {"wharf-corn": "3", "wharf-sugar": "1"}
    data = {**base_data(form), "wharf-corn": "2", "wharf-sugar": "1"}
    assert action_from_post(query(data)) == {
        "type": "small_wharf",
        "goods": {"corn": 2, "sugar": 1},
    }
    with translation.override("de"), pytest.raises(ValueError, match="ganze Zahl"):
        action_from_post(query({**data, "wharf-corn": "zwei"}))


def test_storehouse_choices_name_the_barrels_it_keeps():
    players = [
        player(goods={"corn": 2, "indigo": 3}, city={"storehouse": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    full = [("corn", 4), ("sugar", 5), ("indigo", 6)]
    state = choose(nb_position(players, ships=full), "captain")
    assert state.phase == "storage"
    html = assert_offers_the_legal_actions(state)
    assert "keep 1 corn, 1 corn (storehouse) and 2 indigo (storehouse); return 1 indigo" in text(
        html
    )


def test_guest_moves_and_forests_are_buttons_beside_the_phase():
    players = [
        player(
            island={"corn": (1, 0)},
            city={"guest_house": 1, "hacienda": 1, "forest_house": 1},
        ),
        player(),
        player(),
    ]
    state = choose(nb_position(players, face_up=["sugar", "coffee", "coffee", "corn"]), "settler")
    state = play(state, pr.Pass())  # the guest window at the phase's start
    html = assert_offers_the_legal_actions(state)
    words = text(html)
    assert "Move a guest: Corn tile" in words
    assert "Lay coffee as a forest (forest house)" in words
    assert "you may also move a guest (guest house)" in words
    drawn = play(state, pr.Hacienda())
    words = text(assert_offers_the_legal_actions(drawn))
    kind_drawn = pr.ISLAND_KINDS[drawn.drawn]
    assert f"Lay the drawn {kind_drawn} plantation as a forest (forest house)" in words


def guest_window_state() -> pr.State:
    """Bob, not the craftsman, is asked before production whether to move his guest."""
    players = [
        player(),
        player(island={"corn": (1, 0)}, city={"guest_house": 1, "small_market": 0}),
        player(),
    ]
    state = choose(nb_position(players), "craftsman")
    assert (state.phase, state.current) == ("guests", BOB)
    return state


def test_a_guest_window_asks_to_move_a_guest_or_go_on():
    state = guest_window_state()
    html = assert_offers_the_legal_actions(state)
    words = text(html)
    assert "Before production: move a guest from your guest house?" in words
    assert "Move a guest: Corn tile" in words and "Move a guest: Small market" in words
    assert text(section(html, "pr-buttons pr-buttons-guests")) == "Go on without moving a guest"
    # The question and its moves first, going on after them.
    assert words.index("Move a guest: Small market") < words.index("Go on without moving a guest")
    assert "before production, move a guest from the guest house or go on" in words
    assert "you may also move a guest" not in words
    words = text(german(state, BOB))
    assert "Vor der Produktion: einen Gast aus deinem Gasthaus versetzen?" in words
    assert "Weiter, ohne einen Gast zu versetzen" in words


# Through the page -----------------------------------------------------------------------


def running(users, state: pr.State) -> Game:
    """A three-seat game of ``state``'s edition, set to ``state``."""
    edition = {"edition": state.options.get("edition", "base")}
    game = services.create_game(users[0], engine="puerto_rico", num_players=3, options=edition)
    for user in users[1:]:
        services.join_game(game.pk, user)
    data = pr.to_json(state)
    Game.objects.filter(pk=game.pk).update(
        initial_state=data, state=data, current_position=state.current
    )
    return Game.objects.get(pk=game.pk)


def seat_user(game: Game, users, position: int):
    return next(u for u in users if u.pk == game.seats.get(position=position).user_id)


@pytest.mark.django_db
def test_each_new_form_posts_its_action_through_the_page(django_user_model):
    users = people(django_user_model)
    cases = [
        (new_game(), "pr-draft pr-choices", {}),
        (black_market_state(), "pr-black-market", {}),
        (small_wharf_state(), "pr-small-wharf", {"wharf-corn": "2", "wharf-sugar": "1"}),
        (guest_window_state(), "pr-buttons pr-guests", {}),
        (guest_window_state(), "pr-buttons pr-buttons-guests", {}),
    ]
    for state, css, entered in cases:
        game = running(users, state)
        client = client_for(seat_user(game, users, state.current))
        page = client.get(game.get_absolute_url()).content.decode()
        (form,) = Forms(section(page, css)).forms
        data = {**base_data(form), **entered}
        chosen = form["buttons"][0] if form["buttons"][0].get("name") else None
        if chosen:
            data[chosen["name"]] = chosen["value"]
        elif form["radios"]:
            data["action"] = form["radios"][-1]["value"]
        response = post(client, game, data)
        assert response.status_code == 200, response.content.decode()[:300]
        move = Move.objects.filter(game=game).latest("version")
        assert move.action == action_from_post(query(data))
        assert pr.action_from_json(move.action) in pr.legal_actions(state)


@pytest.mark.django_db
def test_a_refused_small_wharf_is_explained_next_to_the_form_in_german(django_user_model):
    users = people(django_user_model)
    state = small_wharf_state()
    game = running(users, state)
    captain = seat_user(game, users, state.current)
    captain.language = "de"
    captain.save()
    client = client_for(captain)
    # The requests switch the thread's language: the override puts it back after.
    with translation.override("en"):
        page = client.get(game.get_absolute_url()).content.decode()
        (form,) = Forms(section(page, "pr-small-wharf")).forms
        data = {**base_data(form), "wharf-corn": "0", "wharf-sugar": "0"}
        response = post(client, game, data)
    assert response.status_code == 400
    choices = section(response.content.decode(), "pr-choices")
    assert "verschiffe wenigstens einen Warenstein über die kleine Werft" in choices
    assert Game.objects.get(pk=game.pk).version == game.version


# The lobby ------------------------------------------------------------------------------


def test_the_lobby_offers_every_edition_in_words():
    with translation.override("de"):
        field = NewGameForm(engine="puerto_rico").fields["option_edition"]
        assert [(v, str(w)) for v, w in field.choices] == [
            ("base", "Basisspiel"),
            ("new_buildings", "Die neuen Gebäude"),
            ("nobles", "Die Adligen"),
            ("both", "Die neuen Gebäude und Die Adligen"),
        ]


@pytest.mark.django_db
def test_a_new_buildings_game_opened_in_the_lobby_starts_with_the_draft(django_user_model):
    (anna,) = people(django_user_model, 1)
    client = client_for(anna)
    form = {
        "num_players": "3",
        "seat_2": "easy",
        "seat_3": "easy",
        "option_hidden_vp": "on",
        "option_edition": "new_buildings",
    }
    response = client.post(reverse("games:lobby"), form)
    game = Game.objects.get()
    assert response.status_code == 302 and game.options["edition"] == "new_buildings"
    mine = text(client.get(reverse("games:mine")).content.decode())
    assert f"Game {game.pk} · Puerto Rico New Buildings" in mine
    page = client.get(game.get_absolute_url()).content.decode()
    assert "3 players · New Buildings" in page and 'class="pr-draft pr-choices"' in page
    refused = client.post(reverse("games:lobby"), {**form, "option_edition": "cathedrals"})
    assert refused.status_code == 400 and Game.objects.count() == 1
