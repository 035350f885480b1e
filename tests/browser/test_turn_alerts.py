"""Turn alerts on the game page: the tab's title and icon show the player's move; the sound and
the browser notification come only when turned on in the profile, and only when the move
comes to the player while the page is open.

The speaker and the operating system's notification centre are outside the site: the page's
``AudioContext`` and ``Notification`` are replaced by recorders before its scripts run.
"""

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from games.registry import get_engine
from tests.browser.test_play import COUNT_POLLS, anna, bob, game_with_governor, open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["anna", "bob", "open_page"]  # fixtures

pr = get_engine("puerto_rico")

RECORD_ALERTS = """
window.alerts = {tones: 0, notifications: []};
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    return {frequency: {}, connect: (next) => next, start: () => { window.alerts.tones += 1; },
            stop() {}};
  }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
                         connect: (next) => next}; }
  close() {}
};
window.Notification = class {
  constructor(title, options) { window.alerts.notifications.push([title, options.body]); }
};
window.Notification.permission = "granted";
"""


def play_until_the_move_is(game: Game, user, others) -> None:
    """The first legal action of whoever is to act, until ``user`` is (AI seats move by
    themselves in the tests)."""
    while (seat := Game.objects.get(pk=game.pk).seat_to_act()).user_id != user.pk:
        mover = next(u for u in others if u.pk == seat.user_id)
        state = Game.objects.get(pk=game.pk).engine_state()
        action = pr.action_to_json(pr.legal_actions(state)[0])
        services.submit_move(game.pk, action, user=mover)


def open_hidden_waiting_page(open_page, user, game):
    """The game page of ``user`` in a background tab, its clock paused: it polls every 15 s
    of the page's time."""
    page = open_page(user)
    page.add_init_script(COUNT_POLLS)
    page.add_init_script("window.startHidden = true")
    page.add_init_script(RECORD_ALERTS)
    page.clock.install(time=0)
    page.clock.pause_at(1_000)
    page.goto(game.get_absolute_url())
    return page


def test_the_move_coming_to_you_changes_the_title_and_icon_and_sounds_and_notifies(
    open_page, anna, bob
):
    anna.turn_sound = anna.turn_notification = True
    anna.save()
    game = game_with_governor(bob, anna)
    page = open_hidden_waiting_page(open_page, anna, game)
    expect(page.locator(".turn")).to_contain_text("Waiting for bob")
    expect(page).to_have_title(f"Game {game.pk} · Puerto Rico · puerto")
    assert page.locator('link[rel="icon"]').get_attribute("href").endswith("/favicon.svg")

    play_until_the_move_is(game, anna, [bob])
    page.clock.run_for(15_000)

    expect(page).to_have_title(f"Your move · Game {game.pk} · Puerto Rico · puerto")
    assert page.locator('link[rel="icon"]').get_attribute("href").endswith("/favicon-turn.svg")
    assert page.evaluate("window.alerts") == {
        "tones": 1,
        "notifications": [["Your move", f"Game {game.pk} · Puerto Rico · puerto"]],
    }


def test_without_the_settings_only_the_title_and_icon_change(open_page, anna, bob):
    game = game_with_governor(bob, anna)
    page = open_hidden_waiting_page(open_page, anna, game)
    expect(page.locator(".turn")).to_contain_text("Waiting for bob")

    play_until_the_move_is(game, anna, [bob])
    page.clock.run_for(15_000)

    expect(page).to_have_title(f"Your move · Game {game.pk} · Puerto Rico · puerto")
    assert page.evaluate("window.alerts") == {"tones": 0, "notifications": []}


def test_a_page_opened_on_your_move_shows_it_without_a_sound(open_page, anna, bob):
    anna.turn_sound = anna.turn_notification = True
    anna.language = "de"
    anna.save()
    game = game_with_governor(anna, bob)
    page = open_page(anna)
    page.add_init_script(RECORD_ALERTS)
    page.goto(game.get_absolute_url())

    expect(page).to_have_title(f"Du bist am Zug · Partie {game.pk} · Puerto Rico · puerto")
    assert page.locator('link[rel="icon"]').get_attribute("href").endswith("/favicon-turn.svg")
    assert page.evaluate("window.alerts") == {"tones": 0, "notifications": []}
