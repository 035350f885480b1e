"""The drawn board in Chromium: a 4-player table fits one desktop screen (1280 by 900) at the
start, in a mayor and a captain phase and at the end; on a phone (390 by 844) the own board and
the choices come first; a click on a drawn role card chooses it; a piece shows its rule.

Screenshots of every page go to the test's temporary directory."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from games import services
from games.models import Game
from games.registry import get_engine
from games.ui.puerto_rico_rules import building_rule
from tests.browser import PHONE, test_play
from tests.browser.test_play import board_version, make_user
from tests.engines.positions import choose, player, position

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pr = get_engine("puerto_rico")
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
open_page = test_play.open_page
"""A logged-in page in a fresh browser context (``test_play.open_page``)."""


@pytest.fixture
def four(django_user_model):
    """A running 4-player game of anna, bob, chris and david."""
    users = [make_user(django_user_model, n) for n in ("anna", "bob", "chris", "david")]
    game = services.create_game(users[0], engine="puerto_rico", num_players=4)
    for user in users[1:]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk), users


def late_game() -> pr.State:
    """Four full-looking boards in a captain phase: goods, buildings, loaded ships."""
    players = [
        player(
            doubloons=6,
            vp=14,
            goods={"corn": 3, "sugar": 2, "coffee": 1},
            island={"corn": (3, 3), "sugar": (2, 2), "coffee": (1, 1), "quarry": (2, 2)},
            city={"small_sugar_mill": 1, "coffee_roaster": 1, "harbor": 1, "guild_hall": 1},
            san_juan=2,
        ),
        player(
            doubloons=11,
            vp=9,
            goods={"indigo": 4, "tobacco": 2},
            island={"indigo": (4, 4), "tobacco": (2, 2), "corn": (1, 1)},
            city={"indigo_plant": 3, "tobacco_storage": 2, "small_market": 1, "factory": 1},
        ),
        player(
            doubloons=3,
            vp=17,
            goods={"corn": 2},
            island={"corn": (2, 2), "indigo": (1, 1), "quarry": (1, 1)},
            city={"small_indigo_plant": 1, "hacienda": 1, "wharf": 1, "residence": 0},
        ),
        player(
            doubloons=8,
            vp=5,
            goods={"sugar": 1, "indigo": 1},
            island={"sugar": (2, 1), "indigo": (2, 2)},
            city={"sugar_mill": 2, "small_indigo_plant": 1, "office": 1, "university": 1},
        ),
    ]
    state = position(
        players,
        ships=[("indigo", 2), ("corn", 4), (None, 0)],
        trading_house=["coffee", "sugar"],
        face_up=["corn", "indigo", "sugar", "tobacco", "coffee"],
    )
    return choose(state, "captain")


def put(game: Game, state: pr.State, **more) -> Game:
    Game.objects.filter(pk=game.pk).update(
        state=pr.to_json(state), current_position=state.current, **more
    )
    return Game.objects.get(pk=game.pk)


def user_at(game: Game, users, position: int):
    seat = game.seats.get(position=position)
    return next(u for u in users if u.pk == seat.user_id)


def height(page: Page) -> int:
    """How far down the page the drawn table (with the choices and every player's board)
    reaches; the folded log, the chat and the score chart come below it."""
    return page.evaluate(
        "Math.ceil(document.querySelector('.pr').getBoundingClientRect().bottom + scrollY)"
    )


def top(page: Page, css: str) -> float:
    return page.locator(css).first.bounding_box()["y"]


SIDE_SCROLLERS = """() => [...document.querySelectorAll('#board *')]
  .filter(e => e instanceof HTMLElement && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1
    && getComputedStyle(e).overflowX !== 'visible')
  .map(e => e.className)"""
"""The boxes of the board that cut off or scroll sideways what they hold (not the 1-pixel boxes
of words only screen readers read)."""


def look(open_page, game: Game, user, name: str, tmp_path) -> tuple[int, Page]:
    """The page on a desktop (its height) and on a phone, both photographed. On neither does
    the page scroll sideways, nor does any box of the board hide a side-scroller."""
    desk = open_page(user, **DESKTOP)
    desk.goto(game.get_absolute_url())
    expect(desk.locator(".pr")).to_be_visible()
    desk.screenshot(path=tmp_path / f"{name}-1280x900.png")
    assert desk.evaluate("document.scrollingElement.scrollWidth") <= 1280
    assert desk.evaluate(SIDE_SCROLLERS) == []
    phone = open_page(user, **PHONE)
    phone.goto(game.get_absolute_url())
    expect(phone.locator(".pr")).to_be_visible()
    phone.screenshot(path=tmp_path / f"{name}-390x844.png", full_page=True)
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert phone.evaluate(SIDE_SCROLLERS) == []
    # On a phone the own board and the choices come first, then the table, then the others.
    assert top(phone, ".pr-mine") < top(phone, ".pr-center") < top(phone, ".pr-players")
    return height(desk), phone


def test_a_four_player_table_fits_the_desktop_and_puts_the_own_board_first_on_a_phone(
    open_page, four, tmp_path
):
    game, users = four
    start = pr.from_json(game.state)
    to_act = user_at(game, users, start.current)
    desk_height, phone = look(open_page, game, to_act, "start", tmp_path)
    assert desk_height <= 900
    expect(phone.locator(".pr-mine .pr-choices")).to_be_visible()

    mayor = put(game, pr.apply(start, pr.ChooseRole("mayor")))
    state = pr.from_json(mayor.state)
    desk_height, phone = look(
        open_page, mayor, user_at(game, users, state.current), "mayor", tmp_path
    )
    assert desk_height <= 900
    expect(phone.locator(".pr-mine .pr-mayor")).to_be_visible()

    captain = late_game()
    game = put(game, captain)
    desk_height, phone = look(
        open_page, game, user_at(game, users, captain.current), "captain", tmp_path
    )
    assert desk_height <= 900
    expect(phone.locator(".pr-mine .pr-buttons-captain")).to_be_visible()
    german = user_at(game, users, captain.current)
    german.language = "de"
    german.save()
    desk_height, phone = look(open_page, game, german, "captain-de", tmp_path)
    assert desk_height <= 900

    over = pr.to_json(captain)
    over["phase"], over["current"] = "over", None
    game = put(game, pr.from_json(over), status=Game.Status.FINISHED)
    seats = list(game.seats.order_by("position"))  # its rows, as the last move writes them
    services.write_results(
        game, pr.from_json(over), seats, {s.position: ("person", 0, 0) for s in seats}
    )
    desk_height, phone = look(open_page, game, users[0], "end", tmp_path)
    # The final score is shown above the table: the one page that may scroll a little.
    assert desk_height <= 900 + 200
    expect(phone.locator(".outcome")).to_be_visible()


def test_a_click_on_a_drawn_role_card_chooses_it_and_a_piece_shows_its_rule(open_page, four):
    game, users = four
    state = pr.from_json(game.state)
    page = open_page(user_at(game, users, state.current), **DESKTOP)
    page.goto(game.get_absolute_url())

    page.locator("#pr-building-wharf").hover()
    expect(page.locator("#pr-help")).to_contain_text(building_rule("wharf"))
    page.locator("#pr-building-hacienda").focus()
    expect(page.locator("#pr-help")).to_contain_text(building_rule("hacienda"))

    card = page.locator(".pr-role.is-choice").filter(has_text=re.compile("^Builder"))
    expect(page.locator(".pr-role.is-choice")).to_have_count(len(state.roles))
    version = board_version(page)
    card.click()
    expect(page.locator("#board")).not_to_have_attribute("data-version", str(version))
    expect(page.locator(".pr-phase")).to_have_text("Builder phase")
    first = Game.objects.get(pk=game.pk).moves.get(version=1)
    assert first.action == {"type": "choose_role", "role": "builder"}
    assert reverse("games:rules", args=["puerto-rico"]) in page.locator(".pr-help a").get_attribute(
        "href"
    )
