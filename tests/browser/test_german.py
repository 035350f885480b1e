"""A whole game in German through the real pages, in a browser that asks for German: sign up,
confirm the address, log in, open a game against two AI players of the quickest level and play
it to the end. Every page is read as a reader sees it and checked against the English
catalogue: no English string that has a different German translation may show.

AI turns run eagerly inside the request that hands them the turn (``tests/conftest.py``).
"""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game, Seat
from tests.accounts.conftest import fresh_rate_limits  # noqa: F401 - autouse: fresh limits
from tests.test_i18n import english_leaks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "richtig Pferd Batterie Heftklammer"
MAX_DECISIONS = 600
"""Far more than one person's decisions in a 3-player game; reached only if play is stuck."""


class Reader:
    """Reads every page the test sees and remembers English it should not have found."""

    def __init__(self) -> None:
        self.leaks: dict[str, set[str]] = {}

    def read(self, page: Page, where: str) -> None:
        expect(page.locator("html")).to_have_attribute("lang", "de")
        text = page.locator("body").inner_text()
        # Time zones are place names from the zone database ("America/Mexico_City"), not words
        # of the site: the profile lists them as they are in every language.
        zones = page.locator("select[name=time_zone] option").all_inner_texts()
        for zone in sorted(zones, key=len, reverse=True):  # "EasterIsland" before "Easter"
            text = text.replace(zone, " ")
        text = " ".join(text.split())
        for phrase in english_leaks(text):
            self.leaks.setdefault(phrase, set()).add(where)


def board_version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def decide(page: Page) -> None:
    """One legal decision from the "your choice" panel, without reading its labels: the form
    as pre-filled, or the first offer that is not a pass."""
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bhtmx-"))
    version = board_version(page)
    form = page.locator(".pr-choices form")
    css = form.get_attribute("class")
    if "pr-store" in css:
        form.locator("input[type=radio]").first.check()
    if "pr-buttons" in css:
        buttons = form.locator("button[name=action]")
        values = buttons.evaluate_all("bs => bs.map(b => b.value)")
        doing = [i for i, v in enumerate(values) if json.loads(v).get("type") != "pass"]
        buttons.nth(doing[0] if doing else 0).click()
    else:
        form.locator("button[type=submit]").click()
    expect(page.locator("#board")).not_to_have_attribute("data-version", str(version))
    expect(page.locator("#board .flash")).to_have_count(0)


def test_a_whole_game_in_german_shows_no_english(browser, live_server, mailoutbox, tmp_path):
    context = browser.new_context(base_url=live_server.url, locale="de-DE")
    page = context.new_page()
    reader = Reader()

    page.goto("/")
    reader.read(page, "home")
    page.goto("/accounts/signup/")
    reader.read(page, "signup")
    page.locator("input[name=username]").fill("greta")
    page.locator("input[name=email]").fill("greta@example.org")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/accounts/confirm-email/")
    reader.read(page, "verification sent")
    [message] = mailoutbox
    confirm = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", message.body).group(1)
    page.goto(confirm)
    reader.read(page, "confirm email")
    page.locator("main form button[type=submit]").click()
    logout = page.locator(".site-header form[action='/accounts/logout/']")
    expect(logout).to_be_visible()  # confirming in the browser that signed up logs in
    reader.read(page, "my games, empty")
    logout.locator("button").click()
    page.goto("/accounts/login/")
    reader.read(page, "login")
    page.locator("input[name=login]").fill("greta")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(logout).to_be_visible()

    page.goto("/games/")
    reader.read(page, "lobby")
    page.locator("#id_num_players").select_option("3")
    page.locator("#id_seat_2").select_option(Seat.AI.RANDOM)
    page.locator("#id_seat_3").select_option(Seat.AI.RANDOM)
    page.locator("main form button[type=submit]").click()
    expect(page.locator("#board")).to_be_visible()
    game = Game.objects.get()
    assert game.status == Game.Status.RUNNING
    assert game.seats.get(user__isnull=False).user.language == "de"
    reader.read(page, "board")

    for decisions in range(MAX_DECISIONS):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        decide(page)
        reader.read(page, "board")
        if decisions % 25 == 0:
            for where in ("/games/mine/", f"/games/{game.pk}/log/"):
                side = context.new_page()
                side.goto(where)
                reader.read(side, where)
                side.close()
    else:
        raise AssertionError(f"the game did not end in {MAX_DECISIONS} decisions")

    page.reload()
    expect(page.locator("#outcome-title")).to_be_visible()
    reader.read(page, "final score")
    page.screenshot(path=tmp_path / "final.png", full_page=True)
    pages = ("/games/mine/", f"/games/{game.pk}/log/", "/games/vacation/", "/accounts/profile/")
    for where in pages:
        page.goto(where)
        reader.read(page, where)
    context.close()

    assert reader.leaks == {}
