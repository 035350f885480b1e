"""A New Buildings game in Chromium: opened in the lobby against two AI players, the violet
buildings drafted through the page (a click on a candidate, and its button), then rounds
played with the first choice of each form. Screenshots of the draft on a desk and a phone.
The draft's grid fits a desk's first screen above the own board at its full size, and a
phone without sideways scrolling."""

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.registry import get_engine
from tests.browser import PHONE
from tests.browser.test_play import (
    PASS_LABELS,
    board_version,
    expect_board_after,
    make_user,
    open_in_lobby,
    open_page,  # noqa: F401 (a fixture)
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pr = get_engine("puerto_rico")
DESK = {"viewport": {"width": 1280, "height": 900}}


def settled(page: Page) -> None:
    """Wait until htmx has wired up the board just swapped in."""
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bhtmx-"))


def draft_one(page: Page, by_click: bool) -> None:
    settled(page)
    version = board_version(page)
    candidate = page.locator(".pr-draft li.is-choice").first
    if by_click:
        candidate.locator("strong").click()  # the card, not its button: board.js presses it
    else:
        candidate.get_by_role("button").click()
    expect_board_after(page, version)
    expect(page.locator("#board .flash")).to_have_count(0)


def first_choice(page: Page) -> None:
    """Submit the first choice of the panel's first form that does something."""
    settled(page)
    version = board_version(page)
    form = page.locator(".pr-choices form").first
    css = form.get_attribute("class")
    if "pr-mayor" in css:
        form.locator("button[type=submit]").click()
    elif "pr-store" in css:
        form.locator("input[type=radio]").first.check()
        form.locator("button[type=submit]").click()
    elif "pr-royal-supplier" in css:
        form.locator("input[type=checkbox]").first.check()
        form.locator("button[type=submit]").click()
    else:
        labels = form.locator("button").all_inner_texts()
        label = ([lb for lb in labels if lb not in PASS_LABELS] or labels)[0]
        form.get_by_role("button", name=label, exact=True).click()
    expect_board_after(page, version)
    expect(page.locator("#board .flash")).to_have_count(0)


def test_a_new_buildings_game_against_ais_is_drafted_and_played_in_the_pages(
    open_page,  # noqa: F811 (the fixture imported above)
    django_user_model,
    tmp_path,
):
    anna = make_user(django_user_model, "anna")
    page = open_page(anna, **DESK)
    game = open_in_lobby(page, 3, "easy", "easy", edition="New Buildings")
    assert game.options["edition"] == "new_buildings"
    expect(page.locator("#game-status")).to_contain_text("New Buildings")
    draft = page.locator(".pr-draft")
    expect(draft.get_by_role("heading", name="Building draft")).to_be_visible()
    expect(draft).to_contain_text("Always the office or the trading post, never both")

    # AI seats drafted before the page was answered: it is the person's pick.
    expect(draft).to_contain_text("Your pick:")
    page.screenshot(path=tmp_path / "draft-1280x900.png")
    phone = open_page(anna, **PHONE)
    phone.goto(game.get_absolute_url())
    expect(phone.locator(".pr-draft li.is-choice").first).to_be_visible()
    phone.screenshot(path=tmp_path / "draft-390x844.png")
    phone.screenshot(path=tmp_path / "draft-390x844-full.png", full_page=True)

    picks = 0
    while page.locator(".pr-draft").count():
        draft_one(page, by_click=picks == 0)
        picks += 1
    state = pr.from_json(game_state(game))
    seat = game.seats.get(user=anna).position
    assert picks == sum(1 for n in range(17) if n % 3 == seat)
    assert len(state.drafted) == 17 and state.phase != "draft"
    expect(page.locator(".pr-building.is-space")).to_have_count(0)

    for _ in range(80):
        state = pr.from_json(game_state(game))
        if pr.is_over(state) or state.round >= 3:
            break
        first_choice(page)
    assert state.round >= 3 or pr.is_over(state)
    page.screenshot(path=tmp_path / "round-3-1280x900.png", full_page=True)


MEASURE = """() => {
    const top = (css) => document.querySelector(css).getBoundingClientRect().top;
    return {
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        height: window.innerHeight,
        board: document.querySelector(".pr-mine .pr-board").getBoundingClientRect().width,
        board_top: top(".pr-mine .pr-board"),
        candidate_top: document.querySelector(".pr-candidate") && top(".pr-candidate"),
    };
}"""


def test_the_draft_grid_leaves_the_own_board_its_size_on_a_desk_and_fits_a_phone(
    open_page,  # noqa: F811 (the fixture imported above)
    django_user_model,
):
    anna = make_user(django_user_model, "anna")
    page = open_page(anna, **DESK)
    game = open_in_lobby(page, 4, "easy", "easy", "easy", edition="New Buildings")
    expect(page.locator(".pr-draft")).to_contain_text("Your pick:")
    # Four columns as the board has them, side by side on a desk.
    heads = page.locator(".pr-draft-column h3")
    expect(heads).to_have_count(4)
    expect(heads.nth(0)).to_contain_text("Cost 1\u20133")
    expect(heads.nth(3)).to_contain_text("Large buildings")
    tops = {round(h.bounding_box()["y"]) for h in heads.all()}
    assert len(tops) == 1
    drafting = page.evaluate(MEASURE)
    assert drafting["scroll"] <= drafting["client"]
    # The grid and the own board are both in the first screen.
    assert 0 <= drafting["candidate_top"] < drafting["height"]
    assert drafting["board_top"] < drafting["height"]

    # The same board once the draft is over: the draft took nothing of its width.
    state = pr.from_json(game_state(game))
    while state.phase == "draft":
        state = pr.apply(state, pr.legal_actions(state)[0])
    Game.objects.filter(pk=game.pk).update(state=pr.to_json(state))
    page.reload()
    expect(page.locator(".pr-draft")).to_have_count(0)
    playing = page.evaluate(MEASURE)
    assert drafting["board"] >= 0.95 * playing["board"]


def test_the_draft_fits_a_phone_and_its_rules_open_without_drafting(
    open_page,  # noqa: F811 (the fixture imported above)
    django_user_model,
):
    anna = make_user(django_user_model, "anna")
    game = open_in_lobby(
        open_page(anna, **DESK), 4, "easy", "easy", "easy", edition="New Buildings"
    )
    phone = open_page(anna, **PHONE)
    phone.goto(game.get_absolute_url())
    settled(phone)
    expect(phone.locator(".pr-draft li.is-choice").first).to_be_visible()
    measured = phone.evaluate(MEASURE)
    assert measured["scroll"] <= measured["client"]
    # The rule in one line; the whole of it behind "Rules".
    rules = phone.locator(".pr-draft-rules")
    expect(rules.locator(".pr-rule")).to_be_hidden()
    rules.locator("summary").click()
    expect(rules.locator(".pr-rule")).to_be_visible()
    # A candidate's rule opens with a tap on its "?", which drafts nothing.
    version, drafted = board_version(phone), game_state(game)["drafted"]
    candidate = phone.locator(".pr-draft li.is-choice").first
    rule = candidate.locator(".pr-candidate-rule p")
    expect(rule).to_be_hidden()
    candidate.get_by_role("group").locator("summary").tap()
    expect(rule).to_be_visible()
    expect(candidate.get_by_role("button")).to_have_accessible_description(rule.inner_text())
    assert board_version(phone) == version and game_state(game)["drafted"] == drafted
    measured = phone.evaluate(MEASURE)
    assert measured["scroll"] <= measured["client"]


def game_state(game: Game) -> dict:
    game.refresh_from_db()
    return game.state
