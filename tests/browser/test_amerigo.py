"""Playing Amerigo through the pages in Chromium: a game against an AI opened in the lobby
and played to its final scoring, each decision the first legal one.

A whole game through the page takes some 130 decisions and about 100 s, so the rounds before
the last turns are played through ``services.submit_move`` and the last turns (and the final
scoring) through the page. AI turns run eagerly inside the request that hands them the turn
(``tests/conftest.py``).
"""

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from games import services
from games.engines import get_engine
from games.models import Game
from tests.browser.test_play import anna, expect_board_after, open_page  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

am = get_engine("amerigo")
LAST_TURNS = (5, 4)
"""Round and turn (0-6) from which the page plays: the last three turns of the game."""
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def first_choice(page: Page) -> None:
    """Post the first form of "Your choice": its first button, or its list's first entry."""
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bhtmx-"))
    version = int(page.locator("#board").get_attribute("data-version"))
    page.locator(".am-choices form").first.locator("button").first.click()
    expect_board_after(page, version)
    expect(page.locator("#board .flash")).to_have_count(0)


def test_an_amerigo_game_against_an_ai_is_played_to_the_end_through_the_pages(open_page, anna):  # noqa: F811
    page = open_page(anna, **PHONE)
    page.goto("/games/")
    page.get_by_role("link", name="Amerigo").click()
    expect(page.locator("input[name=game]")).to_have_value("amerigo")
    page.locator("#id_num_players").select_option("2")
    page.locator("#id_seat_2").select_option("random")
    page.get_by_role("button", name="Open the game").click()
    game = Game.objects.get()
    assert game.engine == "amerigo" and game.status == Game.Status.RUNNING
    expect(page.locator("main h1")).to_contain_text("Amerigo")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    first_choice(page)  # the first decision through the page too

    while True:
        game.refresh_from_db()
        state = game.engine_state()
        if (state.round, state.turn) >= LAST_TURNS:
            break
        action = am.action_to_json(am.legal_actions(state)[0])
        services.submit_move(game.pk, action, user=anna, expected_version=game.version)
    page.reload()
    decisions = 0
    while page.locator("#am-final-title").count() == 0:
        expect(page.locator("#am-choices-title")).to_have_text("Your choice")
        first_choice(page)
        decisions += 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and decisions >= 3  # the last turns, by page
    state = game.engine_state()
    with translation.override("en"):  # as the page names the AI seat
        names = game.names()
    totals = {names[seat]: s["total"] for seat, s in enumerate(am.scores(state))}
    rows = page.locator(".am-final tbody tr")
    expect(rows).to_have_count(2)
    shown = {
        row.locator("th").inner_text(): int(row.locator(".am-total").inner_text())
        for row in rows.all()
    }
    assert shown == totals
    winners = ", ".join(names[s] for s in am.winners(state))
    expect(page.locator(".am-final > p")).to_have_text(f"Winner: {winners}")
    expect(page.locator(".am-choices")).to_have_count(0)
