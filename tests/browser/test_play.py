"""Playing Puerto Rico through the pages in Chromium: two people and an AI, live updates, a
finished game's scores, a phone screen and the keyboard, and a refused stale move.

Every page is a real browser page against the live server. The full round logs both players
in through the login page; the other tests give the browser a session made on the server. AI
turns run eagerly inside the request that hands them the turn (``tests/conftest.py``).
"""

import re

import pytest
from django.apps import apps
from django.urls import reverse
from playwright.sync_api import Page, expect

from games import services
from games.models import Game, Move
from games.registry import get_engine
from tests.browser import sign_in
from tests.games.test_board_ui import holder, one_move_from_the_end
from tests.replayed import replayed

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pr = get_engine("puerto_rico")
PASSWORD = "correct horse battery staple"
SEED = 7
"""Seed of the game played in full: seating, plantations and the AI's moves follow from it."""
PASS_LABELS = {"Take nothing", "Build nothing", "No extra barrel", "Sell nothing"}
PHONE = {"viewport": {"width": 375, "height": 800}, "is_mobile": True, "has_touch": True}


def make_user(model, name: str):
    """A user who may log in: with allauth's mandatory verification, a verified address."""
    user = model.objects.create_user(name, email=f"{name}@example.org", password=PASSWORD)
    if apps.is_installed("allauth.account"):
        from allauth.account.models import EmailAddress

        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def anna(django_user_model):
    return make_user(django_user_model, "anna")


@pytest.fixture
def bob(django_user_model):
    return make_user(django_user_model, "bob")


@pytest.fixture
def open_page(browser, live_server):
    """``open_page(user=None, *, context=None, login_page=False, **context_args)``: a page in a
    fresh browser context (its own cookies) or a new tab of ``context``. With a user it is
    logged in: through the login page, or (faster) with a session made on the server."""
    contexts = []
    server_errors = []

    def note_server_error(response) -> None:
        if response.status >= 500:
            server_errors.append(f"{response.status} {response.request.method} {response.url}")

    def open_(user=None, *, context=None, login_page=False, **context_args) -> Page:
        if context is None:
            context = browser.new_context(base_url=live_server.url, locale="en-GB", **context_args)
            contexts.append(context)
        page = context.new_page()
        page.on("response", note_server_error)
        if user is not None and login_page:
            log_in(page, user)
        elif user is not None:
            sign_in(context, live_server, user)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not server_errors, server_errors


def log_in(page: Page, user) -> None:
    page.goto(reverse("login"))
    form = page.locator("main form").filter(has=page.locator("input[type=password]"))
    form.locator("input[name=login], input[name=username]").fill(user.username)
    form.locator("input[type=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def game_with_governor(governor, other) -> Game:
    """A running 3-player game of ``governor``, ``other`` and an AI in which ``governor`` holds
    the first seat, so the game waits for their first role choice. Seating is drawn from the
    seed; seeds are tried in order, so every run gets the same game."""
    for seed in range(1, 50):
        game = services.create_game(governor, engine="puerto_rico", num_players=3, ai_seats=1)
        Game.objects.filter(pk=game.pk).update(seed=seed)
        services.join_game(game.pk, other)
        game = Game.objects.get(pk=game.pk)
        if game.version == 0 and game.seat_to_act().user_id == governor.pk:
            return game
    raise AssertionError(f"no seed gave {governor} the first seat")


def open_in_lobby(page: Page, players: int, *ai_levels: str, edition: str | None = None) -> Game:
    """Open a game in the lobby as a person does: the number of players, a level for each AI
    seat from the second on, the edition by the name the form shows; returns the game."""
    page.goto("/games/")
    page.locator("#id_num_players").select_option(str(players))
    for number, level in enumerate(ai_levels, start=2):
        page.locator(f"#id_seat_{number}").select_option(level)
    if edition is not None:
        page.locator("#id_option_edition").select_option(label=edition)
    page.get_by_role("button", name="Open the game").click()
    expect(page.locator("#game-status")).to_be_visible()
    return Game.objects.get()


def board_version(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def log_lines(page: Page) -> list[str]:
    """The log's lines, its earlier moves unfolded as a reader would (they stay open across
    new boards); none before the first move."""
    earlier = page.locator(".log details")
    if earlier.count() and not earlier.evaluate("details => details.open"):
        page.locator(".log summary").click()
        expect(earlier).to_have_attribute("open", "")
    return page.locator(".log li").all_inner_texts()


def expect_board_after(page: Page, version: int, timeout: float = 15000) -> None:
    """Wait until the page's board is newer than ``version``: at most 15 s, for a machine
    running other work beside the suite (a move with the AI's answers takes well under one)."""
    expect(page.locator("#board")).not_to_have_attribute(
        "data-version", str(version), timeout=timeout
    )


def _move_answer(response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/move/")


def take_turn(page: Page, roles: list[str]) -> tuple[str, str]:
    """Submit one legal choice from the page's "Your choice" panel, the way a person would:
    the first of ``roles`` still free, the form as pre-filled, or the first offer that does
    something (rather than pass). Returns the kind of decision that was made and the button
    pressed."""
    # A board just swapped in by polling is wired up by htmx when it settles: wait for that,
    # or a click would post the form without htmx.
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bhtmx-"))
    version = board_version(page)
    form = page.locator(".pr-choices form").first
    css = form.get_attribute("class")
    if "pr-mayor" in css:
        kind, label = "mayor", "Place colonists"
    elif "pr-store" in css:
        kind, label = "storage", "Keep these goods"
        form.locator("input[type=radio]").first.check()
    else:
        kind = re.search(r"pr-buttons-(\w+)", css).group(1)
        labels = form.locator("button").all_inner_texts()
        if kind == "role":
            wanted = [lb for role in roles for lb in labels if lb.startswith(role)]
        else:
            wanted = [lb for lb in labels if lb not in PASS_LABELS]
        label = (wanted or labels)[0]
    # Waited for: the answer to the move itself, which comes after the AI's turns; a poll's
    # board may show the move before them.
    with page.expect_response(_move_answer, timeout=15000):
        form.get_by_role("button", name=label, exact=True).click()
    expect_board_after(page, version)
    expect(page.locator("#board .flash")).to_have_count(0)
    return kind, label


def test_two_people_and_an_ai_play_a_full_round_through_the_pages(open_page, anna, bob, tmp_path):
    anna_page = open_page(anna, login_page=True)
    game = open_in_lobby(anna_page, 3, "medium")
    expect(anna_page.locator("#seats-title")).to_have_text("Seats (2 of 3)")
    assert anna_page.url.endswith(game.get_absolute_url())
    assert game.status == Game.Status.OPEN and game.creator == anna
    # The seating is drawn when the last seat fills; a fixed seed makes every run the same.
    Game.objects.filter(pk=game.pk).update(seed=SEED)
    invitation = anna_page.get_by_label("Invitation link").input_value()
    assert f"/games/join/{game.invite_code}/" in invitation

    bob_page = open_page(bob, login_page=True)
    bob_page.goto(invitation)
    expect(bob_page.locator("main h1")).to_have_text(f"You are invited to game {game.pk}")
    bob_page.get_by_role("button", name="Take a seat").click()
    expect(bob_page.locator("#board")).to_be_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    # The waiting room polls its seats every 2 s: anna's page turns into the running game by
    # itself (a reload by hand here would race with that one).
    expect(anna_page.locator(".pr-round")).to_contain_text("Round 1", timeout=10_000)

    pages = {anna.pk: anna_page, bob.pk: bob_page}
    roles = {anna.pk: ["Mayor", "Settler"], bob.pk: ["Builder", "Settler"]}
    made: list[tuple[str, str]] = []
    mayor_shot = False
    for _ in range(60):
        game.refresh_from_db()
        if pr.from_json(game.state).round >= 2:
            break
        seat = game.seat_to_act()
        assert not seat.is_ai, "AI turns are played before the page is answered"
        page = pages[seat.user_id]
        other = next(p for p in pages.values() if p is not page)
        expect(page.locator("#pr-choices-title")).to_have_text("Your choice")
        expect(page.locator(".pr-decision")).to_contain_text("Your turn")
        expect(other.locator(".turn")).to_contain_text(f"Waiting for {seat.name}")
        expect(other.locator("#pr-choices-title")).to_have_count(0)
        if not mayor_shot and page.locator(".pr-mayor").count():
            page.screenshot(path=tmp_path / "mayor.png", full_page=True)
            mayor_shot = True
        made.append((seat.name, take_turn(page, roles[seat.user_id])[0]))
    else:
        raise AssertionError(f"round 1 did not end: {made}")

    for page in pages.values():
        expect(page.locator(".pr-round")).to_contain_text("Round 2")
    anna_page.screenshot(path=tmp_path / "round-2.png", full_page=True)

    kinds = {kind for _, kind in made}
    assert ("anna", "role") in made and ("bob", "role") in made
    assert len(kinds - {"role"}) >= 2, made
    ai = game.seats.get(ai_level__gt="")
    for page in pages.values():
        lines = log_lines(page)
        for name in ("anna", "bob", ai.name):
            assert any(re.fullmatch(rf"{name} takes the \w+.*", line) for line in lines), name
    chosen = game.moves.filter(action__type="choose_role").order_by("version")[:3]
    assert {m.seat.position for m in chosen} == {0, 1, 2}
    assert len({m.action["role"] for m in chosen}) == 3
    assert [m.actor for m in chosen if m.seat == ai] == [None]
    assert {m.actor for m in chosen if m.seat != ai} == {anna, bob}

    game.refresh_from_db()
    assert game.version == Move.objects.filter(game=game).count()
    assert pr.to_json(replayed(game)) == game.state
    for page in pages.values():
        assert board_version(page) == game.version


def test_a_move_shows_on_the_waiting_page_by_its_poll_without_a_reload(open_page, anna, bob):
    game = game_with_governor(bob, anna)
    anna_page = open_page(anna)
    anna_page.goto(game.get_absolute_url())
    bob_page = open_page(bob)
    bob_page.goto(game.get_absolute_url())
    expect(anna_page.locator(".turn")).to_contain_text("Waiting for bob")
    # Within a second: the waiting board asks every second whether the game has moved on.
    trigger = anna_page.locator("#board").get_attribute("hx-trigger")
    assert trigger.startswith("every 1s [document.visibilityState === 'visible']")
    anna_page.evaluate("window.__marker = 1")
    navigations = []
    anna_page.on("framenavigated", lambda frame: navigations.append(frame.url))
    poll = reverse("games:poll", args=[game.pk])
    changed = []
    anna_page.on(
        "response",
        lambda response: (
            changed.append(response.url)
            if poll in response.url and response.status == 200
            else None
        ),
    )
    before = log_lines(anna_page)

    bob_page.get_by_role("button", name=re.compile("^Settler")).click()
    expect(anna_page.locator(".log")).to_contain_text("bob takes the settler")

    assert changed, "the new board did not come from the poll"
    game.refresh_from_db()
    expect(anna_page.locator("#board")).to_have_attribute("data-version", str(game.version))
    assert "bob takes the settler" in log_lines(anna_page)
    assert len(log_lines(anna_page)) > len(before)
    assert anna_page.evaluate("window.__marker") == 1
    assert navigations == []


def test_a_game_of_ai_players_runs_to_the_end_and_shows_the_final_scores(open_page, anna, tmp_path):
    game = services.create_game(
        anna, engine="puerto_rico", num_players=3, ai_seats=3, ai_level="random", join=False
    )
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    names = game.names()
    totals = {names[row.position]: row.score for row in game.results.all()}
    winners = {names[row.position] for row in game.results.all() if row.placement == 1}

    for who, page in (("spectator", open_page()), ("anna", open_page(anna))):
        page.goto(game.get_absolute_url())
        expect(page.get_by_role("button", name="Log out")).to_have_count(int(who == "anna"))
        expect(page.locator("#outcome-title")).to_have_text("Final score")
        expect(page.locator(".pr-decision")).to_have_text("The game is over.")
        assert page.locator("#board").get_attribute("hx-trigger") is None  # no more polling
        rows = page.locator(".outcome tbody tr")
        expect(rows).to_have_count(3)
        shown = {}
        for row in rows.all():
            name = row.locator("th").inner_text()
            shown[name] = int(row.locator(".outcome-total").inner_text())
            assert (row.get_attribute("class") == "is-winner") == (name in winners), name
        assert shown == totals, who
        expected = ", ".join(n for n in names if n in winners)
        expect(page.locator(".outcome-winners strong")).to_have_text(expected)
        page.locator(".outcome").screenshot(path=tmp_path / f"final-{who}.png")

    assert game.version == game.moves.count()
    assert pr.to_json(replayed(game)) == game.state


def no_horizontal_overflow(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= 375


def test_on_a_phone_the_board_fits_and_a_role_is_chosen_by_keyboard(open_page, anna, bob, tmp_path):
    game = game_with_governor(anna, bob)
    page = open_page(anna, **PHONE)
    page.goto(game.get_absolute_url())
    expect(page.locator("#pr-choices-title")).to_have_text("Your choice")
    assert no_horizontal_overflow(page)
    page.screenshot(path=tmp_path / "phone-roles.png")

    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "(() => { const e = document.activeElement;"
            " return e.closest('.pr-choices') ? e.textContent.trim() : null })()"
        )
        if focused and focused.startswith("Mayor"):
            break
    else:
        raise AssertionError("Tab never reached the mayor button")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")

    expect(page.locator(".pr-mayor")).to_be_visible()
    # One colonist from the ship, pre-filled on the one plantation; the privilege not taken.
    expect(page.locator(".pr-mayor > p").first).to_contain_text(
        "As filled in, 1 is placed and 0 wait in San Juan."
    )
    game.refresh_from_db()
    first = game.moves.get(version=1)
    assert first.action == {"type": "choose_role", "role": "mayor"} and first.actor == anna
    assert board_version(page) == game.version
    assert no_horizontal_overflow(page)
    page.locator(".pr-choices").screenshot(path=tmp_path / "phone-mayor.png")

    # The mayor form as shown is legal; sent with the keyboard too (Space on its button).
    page.get_by_role("button", name="Place colonists").focus()
    page.keyboard.press("Space")
    expect_board_after(page, game.version)
    expect(page.locator("#board .flash")).to_have_count(0)
    game.refresh_from_db()
    mine = game.moves.filter(actor=anna).order_by("version")
    assert [m.action["type"] for m in mine] == ["choose_role", "arrange"]
    assert no_horizontal_overflow(page)


def test_a_stale_move_is_refused_with_its_reason_and_the_fresh_board(open_page, anna, bob):
    game = game_with_governor(anna, bob)
    first = open_page(anna)
    first.goto(game.get_absolute_url())
    second = open_page(context=first.context)
    second.route("**/poll/**", lambda route: route.abort())  # a tab that lost the network
    second.goto(game.get_absolute_url())
    expect(second.locator("#pr-choices-title")).to_have_text("Your choice")

    first.get_by_role("button", name=re.compile("^Settler")).click()
    expect_board_after(first, 0)
    game.refresh_from_db()
    moves = game.moves.count()
    assert board_version(second) == 0

    second.get_by_role("button", name=re.compile("^Builder")).click()

    expect(second.locator("#board .flash.error")).to_have_text(
        "you have acted since this page was shown: here is the game as it is now"
    )
    expect(second.locator("#board")).to_have_attribute("data-version", str(game.version))
    expect(second.locator(".pr-buttons-settler")).to_be_visible()
    assert "anna takes the settler" in log_lines(second)
    game.refresh_from_db()
    assert game.moves.count() == moves
    assert not game.moves.filter(action__role="builder").exists()
    offered = second.locator(".pr-buttons-settler button").evaluate_all(
        "buttons => buttons.map(b => JSON.parse(b.value).type)"
    )
    assert offered and set(offered) <= {"settle", "hacienda", "pass"}


def test_the_last_move_shows_the_game_finished_on_every_page_without_a_reload(
    open_page, anna, bob, django_user_model
):
    users = [anna, bob, make_user(django_user_model, "chris")]
    game = one_move_from_the_end(users)
    last, waiting = holder(game, users), holder(game, users, (game.current_position + 1) % 3)
    pages = [open_page(last), open_page(waiting)]
    heading = {page: page.locator(".game-head h1 small") for page in pages}
    for page in pages:
        page.goto(game.get_absolute_url())
        expect(heading[page]).to_contain_text(str(Game.Status.RUNNING.label))
        page.evaluate("window.__marker = 1")

    pages[0].get_by_role("button", name=re.compile("^Captain")).click()

    finished = str(Game.Status.FINISHED.label)
    for page in pages:
        expect(heading[page]).to_contain_text(finished)
        expect(page.locator("#outcome-title")).to_be_visible()
        assert page.locator("#board").get_attribute("hx-trigger") is None  # no more polling
        assert page.evaluate("window.__marker") == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_a_refused_placement_shows_its_reason_next_to_the_form_as_entered(open_page, anna, bob):
    game = game_with_governor(anna, bob)
    page = open_page(anna)
    page.goto(game.get_absolute_url())
    page.get_by_role("button", name=re.compile("^Mayor")).click()
    # Every colonist sent back to San Juan by the drawn board's clicks (board.js), which set
    # the form's counts: the engine refuses, circles being free.
    page.locator(".pr-mayor [data-do=clear]").click()
    counts = page.locator(".pr-mayor input[type=number]")
    assert {count.input_value() for count in counts.all()} == {"0"}
    version = board_version(page)

    page.get_by_role("button", name="Place colonists").click()

    error = page.locator(".pr-choices .flash.error")
    expect(error).to_be_visible()
    expect(page.locator("#board .flash")).to_have_count(1)
    assert error.inner_text().strip()[0].isupper()  # a sentence, not a lowercase fragment
    assert error.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    assert error.evaluate("e => e.nextElementSibling.matches('.pr-mayor')")
    kept = [count.input_value() for count in page.locator(".pr-mayor input[type=number]").all()]
    assert kept and set(kept) == {"0"}
    # The drawn board shows the placement as sent, not as the colonists stood.
    placed = ".pr-player.is-viewer :is(.pr-tile, .pr-building) circle.is-colonist"
    expect(page.locator(".pr-mayor.is-drawn")).to_be_visible()
    expect(page.locator(placed)).to_have_count(0)
    assert board_version(page) == version
    game.refresh_from_db()
    assert game.version == version


COUNT_POLLS = """
Object.defineProperty(document, "visibilityState", {
  configurable: true,
  get: () =>
    document.documentElement.dataset.visibility || (window.startHidden ? "hidden" : "visible"),
});
for (const [event, key] of [["htmx:beforeRequest", "polls"], ["htmx:afterRequest", "answered"]]) {
  document.addEventListener(event, () => {
    const data = document.documentElement.dataset;
    data[key] = Number(data[key] || 0) + 1;
  });
}
"""
"""The page's visibility set by the test (``data-visibility`` on ``<html>``), and its polls
counted where the test can wait for them."""


def test_a_hidden_tab_polls_every_15_seconds_and_a_visible_one_every_second(open_page, anna, bob):
    game = game_with_governor(bob, anna)
    page = open_page(anna)
    page.add_init_script(COUNT_POLLS)
    page.add_init_script("window.startHidden = true")
    # The page's clock stands still but for run_for: a slow machine adds no poll of its own.
    page.clock.install(time=0)
    page.clock.pause_at(1_000)
    page.goto(game.get_absolute_url())
    expect(page.locator(".turn")).to_contain_text("Waiting for bob")
    html = page.locator("html")

    def polls() -> int:
        return int(page.evaluate("document.documentElement.dataset.polls || 0"))

    def answered(count: int) -> None:
        expect(html).to_have_attribute("data-answered", str(count))

    page.clock.run_for(14_500)
    assert polls() == 0
    page.clock.run_for(1_000)
    answered(1)
    assert polls() == 1

    # Back on the tab: one poll at once, then one a second.
    page.evaluate(
        "document.documentElement.dataset.visibility = 'visible';"
        " document.dispatchEvent(new Event('visibilitychange'))"
    )
    answered(2)
    for count in (3, 4):
        page.clock.run_for(1_000)
        answered(count)
    assert polls() == 4


def test_on_a_phone_the_german_board_fits_too(open_page, anna, bob, tmp_path):
    """German words are longer: "Siegpunktechips" once pushed the player boards off-screen."""
    anna.language = "de"
    anna.save(update_fields=["language"])
    game = game_with_governor(anna, bob)
    page = open_page(anna, **PHONE)
    page.goto(game.get_absolute_url())
    expect(page.locator("#pr-choices-title")).to_have_text("Deine Wahl")
    assert no_horizontal_overflow(page)
    page.get_by_role("button", name="Bürgermeister").click()
    expect(page.get_by_role("button", name="Kolonisten verteilen")).to_be_visible()
    assert no_horizontal_overflow(page)
    page.screenshot(path=tmp_path / "phone-de-mayor.png", full_page=True)


def test_a_page_on_your_turn_shows_at_once_that_the_other_player_took_back_a_move(
    open_page, anna, bob, tmp_path
):
    game = services.create_game(anna, engine="puerto_rico", num_players=2)
    services.join_game(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    first = anna if game.seat_to_act().user_id == anna.pk else bob
    second = bob if first == anna else anna
    services.submit_move(game.pk, {"type": "choose_role", "role": "builder"}, user=first)
    services.submit_move(game.pk, {"type": "pass"}, user=first)  # builds nothing
    game = Game.objects.get(pk=game.pk)
    assert game.seat_to_act().user_id == second.pk
    page = open_page(second)
    page.goto(game.get_absolute_url())
    expect(page.locator("#pr-choices-title")).to_have_text("Your choice")

    services.undo_move(game.pk, first, expected_version=game.version)

    notice = page.locator("#board .flash.notice")
    expect(notice).to_have_text(
        f"{first.public_name} took back a move: here is the game as it is now"
    )
    expect(page.locator("#pr-choices-title")).to_have_count(0)
    expect(page.locator("#board")).to_have_attribute("data-your-move", "false")
    page.screenshot(path=tmp_path / "took-back.png", full_page=False)
