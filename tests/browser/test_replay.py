"""Stepping through a finished game in Chromium: the buttons and the slider swap the board
in place (htmx) and keep the address in step; without JavaScript the same links work."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from games import transfer
from games.registry import get_engine
from games.ui import describe_event
from tests.games.game_files import game_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pr = get_engine("puerto_rico")


@pytest.fixture
def finished(django_user_model):
    """A finished two-player game, imported from a file the engine wrote."""
    owner = django_user_model.objects.create_user("anna", "anna@example.org")
    game, _ = transfer.import_game(game_file(seed=5), owner)
    return game


def step_link(page: Page, name: str):
    return page.locator(".replay-nav").get_by_role("link", name=name, exact=True)


def shows_step(page: Page, step: int, last: int, game) -> None:
    expect(page.locator(".replay-step")).to_have_text(f"Move {step} of {last}")
    expect(page).to_have_url(re.compile(rf"\?step={step}$"))
    if step:
        move = game.moves.get(version=step)
        with translation.override("en"):  # the browser's language, whatever ran before
            first_line = describe_event(game.engine, move.log[0], game.names())
        expect(page.locator(".replay-lines li").first).to_have_text(first_line)


def test_stepping_with_the_buttons_and_the_slider_swaps_the_board_in_place(
    browser, live_server, finished
):
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    last = finished.moves.count()
    page.goto(f"/games/{finished.pk}/replay/?step=0")
    expect(page.locator(".replay-step")).to_have_text(f"Move 0 of {last}")
    page.evaluate("window.notReloaded = true")
    step_link(page, "Forward").click()
    shows_step(page, 1, last, finished)
    step_link(page, "Forward").click()
    shows_step(page, 2, last, finished)
    step_link(page, "Back").click()
    shows_step(page, 1, last, finished)
    step_link(page, "Last").click()
    shows_step(page, last, last, finished)
    expect(page.locator(".outcome")).to_be_visible()  # the final score on the last step
    page.get_by_label("Go to move").fill("40")
    shows_step(page, 40, last, finished)
    step_link(page, "First").click()
    expect(page.locator(".replay-step")).to_have_text(f"Move 0 of {last}")
    assert page.evaluate("window.notReloaded") is True  # swapped by htmx, no page load
    page.go_back()  # the history holds each step
    shows_step(page, 40, last, finished)
    expect(page.locator(".score-chart svg polyline")).to_have_count(2)
    context.close()


def test_without_javascript_the_links_and_the_form_still_step(browser, live_server, finished):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    last = finished.moves.count()
    page.goto(f"/games/{finished.pk}/replay/?step=3")
    step_link(page, "Forward").click()
    shows_step(page, 4, last, finished)
    page.get_by_label("Go to move").fill("9")
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".replay-step")).to_have_text(f"Move 9 of {last}")
    context.close()


def test_the_chart_follows_the_step_swapped_in(browser, live_server, finished):
    """The chart shows the scores through the step on the page, also after htmx swapped the
    step in: at move 3 the first round is still under way."""
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    rounds = page.locator(".score-chart svg text[text-anchor=middle]")
    page.goto(f"/games/{finished.pk}/replay/?step=2")
    expect(rounds).to_have_text(["0", "1"])
    step_link(page, "Forward").click()
    shows_step(page, 3, finished.moves.count(), finished)
    expect(rounds).to_have_text(["0", "1"])
    step_link(page, "Last").click()
    last_round = pr.round_number(pr.from_json(finished.state))
    expect(rounds).to_have_text([str(r) for r in range(last_round + 1)])
    context.close()
