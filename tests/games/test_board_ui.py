"""The Puerto Rico board: every legal choice is a form control that round-trips to an action
the engine accepts, nothing illegal or hidden is shown, and posted forms parse strictly."""

from __future__ import annotations

import json
import re
from collections import Counter
from html import unescape
from html.parser import HTMLParser

import pytest
from django.http import HttpResponse, QueryDict
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from games import services
from games.engines import puerto_rico as pr
from games.models import Game, Move
from games.registry import get_game
from games.ui.puerto_rico import action_from_post, board_context
from games.ui.puerto_rico_names import BUILDING_NAMES
from tests.engines.positions import ANNA, BOB, CHRIS, NAMES, choose, play, player, position
from tests.engines.test_edge_cases import ELEVEN_SMALL
from tests.engines.test_nobles import NOBLES, noble_player


def render(state: pr.State, seat: int | None, names=NAMES) -> str:
    context = {
        **get_game("puerto_rico").seat_board_context(state, seat, list(names[: state.num_players])),
        "version": 3,
        "move_url": "/x",
        "is_my_turn": True,
        "seat": None,
        "game": None,
    }
    return render_to_string(
        get_game("puerto_rico").template, context, request=RequestFactory().get("/")
    )


class Forms(HTMLParser):
    """Each form's attributes and controls, as a browser would submit them."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._form: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._form = {"attrs": a, "fields": [], "buttons": [], "radios": [], "boxes": []}
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "button"):
            kind = a.get("type", "text" if tag == "input" else "submit")
            if kind == "button":  # the mayor's clicks' helpers: never submitted
                return
            key = {"radio": "radios", "checkbox": "boxes", "submit": "buttons"}.get(kind, "fields")
            self._form[key].append(a)

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None


def base_data(form: dict) -> dict[str, str]:
    return {f["name"]: f.get("value", "") for f in form["fields"]}


def query(data: dict[str, str]) -> QueryDict:
    q = QueryDict(mutable=True)
    for key, value in data.items():
        q[key] = value
    return q


def submissions(html: str) -> list[dict[str, str]]:
    """What each button (or each radio choice) of the page's forms posts."""
    out = []
    for form in Forms(html).forms:
        base = base_data(form)
        out += [{**base, b["name"]: b["value"]} for b in form["buttons"] if b.get("name")]
        out += [{**base, r["name"]: r["value"]} for r in form["radios"]]
    return out


def offered(html: str) -> list[pr.Action]:
    return [pr.action_from_json(action_from_post(query(d))) for d in submissions(html)]


def assert_offers_exactly_the_legal_actions(state: pr.State) -> str:
    """Render for the seat to act; every legal action is a control, and only those."""
    html = render(state, state.current)
    actions = offered(html)
    assert Counter(actions) == Counter(pr.legal_actions(state))
    for action in actions:
        pr.check(state, action)
    assert_forms_are_wired(html)
    return html


def assert_forms_are_wired(html: str) -> None:
    forms = Forms(html).forms
    assert forms
    for form in forms:
        a = form["attrs"]
        assert (a["method"], a["action"], a["hx-post"]) == ("post", "/x", "/x")
        assert (a["hx-target"], a["hx-swap"]) == ("#board", "outerHTML")
        data = base_data(form)
        assert data["version"] == "3"
        assert data["csrfmiddlewaretoken"]


def text(html: str) -> str:
    """The page's words, tags removed, entities read and spaces collapsed (none before
    punctuation)."""
    words = " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
    return re.sub(r"\(\s+", "(", re.sub(r"\s+([,.;:)])", r"\1", words))


def player_board(html: str, seat: int) -> str:
    return re.search(rf'id="pr-player-{seat}".*?</article>', html, re.S).group(0)


def price_shown(html: str, building: str) -> int:
    cell = re.search(rf'id="pr-building-{building}".*?</g>', html, re.S).group(0)
    return int(re.search(r'class="pr-price"[^>]*>(\d+)<', cell).group(1))


# Positions ------------------------------------------------------------------------------


def table(**kw) -> pr.State:
    """Four seats in the role phase, Bob to choose."""
    players = [
        player(doubloons=3, island={"indigo": (1, 1), "quarry": (3, 3)}),
        player(
            doubloons=10,
            goods={"corn": 2, "coffee": 1},
            island={"indigo": (2, 1), "corn": (1, 0), "quarry": (1, 0)},
            city={"indigo_plant": 1, "small_market": 0},
        ),
        player(doubloons=2, goods={"corn": 1}, island={"corn": (1, 1)}),
        player(doubloons=2, island={"corn": (1, 1)}),
    ]
    return position(kw.pop("players", players), seat=kw.pop("seat", BOB), governor=ANNA, **kw)


# Choices per phase ----------------------------------------------------------------------


def test_the_shelf_gives_the_game_its_board():
    spec = get_game("puerto_rico")
    assert spec.template == "games/puerto_rico/board.html"
    assert spec.action_from_post is action_from_post and spec.board_context is board_context
    with pytest.raises(LookupError):
        get_game("chess")


def test_role_buttons_only_for_free_roles_with_their_doubloons():
    state = table(taken={"settler": ANNA}, role_doubloons={"craftsman": 2})
    html = assert_offers_exactly_the_legal_actions(state)
    assert pr.ChooseRole("settler") not in offered(html)
    assert "Craftsman (+2 doubloons)" in text(html)
    assert "taken by Anna" in text(html)
    assert "Bob" in text(html) and "Your turn: choose a role." in text(html)


def test_settler_offers_hacienda_hospice_quarry_and_pass():
    players = [
        player(island={"corn": 1}, city={"hacienda": 1, "hospice": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    state = choose(position(players, face_up=["corn", "sugar", "coffee", "coffee"]), "settler")
    html = assert_offers_exactly_the_legal_actions(state)
    assert Counter(a.type for a in offered(html)) == Counter(
        {"hacienda": 1, "settle": 8, "pass": 1}
    )
    words = text(html)
    assert "Draw a face-down plantation (hacienda)" in words
    assert "Take coffee with a colonist (hospice)" in words
    assert "Take a quarry with a colonist (hospice)" in words
    assert "Take nothing" in words
    assert "Anna" in words

    drawn = play(state, pr.Hacienda())
    html = assert_offers_exactly_the_legal_actions(drawn)
    assert pr.Hacienda() not in offered(html)

    # Bob neither holds the settler's privilege nor has a construction hut: no quarry.
    bob = play(drawn, pr.Pass())
    html = assert_offers_exactly_the_legal_actions(bob)
    assert all(a.type != "settle" or a.tile != pr.QUARRY for a in offered(html))
    assert "Take a quarry" not in text(html)


def mayor_state() -> pr.State:
    return choose(table(colonists=(20, 4)), "mayor")


def test_mayor_screen_has_a_count_per_kind_and_building_prefilled():
    state = mayor_state()
    assert state.current == BOB
    html = render(state, BOB)
    (form,) = Forms(html).forms
    assert_forms_are_wired(html)
    inputs = {f["name"]: f for f in form["fields"] if f.get("type") == "number"}
    # Colonists stay where they are; the newcomer from the ship takes the first free circle.
    assert {n: (f["min"], f["max"], f["value"]) for n, f in inputs.items()} == {
        "island-corn": ("0", "1", "1"),
        "island-indigo": ("0", "2", "1"),
        "island-quarry": ("0", "1", "0"),
        "city-indigo_plant": ("0", "3", "1"),
        "city-small_market": ("0", "1", "0"),
    }
    for name in inputs:
        assert f'<label for="pr-{name}">' in html
    assert base_data(form)["kind"] == "arrange"
    (box,) = form["boxes"]
    assert box["name"] == "privilege"
    words = text(html)
    assert "You have 3 colonists (4 if you take the privilege) for 8 circles" in words
    assert "1 colonist from San Juan is pre-filled on the first free circle; move it" in words
    assert "As filled in, 3 are placed and 0 wait in San Juan" in words
    assert "While a circle is free, no colonist may wait in San Juan." in words


def test_every_mayor_placement_round_trips_and_the_server_judges_the_rest():
    state = mayor_state()
    (form,) = Forms(render(state, BOB)).forms
    base = base_data(form)
    placements = pr.legal_actions(state)
    assert len(placements) > 10
    for arrangement in placements:
        data = dict(base)
        for kind, n in zip(pr.ISLAND_KINDS, arrangement.island, strict=True):
            if f"island-{kind}" in data:
                data[f"island-{kind}"] = str(n)
        city = dict(arrangement.city)
        for name in ("indigo_plant", "small_market"):
            data[f"city-{name}"] = str(city.get(name, 0))
        if arrangement.privilege:
            data["privilege"] = "on"
        action = pr.action_from_json(action_from_post(query(data)))
        assert action == arrangement
        pr.check(state, action)
    # The form as filled in is legal; left as the colonists stood, the engine refuses it.
    pr.check(state, pr.action_from_json(action_from_post(query(base))))
    with pytest.raises(pr.IllegalAction, match="San Juan"):
        pr.check(state, pr.action_from_json(action_from_post(query({**base, "island-corn": "0"}))))


def spots(html: str) -> Counter:
    """The circles of a drawn board that a click arranges (board.js), by the count they fill."""
    return Counter(re.findall(r'<rect class="pr-spot"[^>]* data-field="([^"]+)"', html))


def test_the_mayors_own_circles_are_spots_of_the_counts_the_form_posts():
    state = mayor_state()
    html = render(state, BOB)
    (form,) = Forms(html).forms
    maxima = {f["name"]: int(f["max"]) for f in form["fields"] if f.get("type") == "number"}
    # One spot per circle, each named by the count it changes: the clicks post the form.
    assert spots(player_board(html, BOB)) == maxima
    assert spots(html) == maxima  # nobody else's board has any
    assert 'data-label="Indigo plant, circle 3 of 3"' in html
    for seat in (ANNA, CHRIS, None):  # waiting seats and spectators arrange nothing
        assert spots(render(state, seat)) == Counter()
    # Outside the mayor's decision no circle is a spot.
    assert spots(render(table(), ANNA)) == Counter()


def test_the_mayors_circles_are_spots_for_nobles_too_and_say_so_in_german():
    players = [
        noble_player(island={"corn": 1}, city={"small_market": 0}),
        noble_player(island={"indigo": 1}),
        noble_player(island={"indigo": 1}),
    ]
    state = choose(position(players, options=NOBLES), "mayor")
    html = render(state, state.current)
    (form,) = Forms(html).forms
    fields = {f["name"] for f in form["fields"] if f.get("type") == "number"}
    assert {f"noble-{field}" for field in spots(html)} <= fields
    assert 'data-piece="noble"' in html
    with translation.override("de"):
        german = render(state, state.current)
    assert 'data-label="Kleine Markthalle, Kreis 1 von 1"' in german
    assert "Adlige in San Juan: {count}" in german


def test_the_mayors_board_never_lists_the_placements():
    """They may be millions, counted on demand: the form of counts is drawn without them."""

    class Unlisted(list):
        def __iter__(self):
            raise AssertionError("the placements were listed")

    state = mayor_state()
    context = board_context(
        pr.player_view(state, BOB), list(NAMES[: state.num_players]), Unlisted()
    )
    assert context["pr"]["choices"]["kind"] == "mayor"


def test_only_the_mayor_gets_the_privilege_checkbox():
    state = play(mayor_state(), pr.Arrange((0, 2, 0, 0, 0, 0), (("indigo_plant", 1),)))
    assert state.current == CHRIS
    (form,) = Forms(render(state, CHRIS)).forms
    assert form["boxes"] == []
    empty_supply = choose(table(colonists=(0, 4)), "mayor")
    (form,) = Forms(render(empty_supply, BOB)).forms
    assert form["boxes"] == []


def test_builder_list_with_university_and_the_viewers_prices():
    players = [
        player(doubloons=1, island={"indigo": 1}),
        player(
            doubloons=9,
            island={"quarry": (3, 3), "corn": (1, 1)},
            city={"university": 1},
        ),
        player(doubloons=0, island={"corn": 1}),
    ]
    state = choose(position(players, seat=BOB, governor=ANNA), "builder")
    html = assert_offers_exactly_the_legal_actions(state)
    assert pr.Build("harbor", True) in offered(html)
    assert pr.Build("university") not in offered(html)  # owned already
    assert pr.Build("city_hall") in offered(html)  # 10 - 3 quarries - 1 = 6 of his 9
    words = text(html)
    assert "Build harbor for 4 doubloons with a colonist (university)" in words
    assert "Build nothing" in words
    # The builder in the builder phase: occupied quarries (capped by column) and -1.
    prices = {b: price_shown(html, b) for b in ("construction_hut", "office", "harbor")}
    assert prices == {"construction_hut": 0, "office": 2, "harbor": 4}
    assert price_shown(html, "city_hall") == 6


def test_prices_outside_the_builder_phase_have_no_privilege():
    players = [
        player(island={"indigo": 1}),
        player(doubloons=9, island={"quarry": (3, 3), "corn": (1, 1)}),
        player(island={"corn": 1}),
    ]
    for state in (
        position(players, seat=BOB, governor=ANNA),
        choose(position(players, seat=BOB, governor=ANNA), "trader"),  # Bob is the chooser
    ):
        html = render(state, BOB)
        shown = {b: price_shown(html, b) for b in ("construction_hut", "office", "harbor")}
        assert shown == {"construction_hut": 1, "office": 3, "harbor": 5}
        assert price_shown(html, "city_hall") == 7
    # Another seat's quarries do not lower Anna's prices.
    assert price_shown(render(state, ANNA), "harbor") == 8


def test_spectators_see_costs_but_no_prices():
    html = render(table(), None)
    assert 'class="pr-price"' not in html
    assert "You pay" not in html


def test_craftsman_extra_good_buttons():
    players = [
        player(island={"corn": (2, 2), "sugar": (1, 1)}, city={"small_sugar_mill": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    state = choose(position(players), "craftsman")
    html = assert_offers_exactly_the_legal_actions(state)
    assert {a.good for a in offered(html) if a.type == "extra_good"} == {pr.CORN, pr.SUGAR}
    assert "Take 1 extra sugar" in text(html) and "No extra barrel" in text(html)


def test_trader_sell_buttons_with_the_viewers_price():
    players = [
        player(goods={"coffee": 1, "corn": 1, "indigo": 1}, city={"small_market": 1}),
        player(goods={"coffee": 1}, island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    state = choose(position(players, trading_house=["indigo"]), "trader")
    html = assert_offers_exactly_the_legal_actions(state)
    assert pr.Sell(pr.INDIGO) not in offered(html)  # the house has indigo, Anna no office
    words = text(html)
    assert "Sell 1 coffee for 6 doubloons" in words  # 4 + trader 1 + small market 1
    assert "Sell 1 corn for 2 doubloons" in words
    bob = play(state, pr.Sell(pr.CORN))
    assert "Sell 1 coffee for 4 doubloons" in text(assert_offers_exactly_the_legal_actions(bob))


def test_captain_offers_only_legal_ships_and_the_wharf():
    players = [
        player(goods={"corn": 3, "sugar": 2}, city={"wharf": 1}),
        player(goods={"coffee": 1}, island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    state = choose(position(players, ships=[("corn", 1), (None, 0), (None, 0)]), "captain")
    html = assert_offers_exactly_the_legal_actions(state)
    loads = {(a.good, a.ship) for a in offered(html) if a.type == "load"}
    assert loads == {(pr.CORN, 0), (pr.SUGAR, 1), (pr.SUGAR, 2)}
    assert pr.Pass() not in offered(html)  # loading is compulsory
    words = text(html)
    assert "Load 3 corn on the 4-ship" in words
    assert "Ship all 3 corn on the wharf" in words


def test_captain_pass_is_offered_when_only_the_wharf_could_ship():
    players = [
        player(goods={"corn": 2}, city={"wharf": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    state = choose(position(players, ships=[("corn", 4), (None, 0), (None, 0)]), "captain")
    html = assert_offers_exactly_the_legal_actions(state)
    assert set(offered(html)) == {pr.Wharf(pr.CORN), pr.Pass()}
    assert "Do not use the wharf" in text(html)


def storage_state() -> pr.State:
    players = [
        player(goods={"sugar": 4, "corn": 1, "indigo": 2}, city={"small_warehouse": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    full = [("corn", 4), ("sugar", 5), ("indigo", 6)]
    return choose(position(players, ships=full), "captain")


def test_storage_choices_described_in_words():
    state = storage_state()
    assert state.phase == "storage"
    html = assert_offers_exactly_the_legal_actions(state)
    (form,) = Forms(html).forms
    assert form["radios"] and all("required" in r for r in form["radios"])
    words = text(html)
    assert "keep all 4 sugar (warehouse) and 1 corn; return 2 indigo" in words
    assert "keep all 2 indigo (warehouse) and 1 sugar; return 1 corn and 3 sugar" in words
    assert "keep 1 corn (warehouse) and 1 sugar; return 2 indigo and 3 sugar" in words


# What is shown --------------------------------------------------------------------------


def test_the_face_down_order_and_the_seed_are_never_shown():
    stack = ["corn"] * 6 + ["coffee", "tobacco", "sugar", "coffee", "tobacco", "sugar", "indigo"]
    players = [
        player(island={"corn": 1}, city={"hacienda": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    state = choose(position(players, stack=stack, face_up=["corn"] * 4), "settler")
    for seat in (ANNA, BOB, None):
        context = get_game("puerto_rico").seat_board_context(state, seat, list(NAMES[:3]))

        def lists(value):
            if isinstance(value, dict):
                for v in value.values():
                    yield from lists(v)
            elif isinstance(value, list):
                yield value
                for v in value:
                    yield from lists(v)

        assert all(stack not in (found, found[::-1]) for found in lists(context))
        html = render(state, seat)
        words = text(html)
        assert "Face-down plantations: 13; discarded: 0" in words
        for sequence in ("coffee tobacco sugar", "sugar tobacco coffee", "indigo sugar tobacco"):
            assert sequence not in words.replace(",", "")
        assert str(state.rng) not in html


def test_hidden_vp_are_not_shown_for_other_seats():
    players = [
        player(vp=7, island={"corn": 1}),
        player(vp=58, island={"indigo": 1}),
        player(vp=63, island={"indigo": 1}),
    ]
    state = position(players)
    html = render(state, ANNA)
    assert re.search(r'class="pr-count pr-vp"[^>]*>7<', player_board(html, ANNA))
    for seat in (BOB, CHRIS):
        assert re.search(r'class="pr-count pr-vp"[^>]*>\?<', player_board(html, seat))
        assert "VP chips: hidden." in text(player_board(html, seat))
    spectator = render(state, None)
    assert "VP chips: hidden." in text(player_board(spectator, ANNA))
    for shown in (html, spectator):
        # Numbers are everywhere in a drawing's coordinates; the VP would be an element's text.
        assert not re.search(r">\s*(58|63)\s*<", shown)
        assert not re.search(r"\b(58|63)\b", text(shown))
    open_vp = position(players, options={"hidden_vp": False})
    assert re.search(r'class="pr-count pr-vp"[^>]*>58<', player_board(render(open_vp, ANNA), BOB))


def test_spectators_and_waiting_seats_get_no_forms():
    state = table()
    assert "<form" not in render(state, None)
    assert "<form" not in render(state, ANNA)
    words = text(render(state, ANNA))
    assert "Bob is deciding: choose a role." in words
    trader = choose(table(), "trader")
    assert "Bob is deciding: sell one barrel or pass." in text(render(trader, ANNA))


def test_player_boards_show_island_city_goods_and_roles():
    state = choose(table(), "trader")
    html = player_board(render(state, None), BOB)
    board = text(html)
    assert "10 doubloons." in board
    assert "Corn: 2" in board and "Coffee: 1" in board and "Sugar: 0" in board
    assert "Indigo plant, 1 of 3 colonists." in board and "Small market, 0 of 1 colonist." in board
    assert board.count("Indigo plantation, occupied.") == 1
    assert board.count("Indigo plantation, empty.") == 1
    assert "Corn plantation, empty." in board and "Quarry, empty." in board
    assert re.findall(r'class="pr-badge pr-badge-role">([^<]*)<', html) == ["trader"]
    assert len(re.findall(r'<g class="pr-tile ', html)) == 4
    assert len(re.findall(r'<g class="pr-building ', html)) == 2


def test_game_over_shows_no_choices_and_every_vp_open():
    """(The final table is the platform's, from the game's rows: ``tests/games/test_results``.)"""
    players = [
        player(vp=20, doubloons=3, island={"corn": 1}),
        player(vp=30, doubloons=5, island={"indigo": 1}, city={"residence": 1}),
        player(vp=9, island={"indigo": 1}),
    ]
    data = pr.to_json(position(players))
    data["phase"], data["current"] = "over", None
    html = render(pr.from_json(data), ANNA)
    assert "<form" not in html
    assert "The game is over." in text(html)
    assert re.search(r'class="pr-count pr-vp"[^>]*>30<', player_board(html, BOB))


# Posted forms ---------------------------------------------------------------------------


def test_action_field_is_parsed_and_normalised():
    data = query({"version": "3", "action": json.dumps({"type": "sell", "good": "corn"})})
    assert action_from_post(data) == {"type": "sell", "good": "corn"}
    data = query({"action": '{"type": "settle", "tile": "quarry"}'})
    assert action_from_post(data) == {"type": "settle", "tile": "quarry", "hospice": False}


def test_arrange_form_is_parsed():
    data = query(
        {
            "kind": "arrange",
            "island-corn": "1",
            "island-quarry": " 0 ",
            "city-indigo_plant": "2",
            "privilege": "on",
        }
    )
    assert action_from_post(data) == {
        "type": "arrange",
        "island": {"corn": 1},
        "city": {"indigo_plant": 2},
        "privilege": True,
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "no action"),
        ({"action": ""}, "no action"),
        ({"action": "{not json"}, "not valid JSON"),
        ({"action": "[1, 2]"}, "an action is an object"),
        ({"action": '{"type": "sell", "good": "gold"}'}, "'good' must be one of"),
        ({"action": '{"type": "fly"}'}, "unknown action type"),
        ({"action": json.dumps({"type": "pass", "x": "y" * 600})}, "too long"),
        ({"kind": "trade"}, "unknown form kind"),
        ({"kind": "arrange"}, "no colonist counts"),
        ({"kind": "arrange", "island-corn": "two"}, "whole number"),
        ({"kind": "arrange", "island-corn": "-1"}, "whole number"),
        ({"kind": "arrange", "island-corn": "1.5"}, "whole number"),
        ({"kind": "arrange", "island-corn": "100"}, "whole number"),
        ({"kind": "arrange", "island-corn": ""}, "whole number"),
        ({"kind": "arrange", "island-gold": "1"}, "unknown island tile"),
        ({"kind": "arrange", "city-castle": "1"}, "unknown building"),
        ({"kind": "arrange", "island-corn": "1", "privilege": "yes"}, "privilege"),
        ({f"city-x{i}": "1" for i in range(100)}, "too many"),
    ],
)
def test_malformed_posts_raise_value_error(data, message):
    with pytest.raises(ValueError, match=message):
        action_from_post(query(data))


def test_a_field_sent_twice_is_refused():
    data = QueryDict("action=%7B%22type%22%3A%22pass%22%7D&action=%7B%22type%22%3A%22pass%22%7D")
    with pytest.raises(ValueError, match="more than once"):
        action_from_post(data)
    data = QueryDict("kind=arrange&island-corn=1&island-corn=0")
    with pytest.raises(ValueError, match="more than once"):
        action_from_post(data)


# In German ------------------------------------------------------------------------------


def german(state: pr.State, seat: int | None) -> str:
    with translation.override("de"):
        return render(state, seat)


def words_of(html: str) -> set[str]:
    """The words a reader sees or hears: text, and the titles and labels of elements."""
    shown = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    said = " ".join(re.findall(r'(?:title|aria-label)="([^"]*)"', shown))
    return set(re.findall(r"[^\W\d_]{2,}", text(shown) + " " + said))


def every_kind_of_board() -> list[tuple[pr.State, int | None]]:
    """A board of every phase and choice, from the seat to act, plus a spectator's and the
    final score."""
    settler = [
        player(island={"corn": 1}, city={"hacienda": 1, "hospice": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    builder_players = [
        player(doubloons=9, island={"quarry": (3, 3)}, city={"university": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    craftsman = [
        player(island={"corn": (2, 2), "sugar": (1, 1)}, city={"small_sugar_mill": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    captain = [
        player(goods={"corn": 3, "sugar": 2}, city={"wharf": 1}),
        player(goods={"coffee": 1}, island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    over = pr.to_json(position([player(vp=5, city={"residence": 1}), player(), player()]))
    over["phase"], over["current"] = "over", None
    boards = [
        table(taken={"settler": ANNA}, role_doubloons={"craftsman": 2}),
        choose(position(settler, face_up=["corn", "sugar", "coffee", "coffee"]), "settler"),
        mayor_state(),
        choose(position(builder_players), "builder"),
        choose(position(craftsman), "craftsman"),
        choose(table(), "trader"),
        choose(position(captain, ships=[("corn", 1), (None, 0), (None, 0)]), "captain"),
        storage_state(),
    ]
    return [(state, state.current) for state in boards] + [
        (table(), None),
        (pr.from_json(over), ANNA),
    ]


SAME_IN_BOTH = {"San", "Juan", "an", "in", "In", "Indigo", *NAMES, "II", "III", "IV"}
"""Words the German board may share with the English one: San Juan, indigo, the names."""


def test_every_board_is_in_german_with_no_english_word_left():
    for state, seat in every_kind_of_board():
        english, german_words = words_of(render(state, seat)), words_of(german(state, seat))
        assert german_words & english <= SAME_IN_BOTH, (state.phase, german_words & english)


def test_the_german_board_uses_the_rulebooks_names_and_du():
    words = text(german(table(taken={"settler": ANNA}, role_doubloons={"craftsman": 2}), BOB))
    assert "Aufseher (+2 Dublonen)" in words
    assert "Du bist an der Reihe: eine Rolle wählen." in words
    assert "Siedler, genommen von Anna." in words
    assert "Zunfthalle: Kosten 10" in words and "Kleine Markthalle: Kosten 1" in words
    assert "Durchgang 1 · Rollenwahl · Gouverneur: Anna" in words

    settler = [
        player(island={"corn": 1}, city={"hacienda": 1, "hospice": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    state = choose(position(settler, face_up=["corn", "sugar", "coffee", "coffee"]), "settler")
    words = text(german(state, ANNA))
    assert "Kaffee mit Kolonist nehmen (Hospiz)" in words
    assert "Verdeckte Plantage ziehen (Hazienda)" in words
    assert "Anna ist an der Reihe: eine verdeckte Plantage ziehen (Hazienda)" in text(
        german(state, BOB)
    )

    words = text(german(mayor_state(), BOB))
    assert "Du hast 3 Kolonisten (4, wenn du das Privileg nimmst) für 8 Kreise." in words
    assert "So eingetragen sind 3 verteilt und 0 warten in San Juan." in words

    words = text(german(storage_state(), ANNA))
    assert "alle 4 Zucker (Lagerhaus) und 1 Mais behalten; 2 Indigo zurückgeben" in words


def test_a_refused_form_field_is_explained_in_german():
    with translation.override("de"), pytest.raises(ValueError, match="ganze Zahl von 0 bis 99"):
        action_from_post(query({"kind": "arrange", "island-corn": "zwei"}))


def test_a_malformed_action_is_explained_in_german():
    """The engine's refusal of a malformed action reaches the form by its code, not its
    English sentence."""
    with translation.override("de"), pytest.raises(ValueError) as refused:
        action_from_post(query({"action": '{"type": "sell", "good": "gold"}'}))
    assert "muss" in str(refused.value) and "must" not in str(refused.value)


# On the game page -----------------------------------------------------------------------

HTMX = {"HTTP_HX_REQUEST": "true"}


def people(django_user_model, count: int = 3) -> list:
    return [
        django_user_model.objects.create_user(name, password="pw")
        for name in ("anna", "bob", "chris", "david")[:count]
    ]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def started(users) -> Game:
    game = services.create_game(users[0], engine="puerto_rico", num_players=len(users))
    for user in users[1:]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def holder(game: Game, users, position: int | None = None):
    """The user at ``position``, by default the one to act."""
    game = Game.objects.get(pk=game.pk)
    seat = game.seats.get(position=game.current_position if position is None else position)
    return next(u for u in users if u.pk == seat.user_id)


def one_move_from_the_end(users) -> Game:
    """A running game in which the seat to act ends the game by taking the captain: the
    12th city space was built this round, and nothing happens in the phases left."""
    players = [player(doubloons=4, city=ELEVEN_SMALL), player(), player()]
    state = play(choose(position(players), "builder"), pr.Build("office"))
    state = choose(state, "trader")
    assert state.end_reasons == ["city"] and not pr.is_over(state)
    assert pr.is_over(choose(state, "captain"))
    game = started(users)
    Game.objects.filter(pk=game.pk).update(state=pr.to_json(state), current_position=state.current)
    return Game.objects.get(pk=game.pk)


def post(client, game: Game, data: dict) -> HttpResponse:
    return client.post(reverse("games:move", args=[game.pk]), data, **HTMX)


def section(html: str, css: str) -> str:
    return re.search(rf'<(\w+) [^>]*class="{css}".*?</\1>', html, re.S).group(0)


def opening_tag(html: str, element_id: str) -> str:
    return re.search(rf'<\w+ id="{element_id}"[^>]*>', html).group(0)


def log_items(html: str) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", html)


@pytest.mark.django_db
def test_the_boards_log_reads_in_the_order_of_the_full_log(django_user_model):
    users = people(django_user_model)
    game = started(users)
    for role in ("craftsman", "builder"):
        services.submit_move(
            game.pk, {"type": "choose_role", "role": role}, user=holder(game, users)
        )
    assert Move.objects.filter(game=game).count() >= 2
    client = client_for(users[0])
    board = section(client.get(game.get_absolute_url()).content.decode(), "log")
    full = client.get(reverse("games:log", args=[game.pk])).content.decode()
    in_order = log_items(section(full, "full-log"))
    assert len(in_order) > 4
    # The moves since the viewer's last one, then the earlier ones folded: each oldest first.
    since, _, earlier = board.partition("<details>")
    assert log_items(earlier) + log_items(since) == in_order


@pytest.mark.django_db
def test_a_refused_placement_is_explained_next_to_the_form_as_entered(django_user_model):
    users = people(django_user_model)
    game = started(users)
    mayor = holder(game, users)
    services.submit_move(game.pk, {"type": "choose_role", "role": "mayor"}, user=mayor)
    game.refresh_from_db()
    client = client_for(mayor)
    page = client.get(game.get_absolute_url()).content.decode()
    (form,) = Forms(section(page, "pr-choices")).forms
    counts = [f["name"] for f in form["fields"] if f.get("type") == "number"]
    data = {**base_data(form), **dict.fromkeys(counts, "0"), "privilege": "on"}

    response = post(client, game, data)

    assert response.status_code == 400
    html = response.content.decode()
    assert html.count('class="flash error"') == 1
    choices = section(html, "pr-choices")
    assert re.search(r'class="flash error" role="alert">[^<]*\w[^<]*</p>', choices)
    (again,) = Forms(choices).forms
    assert {f["name"]: f["value"] for f in again["fields"] if f["name"] in counts} == dict.fromkeys(
        counts, "0"
    )
    (box,) = again["boxes"]
    assert "checked" in box
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.django_db
def test_the_last_move_turns_the_pages_status_line_to_finished_and_stops_polling(
    django_user_model,
):
    users = people(django_user_model)
    game = one_move_from_the_end(users)
    last, waiting = holder(game, users), holder(game, users, (game.current_position + 1) % 3)
    page = client_for(waiting).get(game.get_absolute_url()).content.decode()
    running = game.get_status_display()
    kind = '<span class="game-kind">casual</span>'
    assert f'<small id="game-status">3 players · base game · {kind} · {running}</small>' in page
    trigger = re.search(r'hx-trigger="([^"]*)"', opening_tag(page, "board")).group(1)
    assert "every 1s [document.visibilityState === 'visible']" in trigger
    assert "every 15s [document.visibilityState === 'hidden']" in trigger

    version = game.version
    captain = json.dumps({"type": "choose_role", "role": "captain"})
    answer = post(client_for(last), game, {"version": version, "action": captain})

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    finished = game.get_status_display()
    poll = client_for(waiting).get(reverse("games:poll", args=[game.pk]), {"v": version}, **HTMX)
    for html in (answer.content.decode(), poll.content.decode()):
        oob = (
            '<small id="game-status" hx-swap-oob="true">'
            f"3 players · base game · {kind} · {finished}</small>"
        )
        assert oob in html
        assert "hx-trigger" not in html and "hx-get" not in html
    assert "hx-trigger" not in client_for(waiting).get(game.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_the_board_of_the_player_to_act_is_polled_and_says_so_a_cancelled_game_is_not(
    django_user_model,
):
    users = people(django_user_model)
    game = started(users)
    page = client_for(holder(game, users)).get(game.get_absolute_url()).content.decode()
    assert f"?v={game.version}&amp;turn=1" in opening_tag(page, "board")
    waiting = services.create_game(users[0], engine="puerto_rico", num_players=3)
    services.cancel_game(waiting.pk, users[0])
    page = client_for(users[0]).get(waiting.get_absolute_url()).content.decode()
    assert 'id="board"' not in page and "hx-trigger" not in page


# The German rulebook's building names (shared/rules/names-de.md, headings' capitals; the full
# "kleine" where the rulebook only abbreviates "kl.").
GERMAN_BUILDING_NAMES = {
    "small_indigo_plant": "kleine Indigoküperei",
    "small_sugar_mill": "kleine Zuckermühle",
    "indigo_plant": "große Indigoküperei",
    "sugar_mill": "große Zuckermühle",
    "tobacco_storage": "Tabakspeicher",
    "coffee_roaster": "Kaffeerösterei",
    "small_market": "Kleine Markthalle",
    "hacienda": "Hazienda",
    "construction_hut": "Bauhütte",
    "small_warehouse": "Kleines Lagerhaus",
    "hospice": "Hospiz",
    "office": "Kontor",
    "large_market": "Große Markthalle",
    "large_warehouse": "Großes Lagerhaus",
    "factory": "Manufaktur",
    "university": "Universität",
    "harbor": "Hafen",
    "wharf": "Werft",
    "guild_hall": "Zunfthalle",
    "residence": "Residenz",
    "fortress": "Festung",
    "customs_house": "Zollhaus",
    "city_hall": "Rathaus",
    # Expansion I (names-de.md)
    "aqueduct": "Aquädukt",
    "forest_house": "Forsthaus",
    "black_market": "Schwarzmarkt",
    "storehouse": "Lagerhalle",
    "guest_house": "Gasthaus",
    "trading_post": "Handelsposten",
    "church": "Kirche",
    "small_wharf": "Kleine Werft",
    "lighthouse": "Leuchtturm",
    "specialty_factory": "Monofaktur",
    "library": "Bibliothek",
    "union_hall": "Gildenhaus",
    "statue": "Statue",
    "cloister": "Kloster",
    # Expansion II, the Nobles
    "land_office": "Grundbuchamt",
    "chapel": "Kapelle",
    "hunting_lodge": "Jagdschloss",
    "building_office": "Bauamt",
    "royal_supplier": "Hoflieferant",
    "villa": "Villa",
    "jeweler": "Juwelier",
    "royal_garden": "Hofgarten",
}


def test_every_building_of_the_engine_has_its_english_and_german_name():
    assert set(BUILDING_NAMES) == set(pr.BUILDINGS)
    with translation.override("en"):
        assert {n: str(t) for n, t in BUILDING_NAMES.items()} == {
            n: n.replace("_", " ") for n in pr.BUILDINGS
        }
    with translation.override("de"):
        assert {n: str(t) for n, t in BUILDING_NAMES.items()} == GERMAN_BUILDING_NAMES


def test_a_two_player_table_shows_its_two_ships_seven_roles_and_three_choices_each():
    state = pr.new_game(2, 5)
    for role in ("prospector", "builder"):
        state = pr.apply(state, pr.ChooseRole(role))
        while state.phase not in ("role", "over"):
            state = pr.apply(state, pr.legal_actions(state)[-1])
    state = pr.apply(state, pr.ChooseRole("trader"))  # Anna's second role of the round
    html = render(state, BOB)
    words = text(html)
    assert re.findall(r'<g class="pr-ship[ "][^>]*><title>(\d-ship, empty)\.', html) == [
        "4-ship, empty",
        "6-ship, empty",
    ]
    assert len(re.findall(r'class="pr-role[ "]', html)) == 7
    assert "Each of you chooses 3 roles a round, in turn." in words
    roles = re.findall(r'class="pr-badge pr-badge-role">([^<]*)<', player_board(html, ANNA))
    assert roles == ["trader", "prospector"]
    with translation.override("de"):
        words = text(render(state, BOB))
    assert "Ihr wählt abwechselnd je 3 Rollen pro Durchgang." in words


def test_with_three_or_more_players_each_chooses_one_role_and_no_note_says_otherwise():
    words = text(render(table(), BOB))
    assert "roles a round" not in words
