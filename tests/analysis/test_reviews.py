"""Post-game reviews: each person's decisions judged by the hard player's search from their
own view, on the ``reviews`` queue; the review page shows the player their win chance over
the game and their costliest decisions with the board at that moment."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from analysis import reviews
from analysis.models import Review
from games import services
from games.bots import Estimate
from games.models import Game, Seat
from puerto.celery import app as celery_app
from tests.accounts.test_bot_accounts import badged, panel_badges


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]


@pytest.fixture
def finished(users, settings, django_capture_on_commit_callbacks):
    """Anna and Bob against an easy AI player, played to the end by random legal moves; the
    reviews queued at the end run (eagerly) as the worker's."""
    settings.PUERTO_REVIEWS = True
    settings.ANALYSIS_SIMULATIONS = 2
    game = services.create_game(
        users[0], engine="puerto_rico", num_players=3, ai_seats=1, ai_level=Seat.AI.EASY
    )
    rng = random.Random(4)
    with django_capture_on_commit_callbacks(execute=True):
        services.join_game(game.pk, users[1])
    game = Game.objects.get(pk=game.pk)
    while game.status == Game.Status.RUNNING:
        player = game.seat_to_act().user
        action = rng.choice(game.rules.legal_actions(game.engine_state()))
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_move(
                game.pk,
                game.rules.action_to_json(action),
                user=player,
                expected_version=game.version,
            )
        game = Game.objects.get(pk=game.pk)
    return game


def test_a_decision_is_marked_by_the_win_chance_it_lost_beyond_the_searchs_noise():
    """Best 60 %, played 20 %: 40 points lost, a blunder over 400 playouts each; over 5 each
    the search cannot tell them apart (two standard errors are 57 points)."""

    def pair(n):
        return [Estimate("best", 0.6, n, True), Estimate("played", 0.2, n, True)]

    assert reviews.judge(pair(400), "played")["mark"] == "blunder"
    assert reviews.judge(pair(5), "played")["mark"] == ""
    assert reviews.judge(pair(400), "best")["loss"] == 0.0
    # One playout each, won after the best and lost after the played: no verdict at all.
    once = [Estimate("best", 1.0, 1, True), Estimate("played", 0.0, 1, True)]
    assert reviews.judge(once, "played")["mark"] == ""
    mistake = [Estimate("best", 0.5, 400, True), Estimate("played", 0.25, 400, True)]
    assert reviews.judge(mistake, "played")["mark"] == "mistake"
    inaccuracy = [Estimate("best", 0.5, 900, True), Estimate("played", 0.38, 900, True)]
    assert reviews.judge(inaccuracy, "played")["mark"] == "inaccuracy"


@pytest.mark.django_db
def test_a_finished_game_reviews_each_persons_decisions_and_no_ai_seat(finished, users):
    by_user = {r.seat.user_id: r for r in Review.objects.select_related("seat")}
    assert set(by_user) == {users[0].pk, users[1].pk}
    for user in users[:2]:
        review = by_user[user.pk]
        assert review.status == Review.Status.DONE and not review.pending
        decisions = finished.moves.filter(actor=user, forced=False)
        versions = set(decisions.values_list("version", flat=True))
        judged = [d["version"] for d in review.decisions]
        assert judged and set(judged) <= versions and judged == sorted(judged)
        for d in review.decisions:
            assert 0.0 <= d["win"] <= d["best_win"] <= 1.0
            assert d["loss"] == pytest.approx(d["best_win"] - d["win"])
        assert review.cpu_seconds > 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Review of game", "Your win chance", "decisions judged")),
        ("de", ("Analyse der Partie", "Deine Siegchance", "Entscheidungen bewertet")),
    ],
)
def test_the_review_page_shows_the_player_their_game_and_nobody_else(
    finished, users, language, words
):
    users[0].language = language
    users[0].save()
    anna = Client()
    anna.force_login(users[0])
    url = reverse("analysis:review", args=[finished.pk])
    assert url in anna.get(finished.get_absolute_url()).content.decode()
    page = anna.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert all(word in text for word in words)
    assert "<svg" in text
    review = Review.objects.get(seat__user=users[0])
    for decision in reviews.costliest(review):
        assert f"?decision={decision['version']}" in text
    stranger = Client()
    stranger.force_login(users[2])
    assert stranger.get(url).status_code == 404


@pytest.mark.django_db
def test_a_review_stops_when_its_share_of_worker_time_is_spent(finished, users, settings):
    review = Review.objects.get(seat__user=users[0])
    versions = [d["version"] for d in review.decisions]
    review.delete()
    again = Review.objects.create(seat=Seat.objects.get(user=users[0]), pending=versions)
    settings.REVIEW_GAME_SECONDS = 0
    assert reviews.review_some(again.pk) is False
    again.refresh_from_db()
    assert again.status == Review.Status.DONE
    assert again.decisions == [] and again.pending == versions


def test_reviews_go_to_their_own_queue_and_hints_to_the_ai_players():
    route = celery_app.amqp.router.route
    assert route({}, "analysis.tasks.review_seat")["queue"].name == "reviews"
    assert route({}, "analysis.tasks.answer_hint")["queue"].name == "celery"
    assert route({}, "games.tasks.play_ai_turn")["queue"].name == "celery"


@pytest.mark.django_db
def test_the_players_own_profile_links_their_review_and_nobody_elses_does(finished, users):
    url = reverse("analysis:review", args=[finished.pk])
    profile = reverse("players:player", args=[users[0].username])
    anna, bob = Client(), Client()
    anna.force_login(users[0])
    bob.force_login(users[1])
    assert url in anna.get(profile).content.decode()
    assert url not in bob.get(profile).content.decode()


@pytest.mark.django_db
def test_a_bot_carries_its_badge_on_the_review_board_and_the_score_chart(finished, users):
    """Bob plays as a bot account: his badge beside his name on Anna's review board and in the
    game's chart, none beside hers."""
    users[1].is_bot = True
    users[1].save()
    review = Review.objects.get(seat__user=users[0])
    review.decisions[0]["mark"] = "blunder"  # the page shows the board at a marked decision
    review.save()
    anna = Client()
    anna.force_login(users[0])
    names = ("anna", "bob")
    page = anna.get(reverse("analysis:review", args=[finished.pk])).content.decode()
    panels = panel_badges(page, finished.seats.exclude(user=None), names=names)
    assert panels == {"anna": False, "bob": True}
    game = anna.get(finished.get_absolute_url()).content.decode()
    legend = badged(game, '<ul class="score-legend">', "</ul>", names=names)
    assert legend == {"anna": False, "bob": True}
