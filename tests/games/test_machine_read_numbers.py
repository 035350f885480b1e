"""Numbers that a machine reads (SVG coordinates and sizes, data and htmx attributes, form
values) are never written the reader's way: German writes 210,5 for 210.5, which a browser
refuses as a coordinate. A page in German carries exactly the same such attributes as in
English."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games import charts, services, transfer
from games.models import Game, Seat
from games.registry import get_engine
from tests.games.game_files import game_file

HUMAN = {
    "aria-label",
    "title",
    "alt",
    "placeholder",
    "lang",
    "data-one",
    "data-turn-title",
    "data-player",
    "textlength",
    "lengthadjust",
}
"""Attributes in the reader's language: words, names ("KI rot"), and textLength and
lengthAdjust, which squeeze a long label."""
ATTRIBUTE = re.compile(r'\s([a-zA-Z][\w:-]*)="([^"]*)"')
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"')
"""A fresh CSRF token on every page."""
SWITCH = re.compile(r'name="language" value="[a-z]+"')
"""The top bar's language switch offers the other language."""


def machine_read(page: str) -> dict[str, list[str]]:
    """Each attribute's values in the page's order, but those a person reads."""
    values = defaultdict(list)
    for name, value in ATTRIBUTE.findall(SWITCH.sub("", CSRF.sub("", page))):
        if name.lower() not in HUMAN:
            values[name].append(value)
    return dict(values)


def svg(page: str) -> str:
    return re.search(r"<svg\b.*?</svg>", page, re.S).group(0)


def test_the_score_chart_is_drawn_the_same_in_german():
    pr = get_engine("puerto_rico")
    data = game_file(seed=5)
    state, states = pr.new_game(2, 5), []
    for move in data["moves"]:
        states.append(state)
        state = pr.apply(state, pr.action_from_json(move["action"]))
    points = charts.round_scores(pr, [*states, state], None, everything_known=True)
    chart = charts.chart(points, ["anna", "bob"], ["blue", "red"])
    drawn = {}
    for language in ("en", "de"):
        with translation.override(language):
            drawn[language] = svg(render_to_string("games/_score_chart.html", {"chart": chart}))
    assert re.search(r'cy="\d+\.\d"', drawn["en"])  # fractions are drawn: the test can fail
    assert drawn["de"] == drawn["en"]


def test_whole_numbers_are_not_grouped_in_german():
    """A game's version or an id passes 999 some day: 1.000 in data-version is misread."""
    with translation.override("de"):
        page = Template('<div data-version="{{ n }}">').render(Context({"n": 1000}))
    assert page == '<div data-version="1000">'


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("engine", "options"),
    [
        ("puerto_rico", {"edition": "base", "hidden_vp": True}),
        ("puerto_rico", {"edition": "new_buildings"}),
        ("puerto_rico", {"edition": "nobles"}),
        ("puerto_rico", {"edition": "both"}),
        ("amerigo", {}),
    ],
    ids=["base", "new_buildings", "nobles", "both", "amerigo"],
)
def test_every_game_page_has_the_same_machine_read_attributes_in_german(
    django_user_model, django_capture_on_commit_callbacks, engine, options
):
    """A running game from the seat to act (its forms), a finished one with its chart, and the
    replay of both at a step in the middle."""
    greta = django_user_model.objects.create_user("greta", "greta@example.org")
    players = 4 if options.get("edition") == "both" else 3
    with django_capture_on_commit_callbacks(execute=True):  # the AI players move
        running = services.create_game(
            greta,
            num_players=players,
            engine=engine,
            options=options,
            ai_seats=players - 1,
            ai_level=Seat.AI.RANDOM,
        )
    running = Game.objects.get(pk=running.pk)
    assert running.seat_to_act().user == greta
    finished, _ = transfer.import_game(game_file(seed=5, options=options, engine=engine), greta)
    urls = [running.get_absolute_url(), f"/games/{running.pk}/replay/"]
    urls += [finished.get_absolute_url(), f"/games/{finished.pk}/replay/?step=60"]
    client = Client()
    client.force_login(greta)
    pages = {}
    for language in ("en", "de"):
        greta.language = language
        greta.save()
        pages[language] = [client.get(url).content.decode() for url in urls]
    assert 'lang="de"' in pages["de"][0]
    for url, english, german in zip(urls, pages["en"], pages["de"], strict=True):
        english, german = machine_read(english), machine_read(german)
        for name in english.keys() | german.keys():
            assert german.get(name) == english.get(name), (url, name)
    assert "score-chart" in pages["de"][2] and "score-chart" in pages["de"][3]
