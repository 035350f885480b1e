"""Hints and reviews in the browser, in English and German: a casual game offers "What would
the AI do?" on the player's turn and shows the answer when the worker has it, a rated game
offers nothing; a finished game links each person to the review of their decisions, whose
costliest decision shows the board at that moment.

Tasks run eagerly after commit (``tests/conftest.py``): the hint's answer and the reviews are
written by the time the request that queued them has answered.
"""

import random

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from tests.browser import PHONE, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "ask": "What would the AI do?",
        "answer": "The AI would choose:",
        "used": "anna used 1 hint",
        "review": "The AI's review of your decisions",
        "heading": "Review of game",
        "chart": "Your win chance after each decision",
    },
    "de": {
        "ask": "Was würde die KI tun?",
        "answer": "Die KI würde wählen:",
        "used": "anna hat 1 Tipp genutzt",
        "review": "Die Analyse deiner Entscheidungen durch die KI",
        "heading": "Analyse der Partie",
        "chart": "Deine Siegchance nach jeder Entscheidung",
    },
}


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(n) for n in ("anna", "bob", "chris")]


def signed_in(browser, live_server, user, language, **screen):
    user.language = language
    user.save()
    context = browser.new_context(base_url=live_server.url, locale=language, **screen)
    sign_in(context, live_server, user)
    return context.new_page()


def table(users, *, rated: bool) -> Game:
    """Anna, Bob and Chris at a new game; the others' first decisions played until Anna's
    turn."""
    game = services.create_game(users[0], engine="puerto_rico", num_players=3, rated=rated)
    for user in users[1:]:
        services.join_game(game.pk, user)
    return play(Game.objects.get(pk=game.pk), until=users[0])


def play(game: Game, until=None, rng=None) -> Game:
    """Legal moves for the others (random ones with ``rng``) until ``until``'s turn or the end."""
    while game.status == Game.Status.RUNNING:
        player = game.seat_to_act().user
        if player == until:
            break
        legal = game.rules.legal_actions(game.engine_state())
        action = rng.choice(legal) if rng else legal[0]
        services.submit_move(
            game.pk, game.rules.action_to_json(action), user=player, expected_version=game.version
        )
        game = Game.objects.get(pk=game.pk)
    return game


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_casual_game_offers_a_hint_and_a_rated_one_does_not(
    browser, live_server, users, language, settings
):
    settings.ANALYSIS_SIMULATIONS = 12
    words = WORDS[language]
    casual = table(users, rated=False)
    page = signed_in(browser, live_server, users[0], language)
    page.goto(casual.get_absolute_url())
    page.get_by_role("button", name=words["ask"]).click()
    hint = page.locator("#hint")
    expect(hint).to_contain_text(words["answer"])
    expect(hint.locator(".hint-choices li")).not_to_have_count(0)
    page.screenshot(path=f"/tmp/hint-{language}.png", full_page=True)

    bob = signed_in(browser, live_server, users[1], language)
    bob.goto(casual.get_absolute_url())
    expect(bob.locator(".hints-used")).to_contain_text(words["used"])
    expect(bob.get_by_role("button", name=words["ask"])).to_have_count(0)  # not his turn

    rated = table(users, rated=True)
    page.goto(rated.get_absolute_url())
    expect(page.locator("#board")).to_be_visible()
    expect(page.get_by_role("button", name=words["ask"])).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_finished_game_shows_each_player_the_review_of_their_decisions(
    browser, live_server, users, language, settings
):
    settings.PUERTO_REVIEWS = True
    settings.ANALYSIS_SIMULATIONS = 2
    words = WORDS[language]
    game = services.create_game(users[0], engine="puerto_rico", num_players=2)
    services.join_game(game.pk, users[1])
    game = play(Game.objects.get(pk=game.pk), rng=random.Random(3))
    assert game.status == Game.Status.FINISHED

    for user in users[:2]:
        page = signed_in(browser, live_server, user, language)
        page.goto(game.get_absolute_url())
        page.get_by_role("link", name=words["review"]).click()
        expect(page.locator("h1")).to_contain_text(words["heading"])
        expect(page.locator(".win-chart svg polyline")).to_have_count(1)
        expect(page.locator(".win-chart")).to_contain_text(words["chart"])
        costly = page.locator(".review-costly li a")
        if costly.count():
            costly.last.click()
            expect(page.locator(".review-costly li.shown a")).to_have_attribute(
                "aria-current", "true"
            )
            expect(page.locator("#review-board")).to_be_visible()
        page.screenshot(path=f"/tmp/review-{language}-{user.username}.png", full_page=True)
    phone = signed_in(browser, live_server, users[0], language, **PHONE)
    phone.goto(f"/games/{game.pk}/review/")
    labels = phone.locator(".win-chart svg text").evaluate_all(
        """texts => texts.map(t => {
             const box = t.getBoundingClientRect(), svg = t.ownerSVGElement.getBoundingClientRect();
             return {height: box.height, inside: box.left >= svg.left && box.right <= svg.right};
           })"""
    )
    assert labels and all(label["height"] >= 10 and label["inside"] for label in labels), labels
    phone.screenshot(path=f"/tmp/review-{language}-phone.png", full_page=True)
    stranger = signed_in(browser, live_server, users[2], language)
    assert stranger.goto(f"/games/{game.pk}/review/").status == 404
