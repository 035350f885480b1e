"""Playing Amerigo through the pages in Chromium: a whole 2-player game against an AI opened
in the lobby and played to its final scoring on a phone screen, every decision of the person
tapped or clicked on the page (ships and tiles on the map); and the map's fields by keyboard,
where a field naming two moves asks which one. AI turns run eagerly inside the request that
hands them the turn (``tests/conftest.py``), through the same code as on the site.

A whole game is some 120 to 135 decisions of the person (40 to 50 of them on the map) and
took about a minute on the shared 2-core machine.
"""

import json
import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from games import services
from games.models import Game
from games.registry import get_engine
from games.ui.amerigo import voyage
from games.ui.amerigo_names import field_name
from tests.browser import PHONE
from tests.browser.test_play import anna, board_version, expect_board_after, open_page  # noqa: F401
from tests.engines.amerigo.positions import position

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

am = get_engine("amerigo")
DESK = {"viewport": {"width": 1280, "height": 900}}
WANTED = ("blue", "green", "red")
"""The actions the person chooses when offered (in this order), else gold: ships, tiles."""


def page_values(page: Page) -> list[str]:
    """Every action the page's forms can post (button values and list entries), as JSON."""
    return page.evaluate(
        "[...document.querySelectorAll('.am-choices button[name=action], .am-choices option')]"
        ".map((e) => e.value)"
    )


def offered(page: Page) -> list[dict]:
    return [json.loads(v) for v in page_values(page)]


def press(page: Page, action: dict) -> None:
    """Post ``action`` from "Your choice": its button, or its entry of a list and the list's
    button."""
    value = next(v for v in page_values(page) if json.loads(v) == action)
    button = page.locator(".am-choices button[name=action]").filter(
        has=page.locator(f"xpath=self::*[@value='{value}']")
    )
    if button.count():
        button.click()
        return
    select = page.locator(".am-choices select").filter(
        has=page.locator(f"xpath=option[@value='{value}']")
    )
    select.select_option(value)
    select.locator("xpath=ancestor::form").get_by_role("button").click()


def map_field(page: Page, actions: list[dict]) -> str:
    """The ringed field to tap: a trading post's field if a voyage sets one there, else a
    field naming a single move, else any (the page then asks which move)."""
    posts = [a for a in actions if a["type"] == "sail" and a["post"]]
    rings = page.locator(".am-legal")
    if posts:
        cells = page.locator(".am-choices [data-cells]").evaluate_all(
            "(all, value) => all.filter((e) => e.value === value)"
            ".map((e) => e.dataset.cells.split(' ')[1])",
            json.dumps(posts[0]),
        )
        return cells[0]
    single = rings.filter(has=page.locator("xpath=self::*[contains(@aria-label, ': 1 move')]"))
    return (single if single.count() else rings).first.get_attribute("data-field")


def decide(page: Page, map_moves: list[str]) -> None:
    """Make one decision of the person on the page, waiting until the next board is in."""
    # A board swapped in is wired up by htmx when it settles: wait for that first.
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bhtmx-"))
    version = board_version(page)
    actions = offered(page)
    types = {a["type"] for a in actions}
    chosen = {a["colour"] for a in actions if a["type"] == "choose"}
    on_map = types & {"place_ship", "sail", "build"}
    if "choose" in types or "gold" in types:
        colour = next((c for c in WANTED if c in chosen), None)
        press(page, {"type": "choose", "colour": colour} if colour else {"type": "gold"})
    elif on_map:
        field = page.locator(f'.am-legal[data-field="{map_field(page, actions)}"]')
        label = field.get_attribute("aria-label")
        ship = field.get_attribute("data-ship")
        sails = ship and page.locator(f'.am-choices [data-way][data-ship="{ship}"]').count()
        field.tap()
        # The page asks which move (a field naming several, or one's own ship that may sail,
        # which a tap picks): take the first.
        pick = page.locator("#am-field-pick")
        if not label.endswith(": 1 move") or sails:
            expect(pick).to_be_visible()
            pick.locator(".am-field-pick-buttons button").first.click()
        map_moves.append(label)
    elif "take" in types and not any(a["type"] == "build" for a in actions):
        press(page, next(a for a in actions if a["type"] == "take"))
    else:
        press(page, {"type": "done"})
    expect_board_after(page, version)
    expect(page.locator("#board .flash")).to_have_count(0)


def test_a_whole_amerigo_game_against_an_ai_is_played_through_the_pages(open_page, anna):  # noqa: F811
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
    # On a phone the choices come right after the map (its key folded between them).
    map_box = page.locator(".am-map").bounding_box()
    choices = page.locator(".am-choices").bounding_box()
    assert 0 < choices["y"] - (map_box["y"] + map_box["height"]) < 80

    decisions, map_moves = 0, []
    while page.locator("#outcome-title").count() == 0:
        expect(page.locator("#am-choices-title")).to_have_text("Your choice")
        decide(page, map_moves)
        decisions += 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # Every decision of the person went through the page; ships moved on the map.
    position = game.seat_of(anna).position
    by_person = game.moves.filter(actor=anna, forced=False).count()
    assert by_person == decisions
    assert any(re.match(r"[A-Z]\d+: ", label) for label in map_moves)
    state = game.engine_state()
    assert any(c >= 0 for c in state.players[position].ships)
    with translation.override("en"):  # as the page names the AI seat
        names = game.names()
    outcome = am.outcome(state)
    totals = {names[place.seat]: place.score for place in outcome}
    rows = page.locator(".outcome tbody tr")
    expect(rows).to_have_count(2)
    shown = {
        row.locator("th").inner_text(): int(row.locator(".outcome-total").inner_text())
        for row in rows.all()
    }
    assert shown == totals
    winner = next(names[place.seat] for place in outcome if place.placement == 1)
    expect(page.locator(".outcome-winners")).to_have_text(f"Winner: {winner}")
    expect(page.locator(".am-choices")).to_have_count(0)


def test_the_map_by_keyboard_a_field_naming_two_moves_asks_which(open_page, anna):  # noqa: F811
    """Enter on the anchor field a ship stands on picks the ship and offers its staying with
    a trading post or without; a click on the post's field then narrows it to the one move and
    makes it. Space on a frame field puts the other ship there at once."""
    game = services.create_game(anna, num_players=2, engine="amerigo", ai_levels=["random"])
    seat = game.seat_of(anna).position
    state = position(2, seed=game.seed, field={"blue": 2}, seat=seat)
    post, anchor = state.map.posts[0]
    state.players[seat].ships = [anchor, -1]
    # The game starts from this position, as if set up so (undo replays from it).
    game.moves.all().delete()
    Game.objects.filter(pk=game.pk).update(
        state=am.to_json(state), initial_state=am.to_json(state), current_position=seat
    )
    names = {c: field_name(c, state.map.cols) for c in (post, anchor)}

    page = open_page(anna, **DESK)
    page.goto(game.get_absolute_url())
    # The desk shows the map and the choices side by side in the first screen.
    for part in (".am-map", ".am-choices", ".am-rondel-svg"):
        box = page.locator(part).bounding_box()
        assert box["y"] < 900 * 0.75, part
    version = board_version(page)
    page.get_by_role("button", name=re.compile(r"^Shipping \(blue\)")).click()
    expect_board_after(page, version)
    version = board_version(page)

    field = page.locator(f'.am-legal[data-field="{anchor}"]')
    expect(field).to_have_attribute("aria-label", f"{names[anchor]}: 2 moves")
    field.focus()
    page.keyboard.press("Enter")
    pick = page.locator("#am-field-pick")
    expect(pick).to_be_visible()
    expect(pick.locator(".am-field-pick-title")).to_have_text(
        "Ship 1: click a ringed field to sail there."
    )
    buttons = pick.locator(".am-field-pick-buttons button")
    expect(buttons).to_have_text(
        [
            f"Ship 1 stays on {names[anchor]}",
            f"Ship 1 stays on {names[anchor]} and set a trading post on {names[post]}",
        ]
    )
    expect(buttons.first).to_be_focused()
    assert board_version(page) == version  # nothing was posted yet
    page.locator(f'.am-legal[data-field="{post}"]').click()
    expect_board_after(page, version)
    game.refresh_from_db()
    after = game.engine_state().players[seat]
    assert after.posts == [post] and after.ships[0] == anchor
    island = state.map.island[post] + 1
    said = f"leaves ship 1 on {names[anchor]}, the anchor field at island {island}."
    expect(page.locator(".log li").filter(has_text=said)).to_have_count(1)

    version = board_version(page)
    frame = page.locator(".am-legal.am-frame").first
    target = int(frame.get_attribute("data-field"))
    frame.focus()
    page.keyboard.press(" ")
    expect_board_after(page, version)
    game.refresh_from_db()
    assert game.engine_state().players[seat].ships == [anchor, target]


def test_on_a_phone_the_larger_map_doubles_the_fields_and_stays_for_the_next_board(
    open_page,  # noqa: F811
    anna,  # noqa: F811
):
    """Fields of about 13 px are small to tap: "Larger map" doubles them in a box that scrolls
    sideways, and the next board swapped in after a move keeps it. The desk has no button."""
    game = services.create_game(anna, num_players=2, engine="amerigo", ai_levels=["random"])
    desk = open_page(anna, **DESK)
    desk.goto(game.get_absolute_url())
    expect(desk.locator(".am-zoom")).to_be_hidden()

    page = open_page(anna, **PHONE)
    page.goto(game.get_absolute_url())
    field = page.locator(".am-field").first
    small = field.bounding_box()["width"]
    assert small < 20
    zoom = page.get_by_role("button", name="Larger map")
    zoom.click()
    expect(zoom).to_have_attribute("aria-pressed", "true")
    assert field.bounding_box()["width"] >= 2 * small - 1
    scroller = page.locator(".am-map-scroll")
    assert scroller.evaluate("box => box.scrollWidth > box.clientWidth")

    version = board_version(page)
    page.locator(".am-choices button:visible").first.click()
    expect_board_after(page, version)
    expect(page.locator(".am-zoom")).to_have_attribute("aria-pressed", "true")
    assert page.locator(".am-field").first.bounding_box()["width"] >= 2 * small - 1
    page.get_by_role("button", name="Larger map").click()
    assert page.locator(".am-field").first.bounding_box()["width"] == pytest.approx(small)


def sailing_game(anna, ap: int = 4):  # noqa: F811
    """A 4-player game in which Anna has chosen shipping with ``ap`` AP, her ships on the
    frame, none sailed yet, and 5 gold; the game starts from this position."""
    game = services.create_game(anna, num_players=4, engine="amerigo", ai_levels=["random"] * 3)
    seat = game.seat_of(anna).position
    state = position(4, seed=game.seed, field={"blue": ap}, seat=seat)
    frame = state.map.frame
    state.players[seat].ships = [frame[0], frame[-1]]
    state.players[seat].gold = 5
    state = am.apply(state, {"type": "choose", "colour": "blue"})
    game.moves.all().delete()
    Game.objects.filter(pk=game.pk).update(
        state=am.to_json(state), initial_state=am.to_json(state), current_position=seat
    )
    return game, seat, state


def test_a_ship_sails_by_clicks_on_the_map_alone_its_way_drawn(open_page, anna):  # noqa: F811
    """The lists of voyages are folded away; pointing at a ringed field draws the way there;
    a click on the ship picks it (the other ship's fields dim) and a click on a field sails it
    there. No form control is touched."""
    game, seat, state = sailing_game(anna)
    start = state.players[seat].ships[0]
    voyages = [a for a in am.legal_actions(state) if a["type"] == "sail" and a["ship"] == 0]
    # The farthest field that names one move (a field where a trading post may also be set
    # asks which of the two, as the test of a whole game by clicks shows).
    posted = {a["to"] for a in voyages if a["post"]}
    target = max(
        (a["to"] for a in voyages if a["to"] not in posted),
        key=lambda to: len(voyage(state, start, to)),
    )
    page = open_page(anna, **DESK)
    page.goto(game.get_absolute_url())
    folded = page.locator(".am-as-list")
    expect(folded).to_have_count(1)
    expect(folded.locator("select, button[name=action]").first).to_be_hidden()
    expect(page.get_by_role("button", name="End the action (no ship has sailed)")).to_be_visible()

    field = page.locator(f'.am-legal[data-field="{target}"]')
    field.hover()
    way = page.locator(".am-voyage polyline")
    expect(way.first).to_be_visible()
    drawn = [p.get_attribute("points").split() for p in way.all()]
    cols = state.map.cols
    centres = [
        f"{14 + c % cols * 20 + 10},{14 + c // cols * 20 + 10}"
        for c in voyage(state, start, target)
    ]
    assert centres in drawn

    version = board_version(page)
    page.locator(f'.am-field[data-field="{start}"]').click()
    pick = page.locator("#am-field-pick")
    expect(pick.locator(".am-field-pick-title")).to_have_text(
        "Ship 1: click a ringed field to sail there."
    )
    reach = {str(a["to"]) for a in voyages} | {
        str(state.map.anchor_post.get(a["to"])) for a in voyages if a["post"]
    }
    candidates = page.locator(".am-candidate").evaluate_all(
        "all => all.map((e) => e.dataset.field)"
    )
    assert set(candidates) == reach
    field.click()
    expect_board_after(page, version)
    game.refresh_from_db()
    assert game.engine_state().players[seat].ships == [target, state.players[seat].ships[1]]
    expect(
        page.get_by_role("button", name="End the action (ship 2 has not sailed)")
    ).to_be_visible()
    expect(page.locator(".am-state")).to_contain_text("ship 2 may sail up to 4 fields")


def test_the_cubes_fall_out_of_the_tower_once_a_turn_and_not_under_reduced_motion(
    open_page,  # noqa: F811
    anna,  # noqa: F811
):
    game, _seat, _state = sailing_game(anna)
    page = open_page(anna, **DESK)
    page.goto(game.get_absolute_url())
    rondel = page.locator(".am-rondel-svg")
    expect(rondel).to_have_class(re.compile(r"\bam-falling\b"))
    fell = page.locator(".am-fell").first
    assert fell.evaluate("e => getComputedStyle(e).animationName") == "am-fall"
    # The next board of the same turn shows the cubes lying.
    version = board_version(page)
    page.get_by_role("button", name="Buy 1 AP for 1 gold").click()
    expect_board_after(page, version)
    expect(page.locator(".am-rondel-svg")).not_to_have_class(re.compile(r"\bam-falling\b"))

    calm = open_page(anna, reduced_motion="reduce", **DESK)
    calm.goto(game.get_absolute_url())
    expect(calm.locator(".am-rondel-svg")).to_have_class(re.compile(r"\bam-falling\b"))
    assert (
        calm.locator(".am-fell").first.evaluate("e => getComputedStyle(e).animationName") == "none"
    )


OVERFLOW = """(board) => {
    const box = board.getBoundingClientRect();
    const out = [];
    for (const e of board.querySelectorAll("*")) {
        const r = e.getBoundingClientRect();
        if (r.width && (r.right > box.right + 1 || r.left < box.left - 1)) {
            out.push(`${e.tagName}.${e.getAttribute("class")} sticks out`);
        }
        const style = getComputedStyle(e);
        if (style.overflowX !== "visible" && e.scrollWidth > e.clientWidth + 1) {
            out.push(`${e.tagName}.${e.getAttribute("class")} scrolls sideways`);
        }
    }
    return out;
}"""


@pytest.mark.parametrize(
    "screen",
    [
        {"viewport": {"width": 1280, "height": 900}},
        {"viewport": {"width": 1440, "height": 900}},
        PHONE,
    ],
    ids=["desk", "wide desk", "phone"],
)
def test_a_four_player_board_fits_the_screen_tracks_and_all(open_page, anna, screen):  # noqa: F811
    game, _seat, _state = sailing_game(anna)
    page = open_page(anna, **screen)
    page.goto(game.get_absolute_url())
    width = screen["viewport"]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    assert page.locator(".am").evaluate(OVERFLOW) == []
    tracks = page.locator(".am-track:visible")  # one drawing of each, in a row or two
    expect(tracks).to_have_count(4)
    box = page.locator(".am-tracks").bounding_box()
    for track in tracks.all():
        last = track.locator(".am-track-field").last.bounding_box()
        assert last["x"] + last["width"] <= box["x"] + box["width"] + 1
    # The track numbers are big enough to read.
    label = page.locator(".am-track:visible .am-track-label").first.bounding_box()
    assert label["height"] >= 11
