"""Ratings: a rated game changes its players' ratings once, with the move that finishes it;
a seat left to an AI player counts as last for its person; AI players' own seats are rated as
their level; casual, cancelled and imported games are not rated; ``recompute_ratings`` gives
the same numbers again."""

from __future__ import annotations

import random
import threading
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from games import registry, services
from games.models import Game, Result, Seat
from players.models import Rating, RatingChange
from players.ratings import NEWCOMER, rate_game, rated_placements, shown
from tests.race import GAME

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def on_the_shelf():
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(n, password="pw") for n in ("ann", "ben", "cy")]


def open_race(creator, *joiners, **arguments) -> Game:
    game = services.create_game(creator, engine="race", num_players=3, **arguments)
    for user in joiners:
        services.join_game(game.pk, user)
    return Game.objects.with_seats().get(pk=game.pk)


def play_out(game: Game, seed: int = 1, until=None) -> Game:
    """Random legal moves for the people, the AI's own for its seats, to the end (or until
    ``until(game)`` holds)."""
    draw = random.Random(seed)
    while True:
        game = Game.objects.with_seats().get(pk=game.pk)
        if game.status != Game.Status.RUNNING or (until and until(game)):
            return game
        seat = game.seat_to_act()
        if seat.is_ai:
            services.play_ai_turn(game.pk, game.version)
        else:
            action = draw.choice(game.rules.legal_actions(game.engine_state()))
            services.submit_move(game.pk, action, user=seat.user, expected_version=game.version)


def ratings_of(*users) -> list[int]:
    return [Rating.objects.get(user=u, ladder="race").value for u in users]


def result(position: int, placement: int, played_by=Result.PlayedBy.PERSON) -> Result:
    return Result(position=position, placement=placement, played_by=played_by)


def test_a_seat_left_to_an_ai_player_counts_last_whatever_it_scored():
    taken = Result.PlayedBy.TAKEN_OVER
    rows = [result(0, 1, taken), result(1, 2), result(2, 2), result(3, 4)]
    assert rated_placements(rows) == {0: 4, 1: 1, 2: 1, 3: 3}


def test_two_seats_left_share_the_last_place():
    taken = Result.PlayedBy.TAKEN_OVER
    rows = [result(0, 1, taken), result(1, 3, taken), result(2, 2)]
    assert rated_placements(rows) == {0: 2, 1: 2, 2: 1}


def test_a_rated_game_rates_its_persons_and_its_ai_level_once_with_its_result(people):
    ann, ben, _ = people
    game = play_out(open_race(ann, ben, rated=True, ai_levels=["easy"]))
    assert game.status == Game.Status.FINISHED
    results = {r.position: r for r in game.results.all()}
    changes = {c.position: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == set(results)
    for position, change in changes.items():
        assert change.placement == results[position].placement
        assert change.value_before == NEWCOMER
        assert change.rating.games == 1
        assert (
            change.rating.value == change.value_after == shown(change.mu_after, change.sigma_after)
        )
    # The first gains and the last loses (a game where every seat tied moves nobody's mu).
    first = [c for c in changes.values() if c.placement == 1]
    last = [
        c for c in changes.values() if c.placement == max(results[p].placement for p in changes)
    ]
    if first != last:
        assert all(c.mu_after > 25 for c in first) and all(c.mu_after < 25 for c in last)
    ai = Rating.objects.get(ladder="race", ai_level="easy")
    assert ai.user is None and ai.games == 1
    assert Rating.objects.filter(ladder="race").count() == 3
    # A retried task or a second signal changes nothing.
    assert rate_game(game) == []
    assert RatingChange.objects.filter(game=game).count() == 3
    assert Rating.objects.get(user=ann).games == 1


def test_a_casual_game_changes_no_rating(people):
    ann, ben, cy = people
    game = play_out(open_race(ann, ben, cy))
    assert game.status == Game.Status.FINISHED and not game.rated
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_an_imported_game_is_never_rated(people):
    ann, ben, cy = people
    game = play_out(open_race(ann, ben, cy, rated=True))
    Game.objects.filter(pk=game.pk).update(imported=True)
    RatingChange.objects.all().delete()
    assert rate_game(Game.objects.get(pk=game.pk)) == []


def test_a_cancelled_game_is_not_rated(people):
    ann, ben, _ = people
    game = open_race(ann, ben, rated=True)
    services.cancel_game(game.pk, ann)
    assert rate_game(Game.objects.get(pk=game.pk)) == []


def test_a_rated_game_needs_two_persons(people):
    ann = people[0]
    with pytest.raises(services.GameError, match="at least two persons"):
        services.create_game(ann, engine="race", num_players=3, rated=True, ai_levels=["easy"] * 2)
    game = services.create_game(ann, engine="race", num_players=3, rated=True, ai_levels=["easy"])
    with pytest.raises(services.Conflict, match="at least two persons"):
        services.add_ai(game.pk, ann, "easy")
    assert Game.objects.get(pk=game.pk).seats.count() == 2


def test_nobody_takes_a_move_back_in_a_rated_game(people):
    ann, ben, cy = people
    game = open_race(ann, ben, cy, rated=True)
    seat = game.seat_to_act()
    action = {"type": "play", "card": min(game.engine_state()["hands"][seat.position])}
    services.submit_move(game.pk, action, user=seat.user)
    with pytest.raises(services.Conflict, match="rated game"):
        services.undo_move(game.pk, seat.user)


def test_the_person_who_left_a_seat_to_the_ai_loses_it(people):
    ann, ben, cy = people
    game = open_race(ann, ben, cy, rated=True, move_time=timedelta(hours=1))
    leaver = game.seat_to_act()
    assert services.time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    game = play_out(game)
    row = game.results.get(position=leaver.position)
    assert row.played_by == Result.PlayedBy.TAKEN_OVER
    change = RatingChange.objects.get(game=game, position=leaver.position)
    assert change.placement == 3 and change.rating.user_id == leaver.user_id
    assert change.value_after < change.value_before
    assert not Rating.objects.filter(ai_level=Seat.AI.MEDIUM).exists()  # the takeover AI


def test_the_recompute_command_gives_every_rating_again(people):
    ann, ben, cy = people
    for seed in range(4):
        play_out(open_race(ann, ben, cy, rated=True), seed=seed)
    play_out(open_race(ben, cy, rated=True, ai_levels=["hard"]), seed=9)
    before = {
        (r.user_id, r.ai_level): (r.value, r.mu, r.sigma, r.games) for r in Rating.objects.all()
    }
    assert Rating.objects.get(user=ann).games == 4
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    after = {
        (r.user_id, r.ai_level): (r.value, r.mu, r.sigma, r.games) for r in Rating.objects.all()
    }
    assert after == before
    assert "5 rated games, 4 ratings, 0 changed" in out.getvalue()
    assert RatingChange.objects.count() == 5 * 3


def test_the_recompute_command_repairs_a_rating_changed_by_hand(people):
    ann, ben, cy = people
    play_out(open_race(ann, ben, cy, rated=True))
    right = Rating.objects.get(user=ann).value
    Rating.objects.filter(user=ann).update(value=right + 100, mu=40)
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert Rating.objects.get(user=ann).value == right
    assert "1 changed" in out.getvalue()


def finished_race(users, placements) -> Game:
    """A rated game of ``users`` that finished with ``placements``, its result stored as the
    finishing move stores it, not yet rated."""
    game = Game.objects.create(
        engine="race",
        num_players=len(users),
        rated=True,
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
    )
    for position, (user, placement) in enumerate(zip(users, placements, strict=True)):
        seat = Seat.objects.create(game=game, user=user, position=position)
        Result.objects.create(
            game=game,
            seat=seat,
            position=position,
            user=user,
            played_by=Result.PlayedBy.PERSON,
            person_decisions=5,
            ai_decisions=0,
            placement=placement,
            score=21 - placement,
            parts={},
            tiebreak={},
        )
    return Game.objects.with_seats().get(pk=game.pk)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_games_sharing_a_player_that_finish_at_once_are_rated_one_after_the_other(people):
    ann, ben, cy = people
    games = [
        finished_race([ann, ben, cy], [1 + (n % 3), 1 + ((n + 1) % 3), 1 + ((n + 2) % 3)])
        for n in range(6)
    ]
    barrier = threading.Barrier(len(games))
    failures = []

    def rate(game):
        try:
            barrier.wait()
            with transaction.atomic():
                rate_game(game)
        except Exception as error:
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=rate, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    for person in people:
        rating = Rating.objects.get(user=person)
        assert rating.games == 6
        # Each game started from the rating the one before it left: no update was lost.
        chain = RatingChange.objects.filter(rating=rating).order_by("pk")
        assert [c.mu_before for c in chain[1:]] == [c.mu_after for c in chain[:5]]
        assert chain.last().mu_after == rating.mu
    before = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()}
    call_command("recompute_ratings", stdout=StringIO())
    assert {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()} == before


def test_a_rated_games_final_table_shows_each_seats_new_rating_and_its_change(people, client):
    ann, ben, cy = people
    game = play_out(open_race(ann, ben, cy, rated=True))
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Rating</th>" in page
    for change in RatingChange.objects.filter(game=game):
        assert f"{change.value_after} <span" in page
        assert f"({change.difference:+d})" in page
    casual = play_out(open_race(ann, ben, cy))
    assert "Rating</th>" not in client.get(casual.get_absolute_url()).content.decode()
