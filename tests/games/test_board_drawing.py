"""The drawn board: the pieces of a known position where they belong, a name for every piece,
drawn choices that are exactly buttons of "Your choice", nothing hidden in any seat's drawing,
and the rules page."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engines import puerto_rico as pr
from games.ui.puerto_rico_drawing import CITY_COLUMNS, CITY_ROWS, city_cells
from games.ui.puerto_rico_names import BUILDING_NAMES
from games.ui.puerto_rico_rules import COMPONENT_RULES, ROLE_RULES, building_rule
from tests.engines.positions import ANNA, BOB, CHRIS, choose, player, position
from tests.games.test_board_ui import Forms, player_board, render, table, text


def groups(html: str, css: str) -> list[str]:
    """The drawn pieces (``<g>`` without nested groups) whose class starts with ``css``."""
    return re.findall(rf'<g class="{css}[ "][^>]*>(?:(?!<g ).)*?</g>', html, re.S)


def title_of(piece: str) -> str:
    return re.search(r"<title>([^<]*)</title>", piece).group(1)


def test_a_known_position_is_drawn_piece_by_piece():
    html = render(table(), BOB)
    bob = player_board(html, BOB)
    # Island in the kinds' order: corn, indigo (one occupied), quarry; one circle each.
    tiles = groups(bob, "pr-tile")
    assert [title_of(t).split(".")[0] for t in tiles] == [
        "Corn plantation, empty",
        "Indigo plantation, occupied",
        "Indigo plantation, empty",
        "Quarry, empty",
    ]
    assert [t.count("is-colonist") for t in tiles] == [0, 1, 0, 0]
    assert [re.search(r'class="pr-letter"[^>]*>(\w+)<', t).group(1) for t in tiles] == [
        "C",
        "I",
        "I",
        "Q",
    ]
    # City: production buildings in their good's colour, the others violet; circles filled
    # as the colonists stand.
    plant, market = groups(bob, "pr-building")
    assert 'class="pr-building good-indigo"' in plant and plant.count("pr-slot") == 3
    assert plant.count("is-colonist") == 1 and ">Indigo plant<" in plant
    assert 'class="pr-building is-violet"' in market and market.count("pr-slot") == 1
    assert "is-colonist" not in market
    money = re.search(r'<g class="pr-money".*?</g>', bob, re.S).group(0)
    assert "<title>10 doubloons." in money and re.search(r'class="pr-count"[^>]*>10<', money)
    assert "Corn: 2" in text(bob) and "Coffee: 1" in text(bob)
    # The table: 7 role cards, the 5-, 6- and 7-ship, 4 free spaces of the trading house.
    assert len(groups(html, "pr-role")) == 7
    ships = groups(html, "pr-ship")
    assert [s.count('class="pr-hold"') for s in ships] == [5, 6, 7]
    house = re.search(r'<g class="pr-house".*?</g>', html, re.S).group(0)
    assert house.count('class="pr-hold"') == 4
    assert len(groups(html, "pr-building")) == 2  # only Bob has buildings
    # A base game's board: the 23 buildings of the base game, none of the expansions'.
    assert len(re.findall(r'<g id="pr-building-\w+" class="pr-building ', html)) == 23


def test_the_own_board_and_choices_come_before_the_table_and_the_others_are_smaller():
    html = render(table(), BOB)
    mine = html.index('class="pr-mine"')
    assert mine < html.index('id="pr-player-1"') < html.index('class="pr-choices"')
    assert html.index('class="pr-choices"') < html.index('class="pr-center"')
    others = html[html.index('class="pr-players"') :]
    assert [int(s) for s in re.findall(r'id="pr-player-(\d)"', others)] == [0, 2, 3]
    spectator = render(table(), None)
    assert 'class="pr-mine"' not in spectator and spectator.count('<article id="pr-player-') == 4


def test_a_large_building_takes_two_city_spaces_and_any_city_fits():
    state = position(
        [player(city={"guild_hall": 1, "fortress": 0, "small_market": 1}), player(), player()]
    )
    anna = player_board(render(state, ANNA), ANNA)
    heights = [
        re.search(r'<rect width="100" height="(\d+)"', b).group(1)
        for b in groups(anna, "pr-building")
    ]
    assert sorted(heights) == ["34", "71", "71"]
    # Five large buildings and two small ones: every building has its own spaces.
    names = ["guild_hall", "residence", "fortress", "customs_house", "city_hall"]
    cells = city_cells([*names, "small_market", "hacienda"])
    taken = [(c, r + i) for n, (c, r) in cells.items() for i in range(pr.BUILDINGS[n].spaces)]
    assert len(taken) == len(set(taken)) == 12
    assert all(0 <= c < CITY_COLUMNS and 0 <= r < CITY_ROWS for c, r in taken)


def every_piece_is_named(html: str) -> None:
    for svg in re.findall(r"<svg\b.*?</svg>", html, re.S):
        label = re.search(r'<svg [^>]*aria-labelledby="([^"]+)"', svg).group(1)
        assert f'id="{label}"' in html
        for piece in re.findall(r'<g [^>]*role="img"[^>]*>(.{0,12})', svg):
            assert piece.startswith("<title>") and not piece.startswith("<title><"), piece


def test_every_drawn_piece_has_a_name_and_colour_never_stands_alone():
    for seat in (BOB, None):
        html = render(table(), seat)
        every_piece_is_named(html)
        for piece in groups(html, "pr-tile") + groups(html, "pr-barrel"):
            assert re.search(r'class="pr-letter"[^>]*>\w+<', piece), piece
    with translation.override("de"):
        html = render(table(), BOB)
    every_piece_is_named(html)
    corn = groups(player_board(html, BOB), "pr-tile")[0]
    assert title_of(corn).startswith("Mais-Plantage, leer.")
    assert re.search(r'class="pr-letter"[^>]*>M<', corn)


def drawn_choices(html: str) -> list[str]:
    return [a.replace("&quot;", '"') for a in re.findall(r'<g [^>]*data-action="([^"]*)"', html)]


def button_values(html: str) -> set[str]:
    return {b["value"] for form in Forms(html).forms for b in form["buttons"] if b.get("value")}


@pytest.mark.parametrize("role", ["role", "settler", "builder", "captain", "trader"])
def test_each_drawn_choice_is_a_button_of_your_choice(role):
    players = [
        player(doubloons=9, goods={"corn": 2}, island={"quarry": (1, 1)}, city={"hacienda": 1}),
        player(island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    state = position(players, face_up=["corn", "sugar", "coffee", "coffee"], seat=ANNA)
    if role != "role":
        state = choose(state, role)
    html = render(state, state.current)
    drawn = drawn_choices(html)
    assert drawn and set(drawn) <= button_values(html)
    kinds = {pr.action_from_json(json.loads(a)).type for a in drawn}
    expected = {
        "role": {"choose_role"},
        "settler": {"settle", "hacienda"},
        "builder": {"build"},
        "captain": {"load"},
        "trader": {"sell"},
    }[role]
    assert kinds == expected
    # Nobody else gets a drawn choice.
    assert drawn_choices(render(state, (state.current + 1) % 3)) == []
    assert drawn_choices(render(state, None)) == []


def drawn_in(html: str, css: str) -> list[pr.Action]:
    """The actions of the drawn pieces of class ``css``."""
    found = re.findall(rf'<g class="[^"]*{css}[^"]*"[^>]*data-action="([^"]*)"', html)
    return [pr.action_from_json(json.loads(a.replace("&quot;", '"'))) for a in found]


def test_the_own_barrels_and_the_trading_house_sell_and_load_with_one_click():
    players = [
        player(goods={"corn": 2, "coffee": 1}, city={"small_market": 1}),
        player(goods={"coffee": 1}, island={"indigo": 1}),
        player(island={"indigo": 1}),
    ]
    trader = choose(position(players, seat=ANNA), "trader")
    html = render(trader, ANNA)
    # Two kinds to sell: each own barrel sells its kind; the trading house would not say which.
    assert sorted(a.good for a in drawn_in(html, "pr-barrel")) == [pr.CORN, pr.COFFEE]
    assert drawn_in(html, "pr-house") == []
    assert drawn_in(player_board(html, BOB), "pr-barrel") == []  # not the others' barrels
    # One kind to sell (the house holds coffee): the house sells it too.
    one = choose(position(players, seat=ANNA, trading_house=["coffee"]), "trader")
    assert drawn_in(render(one, ANNA), "pr-house") == [pr.Sell(pr.CORN)]
    # The captain: a barrel that fits one ship only loads there with a click.
    captain = choose(
        position(players, seat=ANNA, ships=[("corn", 1), (None, 0), (None, 0)]), "captain"
    )
    html = render(captain, ANNA)
    assert drawn_in(html, "pr-barrel") == [pr.Load(pr.CORN, 0)]  # coffee: either empty ship
    assert button_values(html) >= set(drawn_choices(html))


def test_no_seat_sees_the_face_down_plantations_or_the_others_hidden_vp():
    stack = ["coffee"] * 8
    players = [
        player(vp=7, island={"corn": 1}, city={"hacienda": 1}),
        player(vp=58, island={"indigo": 1}),
        player(vp=63, island={"indigo": 1}),
    ]
    state = choose(position(players, stack=stack, face_up=["corn", "sugar", "tobacco"]), "settler")
    for seat in (ANNA, BOB, CHRIS, None):
        html = render(state, seat)
        # The stack is a count; no coffee tile is anywhere, the order never shown.
        assert "Coffee plantation" not in html
        assert "Face-down plantations: 8;" in text(html)
        assert len(groups(html, "pr-tile")) == 3 + 1 + 3  # face up, quarries, islands
        for other in {ANNA, BOB, CHRIS} - {seat}:
            board = player_board(html, other)
            assert re.search(r'class="pr-count pr-vp"[^>]*>\?<', board)
            assert "VP chips: hidden." in text(board)
        for vp in {BOB: "58", CHRIS: "63"}.items() - {(seat, "58"), (seat, "63")}:
            assert not re.search(rf"\b{vp[1]}\b", text(html))
            assert not re.search(rf">\s*{vp[1]}\s*<", html)


@pytest.mark.django_db
def test_the_rules_page_has_every_building_role_and_piece_in_both_languages(
    django_user_model,
):
    url = reverse("games:rules", args=["puerto-rico"])
    member = Client()
    member.force_login(django_user_model.objects.create_user("anna", password="pw"))
    assert f'href="{url}"' in member.get(reverse("games:lobby")).content.decode()
    for language in ("en", "de"):
        # The request switches the thread's language: the override puts it back after.
        with translation.override(language):
            page = text(Client().get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
            for name in pr.BUILDINGS:
                assert str(BUILDING_NAMES[name]).lower() in page.lower()
                assert building_rule(name) in page
            for role in ROLE_RULES.values():
                assert str(role) in page
            for rule in COMPONENT_RULES.values():
                assert str(rule) in page
    assert "Rathaus (groß) Kosten 10, 4 SP, Spalte 4, Kreise: 1" in page
    assert "„Werft-Schiff“" in page and "du" in page.split()
