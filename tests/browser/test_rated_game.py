"""A rated game from the lobby to the players' pages, in Chromium: Anna opens a rated game of
Puerto Rico with a seat for a person and one for an AI player, Bob joins it, the game reaches
its last decision, the player to act takes the captain, and both player pages show the new
ratings and the game; the leaderboard ranks them, the AI level apart."""

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from games.registry import get_engine
from players.models import Rating, RatingChange
from tests.browser.test_play import anna, bob, make_user, open_page  # noqa: F401 - fixtures
from tests.engines.positions import choose, play, player, position
from tests.engines.test_edge_cases import ELEVEN_SMALL

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pr = get_engine("puerto_rico")
SHOTS = "/tmp/rated-game-{}.png"


def last_decision():
    """A position where the seat to act ends the game by taking the captain: the 12th city
    space was built this round, and nothing happens in the phases left."""
    players = [player(doubloons=4, city=ELEVEN_SMALL), player(), player()]
    state = play(choose(position(players), "builder"), pr.Build("office"))
    state = choose(state, "trader")
    assert pr.is_over(choose(state, "captain"))
    return state


def seed_seating_people_at(*positions: int) -> int:
    """A seed whose seating (``services.seating`` of the seats in the order they were taken)
    puts the two persons (taken first and third; the AI second) at ``positions``."""
    for seed in range(1, 500):
        seats = services.seating(seed, ["anna", "ai", "bob"])
        if all(seats[p] != "ai" for p in positions):
            return seed
    raise AssertionError("no seed seats the persons there")


def test_two_people_and_an_ai_finish_a_rated_game_and_their_pages_show_the_ratings(
    open_page,  # noqa: F811
    anna,  # noqa: F811
    bob,  # noqa: F811
):
    state = last_decision()
    page = open_page(anna)
    page.goto("/games/")
    page.locator("#id_num_players").select_option("3")
    page.locator("#id_seat_3").select_option("medium")
    page.get_by_label("Rated game").check()
    page.get_by_role("button", name="Open the game").click()
    expect(page.locator("#game-status")).to_be_visible()
    game = Game.objects.get()
    assert game.rated and game.status == Game.Status.OPEN
    # The seat to act at the last decision, and the first governor, are persons.
    Game.objects.filter(pk=game.pk).update(seed=seed_seating_people_at(0, state.current))

    other = open_page(bob)
    other.goto(game.get_absolute_url())
    other.get_by_role("button", name="Take a seat").click()
    expect(other.locator("#game-status")).to_be_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.version == 0
    Game.objects.filter(pk=game.pk).update(state=pr.to_json(state), current_position=state.current)
    # Fresh tabs: the ones open reload themselves now that the game has started.
    tabs = {user: open_page(user) for user in (anna, bob)}
    mover = tabs[game.seats.get(position=state.current).user]
    mover.goto(game.get_absolute_url())
    mover.get_by_role("button", name=re.compile("^Captain")).click()
    expect(mover.locator("#outcome-title")).to_be_visible()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    expect(mover.locator(".outcome-rating").first).to_be_visible()
    mover.screenshot(path=SHOTS.format("final-table"), full_page=True)

    assert RatingChange.objects.filter(game=game).count() == 3
    for user, tab in tabs.items():
        rating = Rating.objects.get(user=user, ladder="puerto_rico")
        assert rating.games == 1
        tab.goto(f"/players/{user.username}/")
        expect(tab.locator("body")).to_contain_text(str(rating.value))
        expect(tab.locator(f'a[href="{game.get_absolute_url()}"]').first).to_be_visible()
        tab.screenshot(path=SHOTS.format(f"player-{user.username}"), full_page=True)

    ai = Rating.objects.get(ai_level="medium", ladder="puerto_rico")
    board = tabs[anna]
    board.goto("/players/ratings/puerto_rico/")
    persons = board.locator("table").first
    expect(persons).to_contain_text("anna")
    expect(persons).to_contain_text("bob")
    expect(board.locator("body")).to_contain_text(str(ai.value))
    board.screenshot(path=SHOTS.format("leaderboard"), full_page=True)
