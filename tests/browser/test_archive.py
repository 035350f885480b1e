"""In Chromium, in English and German, on a desktop and a phone: open a rated game with the
new-game form's checkboxes, find it under Watch once it runs, and search the archive with its
form. Screenshots go to /tmp/archive-<language>-<width>-<page>.png."""

from datetime import UTC, datetime

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.models import Game
from tests.browser import sign_in
from tests.games.listing import finished_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "rated": "Rated game",
        "watch": "Anyone may watch",
        "open": "Open the game",
        "kind": "rated",
        "Watch": "Watch",
        "Archive": "Archive",
        "search": "Search",
        "player": "Player's name",
        "kind_field": "Rated or casual",
        "rated_only": "rated only",
        "one_game": "1 game",
    },
    "de": {
        "rated": "Gewertete Partie",
        "watch": "Jeder darf zuschauen",
        "open": "Partie eröffnen",
        "kind": "gewertet",
        "Watch": "Zuschauen",
        "Archive": "Archiv",
        "search": "Suchen",
        "player": "Name eines Spielers",
        "kind_field": "Gewertet oder ungewertet",
        "rated_only": "nur gewertete",
        "one_game": "1 Partie",
    },
}


def signed_in(browser, live_server, user, width: int):
    phone = {"is_mobile": True, "has_touch": True} if width < 500 else {}
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": 900},
        locale="de-DE" if user.language == "de" else "en-GB",
        **phone,
    )
    sign_in(context, live_server, user)
    return context


def fits(page: Page, width: int) -> None:
    """Nothing wider than the window: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [1400, 390])
def test_open_a_rated_game_watch_it_and_search_the_archive(
    browser, live_server, django_user_model, language, width
):
    words = WORDS[language]
    anna, bob, chris = (
        django_user_model.objects.create_user(name, language=language)
        for name in ("anna", "bob", "chris")
    )
    studied = finished_game(
        [anna, bob], scores=[52, 47], rated=True, finished_at=datetime(2026, 3, 4, tzinfo=UTC)
    )
    finished_game([anna, chris], finished_at=datetime(2026, 3, 5, tzinfo=UTC))
    context = signed_in(browser, live_server, anna, width)
    page = context.new_page()
    shot = f"/tmp/archive-{language}-{width}"

    page.goto("/games/")
    rated = page.get_by_label(words["rated"])
    watch = page.get_by_label(words["watch"])
    expect(rated).not_to_be_checked()
    expect(watch).to_be_checked()
    page.select_option("select[name=num_players]", "2")
    rated.check()
    page.screenshot(path=f"{shot}-lobby.png", full_page=True)
    page.get_by_role("button", name=words["open"]).click()
    expect(page.locator("#game-status")).to_contain_text(words["kind"])
    page.screenshot(path=f"{shot}-game.png")
    game = Game.objects.latest("created_at")
    assert (game.rated, game.spectators) == (True, True)
    services.join_game(game.pk, chris)

    page.get_by_role("navigation").get_by_role("link", name=words["Watch"], exact=True).click()
    row = page.locator(".game-list > li", has=page.locator(f'a[href="/games/{game.pk}/"]'))
    expect(row).to_have_count(1)
    expect(row).to_contain_text(words["kind"])
    expect(row).to_contain_text("chris")
    fits(page, width)
    page.screenshot(path=f"{shot}-watch.png", full_page=True)

    page.get_by_role("navigation").get_by_role("link", name=words["Archive"]).click()
    expect(page.locator(".game-list > li")).to_have_count(2)
    page.get_by_label(words["player"]).fill("bob")
    page.get_by_label(words["kind_field"]).select_option(label=words["rated_only"])
    page.get_by_role("button", name=words["search"]).click()
    expect(page.locator(".count")).to_have_text(words["one_game"])
    found = page.locator(".game-list > li")
    expect(found).to_have_count(1)
    expect(found.locator(f'a[href="/games/{studied.pk}/replay/"]')).to_have_count(1)
    expect(found.locator(".placings li").first).to_contain_text("52")
    assert "player=bob" in page.url and "kind=rated" in page.url
    fits(page, width)
    page.screenshot(path=f"{shot}-archive.png", full_page=True)
    context.close()
