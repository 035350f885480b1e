"""Player pages in Chromium, in English on a desktop and in German on a phone: the rating chart
is drawn (its coordinates never written the German way), following a player with the button
(htmx) lists their games on the following page, and the leaderboard ranks them; nothing is
wider than the phone's screen and the browser logs no error. Screenshots go to /tmp."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from players.models import Follow, Rating
from tests.browser.test_play import open_page  # noqa: F401
from tests.players.conftest import finished, race, running  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
WORDS = {
    "en": {"follow": "Follow", "stop": "Stop following", "rating": "Rating", "ai": "AI players"},
    "de": {
        "follow": "Folgen",
        "stop": "Nicht mehr folgen",
        "rating": "Wertungszahl",
        "ai": "KI-Spieler",
    },
}


def watch(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def fits(page: Page, width: int) -> None:
    """Nothing pushes the page wider than the screen (a wide table scrolls in its box)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize(("language", "size"), [("en", DESKTOP), ("de", PHONE)])
def test_a_player_page_the_follow_button_the_following_list_and_a_leaderboard(
    open_page,  # noqa: F811
    race,  # noqa: F811
    django_user_model,
    language,
    size,
):
    ann, ben, cy = (
        django_user_model.objects.create_user(n, display_name=d)
        for n, d in (("ann", "Ann Andersen"), ("ben", "Ben"), ("cy", "Cy"))
    )
    reader = django_user_model.objects.create_user("dee", language=language)
    games = [finished(ann, ben, cy, rated=True, seed=seed) for seed in range(4)]
    finished(ann, ben, rated=True, ai_levels=["easy"], seed=7)
    current = running(ann, ben, cy)
    words = WORDS[language]
    page = open_page(reader, viewport=size)
    errors = watch(page)
    width = size["width"]
    tag = f"{language}-{width}"

    page.goto(reverse("players:player", args=["ann"]))
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann Andersen")
    chart = page.locator(".rating-chart svg")
    expect(chart).to_be_visible()
    assert chart.locator("circle").count() == 1 + Rating.objects.get(user=ann).games
    box = chart.bounding_box()
    assert box["width"] > 0.8 * min(width, 768) - 64  # the chart fills its column
    expect(page.locator(f'a[href="{games[0].get_absolute_url()}"]').first).to_be_visible()
    expect(page.locator(f'a[href="{current.get_absolute_url()}"]').first).to_be_visible()
    page.screenshot(path=f"/tmp/players-{tag}-player.png", full_page=True)
    fits(page, width)

    page.get_by_role("button", name=words["follow"], exact=True).click()
    expect(page.get_by_role("button", name=words["stop"])).to_be_visible()
    assert Follow.objects.filter(follower=reader, followed=ann).exists()
    page.screenshot(path=f"/tmp/players-{tag}-followed.png")

    page.goto(reverse("players:following"))
    news = page.locator(".news li")
    expect(news.first).to_be_visible()
    expect(page.locator(f'.news a[href="{current.get_absolute_url()}"]')).to_be_visible()
    expect(page.locator('.followed a[href="/players/ann/"]')).to_have_text("Ann Andersen")
    page.screenshot(path=f"/tmp/players-{tag}-following.png", full_page=True)
    fits(page, width)

    page.goto(reverse("players:ratings"))
    page.get_by_role("link", name="Race to 21").first.click()
    expect(page).to_have_url(re.compile(r"/players/ratings/race/\?active=90$"))
    expect(page.get_by_role("columnheader", name=words["rating"]).first).to_be_visible()
    expect(page.get_by_role("heading", name=words["ai"])).to_be_visible()
    ranked = page.locator("table.leaderboard tbody tr td:nth-child(2)").all_inner_texts()
    by_value = Rating.objects.filter(ladder="race", user__isnull=False).order_by("-value")
    assert [name.strip() for name in ranked] == [r.user.public_name for r in by_value]
    page.screenshot(path=f"/tmp/players-{tag}-leaderboard.png", full_page=True)
    fits(page, width)

    page.get_by_role("link", name="Ann Andersen").click()
    page.get_by_role("button", name=words["stop"]).click()
    expect(page.get_by_role("button", name=words["follow"], exact=True)).to_be_visible()
    assert not Follow.objects.exists()
    assert errors == []
