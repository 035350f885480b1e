"""Every kind of page in German in Chromium, with no error in the browser's console: German
writes 210,5 where English writes 210.5, and a coordinate, size or data attribute written the
German way is refused by the browser (logged as an error) and the drawing falls apart. The
score chart's axis must also read the real numbers where they belong.

AI turns run eagerly inside the request that hands them the turn (``tests/conftest.py``).
"""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.urls import reverse
from playwright.sync_api import Page, expect

from games import chat, services, transfer
from games.models import Game, Seat
from moderation.groups import MODERATOR_GROUP, create_moderator_group
from tests.browser import sign_in
from tests.browser.test_play import make_user
from tests.games.game_files import game_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RUNNING = [
    ("puerto_rico", 3, {"edition": "base"}),
    ("puerto_rico", 3, {"edition": "new_buildings"}),
    ("puerto_rico", 3, {"edition": "nobles"}),
    ("puerto_rico", 4, {"edition": "both"}),
    ("amerigo", 2, {}),
]
"""A game of each game and edition, the German player to act after the AI players."""
FINISHED = [
    ("puerto_rico", {"edition": "base", "hidden_vp": True}),
    ("puerto_rico", {"edition": "new_buildings"}),
    ("puerto_rico", {"edition": "nobles"}),
    ("puerto_rico", {"edition": "both"}),
    ("amerigo", {}),
]
FONT = 14
"""The chart's font size, in the drawing's units."""


class Console:
    """The errors a page logs to the console or throws, by the page they happened on."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        def logged(message) -> None:
            if message.type == "error":
                self.errors.append(f"{page.url}: {message.text}")

        page.on("console", logged)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        return page


def visit(page: Page, url: str) -> None:
    """Open ``url`` and check that it came in German; the console has had its say once the
    page has loaded."""
    response = page.goto(url)
    assert response.status < 400, f"{url}: {response.status}"
    expect(page.locator("html")).to_have_attribute("lang", "de")


def signed_in(browser, live_server, user):
    context = browser.new_context(base_url=live_server.url, locale="de-DE")
    sign_in(context, live_server, user)
    return context


def expect_the_chart_axis_reads(page: Page, best: int) -> None:
    """The grid lines stand at 0, half the best score and the best score from the bottom up,
    each labelled with its number in one piece beside it; every round's dot stands in its own
    column."""
    chart = page.locator(".score-chart svg")
    expect(chart).to_be_visible()
    ticks = chart.evaluate(
        """svg => {
             const labels = svg.querySelectorAll('text[text-anchor=end]');
             return [...svg.querySelectorAll('line')].map((line, i) => {
               const box = labels[i].getBBox();
               return {line: line.y1.baseVal.value, text: labels[i].textContent,
                       top: box.y, bottom: box.y + box.height};
             });
           }"""
    )
    ticks.sort(key=lambda tick: tick["line"])
    assert [tick["text"] for tick in ticks] == [str(best), str(best // 2), "0"]
    assert len({tick["line"] for tick in ticks}) == 3, ticks
    for tick in ticks:  # the font is 14 high: the label in one line, level with its grid line
        assert (
            tick["line"] - FONT < tick["top"] < tick["line"] < tick["bottom"] < tick["line"] + FONT
        ), tick
    columns = chart.evaluate(
        """svg => [...svg.querySelectorAll('.score-line')].map(line =>
             new Set([...line.querySelectorAll('circle')].map(c => c.cx.baseVal.value)).size)"""
    )
    rounds = chart.locator("text[text-anchor=middle]").count()
    assert columns and all(count == rounds for count in columns), (columns, rounds)


def test_every_page_in_german_logs_no_error_and_the_chart_reads_true(
    browser, live_server, django_user_model
):
    greta = make_user(django_user_model, "greta")
    greta.language = "de"
    greta.is_staff = True
    greta.save()
    create_moderator_group(apps)  # the migration's group, emptied by an earlier test's flush
    greta.groups.add(Group.objects.get(name=MODERATOR_GROUP))

    running = []
    for engine, players, options in RUNNING:
        game = services.create_game(
            greta,
            num_players=players,
            options=options,
            engine=engine,
            ai_seats=players - 1,
            ai_level=Seat.AI.RANDOM,
        )
        running.append(Game.objects.get(pk=game.pk))
        assert running[-1].seat_to_act().user == greta  # the page shows greta's choices
    chat.post(running[0].pk, greta, "Hallo zusammen")
    waiting = services.create_game(greta, engine="puerto_rico", num_players=3)
    finished = [
        transfer.import_game(game_file(seed=5, options=options, engine=engine), greta)[0]
        for engine, options in FINISHED
    ]

    console = Console()
    context = signed_in(browser, live_server, greta)
    page = console.watch(context.new_page())
    pages = [
        "/",
        reverse("games:lobby"),
        reverse("games:lobby") + "?game=amerigo",
        reverse("games:mine"),
        reverse("games:rules", args=["puerto-rico"]),
        reverse("games:rules", args=["amerigo"]),
        reverse("games:vacation"),
        reverse("games:import"),
        reverse("accounts:profile"),
        waiting.get_absolute_url(),
        reverse("games:invite", args=[waiting.invite_code]),
        reverse("moderation:report", args=[running[0].pk]),
        # (the board of a game greta plays in is hers to see only once it has ended)
        reverse("admin:games_game_board", args=[finished[0].pk]),
    ]
    for game in running:
        pages += [game.get_absolute_url(), reverse("games:log", args=[game.pk])]
        pages.append(reverse("games:replay", args=[game.pk]))
    for game in finished:
        replay = reverse("games:replay", args=[game.pk])
        last = game.moves.count()
        pages += [game.get_absolute_url(), f"{replay}?step=0", f"{replay}?step={last // 2}"]
        pages.append(f"{replay}?step={last}")
    for url in pages:
        visit(page, url)

    # A step swapped in by htmx is parsed as well.
    visit(page, reverse("games:replay", args=[finished[0].pk]) + "?step=3")
    page.locator(".replay-nav a[rel=next]").click()
    expect(page).to_have_url(
        f"{live_server.url}{reverse('games:replay', args=[finished[0].pk])}?step=4"
    )
    expect(page.locator("#replay")).to_have_attribute("data-step", "4")

    for game in finished:
        visit(page, game.get_absolute_url())
        expect_the_chart_axis_reads(page, max(row.score for row in game.results.all()))
    context.close()

    visitor = browser.new_context(base_url=live_server.url, locale="de-DE")
    page = console.watch(visitor.new_page())
    for url in (
        "/",
        reverse("account_login"),
        reverse("account_signup"),
        "/accounts/password/reset/",
    ):
        visit(page, url)
    visit(page, finished[0].get_absolute_url())
    expect_the_chart_axis_reads(page, max(row.score for row in finished[0].results.all()))
    visitor.close()

    assert console.errors == []
