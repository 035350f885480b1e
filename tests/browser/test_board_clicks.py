"""Playing on the drawn board in Chromium. The mayor: colonists and a noble are arranged by
clicks, taps and the keyboard only (no number typed), the counts the clicks wrote are what is
posted, and the engine's state after the move is the arrangement clicked; the same on a phone
in German. The builder: a click on a building of the supply builds it. Screenshots go to
/tmp/mayor-*.png."""

import re

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.engines import puerto_rico as pr
from games.engines.puerto_rico.data import ISLAND_KINDS
from games.models import Game, Move
from tests.browser import PHONE
from tests.browser.test_board_drawing import put, user_at
from tests.browser.test_play import board_version, expect_board_after, make_user, open_page  # noqa: F401
from tests.engines.positions import choose, player, position
from tests.engines.test_nobles import NOBLES, noble_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDE = {"viewport": {"width": 1400, "height": 1000}}


def mayor_with_a_noble() -> pr.State:
    """Anna takes the mayor; the ship's only piece, its noble, comes to her. She has a colonist
    on her indigo tile and one in her indigo plant, two waiting in San Juan, and seven circles:
    corn, indigo and quarry tiles, the indigo plant's three, the small market's one."""
    anna = noble_player(
        island={"corn": 1, "indigo": (1, 1), "quarry": 1},
        city={"indigo_plant": 1, "small_market": 0},
        san_juan=2,
    )
    others = [noble_player(island={"corn": 1}), noble_player(island={"indigo": 1})]
    state = choose(position([anna, *others], colonists=(20, 0), options=NOBLES), "mayor")
    assert state.current == 0 and state.noble_seat == 0
    return state


def game_at(django_user_model, state: pr.State, options: dict | None = None):
    """A running game of anna, bob and chris at ``state``, and the user of its seat 0."""
    users = [make_user(django_user_model, n) for n in ("anna", "bob", "chris")]
    game = services.create_game(users[0], engine="puerto_rico", num_players=3, options=options)
    for user in users[1:]:
        services.join_game(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    # The seats are drawn: the state's seat 0 is whoever holds position 0. The game starts at
    # the position, so that an undo replays from it.
    return put(game, state, initial_state=pr.to_json(state)), user_at(game, users, 0)


@pytest.fixture
def mayor_game(django_user_model):
    return game_at(django_user_model, mayor_with_a_noble(), {"edition": "nobles"})


def spot(page: Page, field: str, slot: int = 0):
    return page.locator(f".pr-player.is-viewer .pr-spot[data-field='{field}']").nth(slot)


def circle_of(page: Page, field: str, slot: int = 0) -> str:
    """The class of the circle a spot stands for, as drawn."""
    return spot(page, field, slot).evaluate(
        "s => s.parentNode.querySelectorAll('circle.pr-slot')[s.dataset.slot].getAttribute('class')"
    )


def counts(page: Page) -> dict[str, str]:
    return dict(
        page.locator(".pr-mayor input[type=number]").evaluate_all(
            "inputs => inputs.map(i => [i.name, i.value])"
        )
    )


LANGUAGES_AND_DEVICES = pytest.mark.parametrize(
    ("language", "device"), [("en", WIDE), ("de", PHONE)], ids=["english-1400", "german-390"]
)
"""English on a wide desktop, German on a phone."""


def open_game(opener, game: Game, anna, language: str, device: dict) -> Page:
    """Anna's page of ``game`` in her ``language`` on ``device`` (``opener``: the
    ``open_page`` fixture)."""
    anna.language = language
    anna.save(update_fields=["language"])
    page = opener(anna, **device)
    page.goto(game.get_absolute_url())
    return page


@LANGUAGES_AND_DEVICES
def test_colonists_and_a_noble_are_placed_by_clicks_and_the_engine_takes_them(
    open_page,  # noqa: F811 (the fixture imported above)
    mayor_game,
    language,
    device,
):
    game, anna = mayor_game
    page = open_game(open_page, game, anna, language, device)
    phone = device is PHONE
    act = (lambda target: target.tap()) if phone else (lambda target: target.click())
    width = device["viewport"]["width"]

    form = page.locator(".pr-mayor")
    # The clicks are the way in: the number boxes give way, the circles are buttons.
    expect(form.locator(".pr-counts")).to_be_hidden()
    expect(form.locator(".pr-waiting")).to_be_visible()
    expect(spot(page, "city-indigo_plant", 2)).to_have_attribute("role", "button")
    # The form's pre-fill as drawn: the noble on the first free circle, the colonists after.
    assert "is-noble" in circle_of(page, "island-corn")
    assert "is-colonist" in circle_of(page, "island-quarry")
    assert "is-colonist" in circle_of(page, "city-indigo_plant", 1)
    assert "is-colonist" not in circle_of(page, "city-indigo_plant", 2)
    page.screenshot(path=f"/tmp/mayor-{language}-{width}.png", full_page=True)

    # The noble back to San Juan, then onto the small market.
    act(spot(page, "island-corn"))
    assert "is-noble" not in circle_of(page, "island-corn")
    expect(page.locator(".pr-player.is-viewer .pr-sanjuan circle.is-noble")).to_have_count(1)
    act(form.locator(".pr-placing [data-piece=noble]"))
    expect(form.locator(".pr-placing [data-piece=noble]")).to_have_attribute("aria-pressed", "true")
    act(spot(page, "city-small_market"))
    assert "is-noble" in circle_of(page, "city-small_market")
    # The privilege's colonist: with only colonists waiting, it goes where clicked.
    act(form.locator("input[name=privilege]"))
    expect(page.locator(".pr-player.is-viewer .pr-sanjuan circle.is-colonist")).to_have_count(1)
    act(spot(page, "island-corn"))
    assert "is-colonist" in circle_of(page, "island-corn")
    # Nobody waits: an empty circle says so and takes nothing.
    act(spot(page, "city-indigo_plant", 2))
    assert "is-colonist" not in circle_of(page, "city-indigo_plant", 2)
    expect(form.locator(".pr-waiting")).to_contain_text(
        "Nobody waits in San Juan" if language == "en" else "In San Juan wartet niemand"
    )
    # The quarry's colonist moves to the plant's third circle, by keyboard this time.
    act(spot(page, "island-quarry"))
    spot(page, "city-indigo_plant", 2).focus()
    page.keyboard.press("Enter")
    assert "is-colonist" in circle_of(page, "city-indigo_plant", 2)
    assert counts(page) == {
        "island-corn": "1",
        "noble-island-corn": "0",
        "island-indigo": "1",
        "noble-island-indigo": "0",
        "island-quarry": "0",
        "noble-island-quarry": "0",
        "city-indigo_plant": "3",
        "noble-city-indigo_plant": "0",
        "city-small_market": "0",
        "noble-city-small_market": "1",
    }
    page.screenshot(path=f"/tmp/mayor-{language}-{width}-placed.png", full_page=True)
    page.locator(".pr-player.is-viewer").screenshot(path=f"/tmp/mayor-{language}-{width}-board.png")

    version = board_version(page)
    act(form.locator("button[type=submit]"))
    expect_board_after(page, version)
    expect(page.locator("#board .flash")).to_have_count(0)
    move = Move.objects.get(game=game, seat__user=anna, action__type="arrange")
    assert move.action["privilege"] is True
    placed = pr.from_json(Game.objects.get(pk=game.pk).state).players[0]
    island = dict(zip(ISLAND_KINDS, placed.worked, strict=True))
    assert {k: island[k] for k in ("corn", "indigo", "quarry")} == {
        "corn": 1,
        "indigo": 1,
        "quarry": 0,
    }
    assert placed.city == {"indigo_plant": 3, "small_market": 1}
    assert placed.noble_city == {"small_market": 1}
    assert sum(placed.noble_worked) == 0
    assert placed.san_juan == 0


@LANGUAGES_AND_DEVICES
def test_a_click_on_a_building_of_the_supply_builds_it(
    open_page,  # noqa: F811 (the fixture imported above)
    django_user_model,
    language,
    device,
):
    anna_board = player(doubloons=4, island={"quarry": (1, 1)})
    others = [player(island={"corn": 1}), player(island={"indigo": 1})]
    game, anna = game_at(django_user_model, choose(position([anna_board, *others]), "builder"))
    page = open_game(open_page, game, anna, language, device)
    width = device["viewport"]["width"]

    # 4 doubloons, the privilege and a quarry: the office (5) costs 3; the factory (7) is out.
    office = page.locator("#pr-building-office")
    expect(office).to_have_attribute("data-action", re.compile("office"))
    expect(office.locator(".pr-price")).to_have_text("3")
    factory = page.locator("#pr-building-factory")
    expect(factory).not_to_have_attribute("data-action", re.compile("."))
    expect(page.locator(".pr-drawn-hint")).to_be_visible()
    page.screenshot(path=f"/tmp/mayor-build-{language}-{width}.png", full_page=True)
    version = board_version(page)
    factory.click()  # no choice: nothing is posted
    office.click()
    expect_board_after(page, version)
    expect(page.locator("#board .flash")).to_have_count(0)
    assert list(Move.objects.filter(game=game).values_list("action", flat=True)) == [
        {"type": "build", "building": "office", "university": False}
    ]
    built = pr.from_json(Game.objects.get(pk=game.pk).state).players[0]
    assert "office" in built.city and built.doubloons == 1
