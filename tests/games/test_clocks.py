"""Move clocks: deadlines, timeouts handed to the AI or to a vote, taking a seat back,
vacations. Times are passed explicitly (``now=``) rather than frozen."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import clocks, services
from games.models import Game, Move, Vacation
from games.registry import get_engine
from games.services import Conflict, Forbidden

pr = get_engine("puerto_rico")
DAY = timedelta(days=1)


def running_game(users, humans=3, ai=0, move_time=DAY, on_timeout="ai"):
    game = services.create_game(
        users[0],
        engine="puerto_rico",
        num_players=humans + ai,
        ai_seats=ai,
        move_time=move_time,
        on_timeout=on_timeout,
    )
    for user in users[1:humans]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def fresh(game):
    return Game.objects.get(pk=game.pk)


def user_to_act(game, users):
    seat = fresh(game).seat_to_act()
    return next(u for u in users if u.pk == seat.user_id)


def play_until_the_turn_passes(game, users):
    """The person to act plays legal moves until someone else is to act."""
    game = fresh(game)
    position = game.current_position
    for _ in range(20):
        user = user_to_act(game, users)
        state = game.engine_state()
        action = pr.action_to_json(pr.legal_actions(state)[-1])
        services.submit_move(game.pk, action, user=user, expected_version=game.version)
        game = fresh(game)
        if game.current_position != position:
            return game
    raise AssertionError("the turn never passed")


@pytest.mark.django_db
def test_the_deadline_is_set_when_the_turn_passes_to_a_person(users):
    game = running_game(users)
    assert game.move_time == DAY
    assert game.deadline == game.turn_started_at + DAY
    assert game.reminder_at == game.turn_started_at + DAY * 0.8

    game = play_until_the_turn_passes(game, users)

    assert game.deadline == game.turn_started_at + DAY


@pytest.mark.django_db
def test_no_deadline_without_a_move_time_nor_for_an_ai_seat(users):
    untimed = running_game(users, move_time=None)
    assert untimed.deadline is None and untimed.reminder_at is None

    game = running_game(users, humans=1, ai=2)  # AI turns wait: no commit callbacks here
    if game.seat_to_act().is_ai:
        assert game.deadline is None
    else:
        assert game.deadline is not None


@pytest.mark.django_db
def test_the_new_game_form_offers_move_times_and_the_timeout_rule(users, client):
    client.force_login(users[0])
    response = client.post(
        reverse("games:lobby"),
        {"num_players": 3, "ai_seats": 0, "move_time": 12 * 3600, "on_timeout": "vote"},
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.move_time == timedelta(hours=12)
    assert game.on_timeout == Game.OnTimeout.VOTE
    page = client.get(reverse("games:lobby")).content.decode()
    assert "Move time" in page and "7 days" in page and "no limit" in page


@pytest.mark.django_db
def test_the_sweeper_does_nothing_before_the_deadline(users):
    game = running_game(users)
    counts = clocks.sweep(now=game.deadline - timedelta(seconds=1))
    assert counts["timeouts"] == 0
    assert not fresh(game).seat_to_act().is_ai


@pytest.mark.django_db(transaction=True)
def test_a_run_out_clock_hands_the_seat_to_the_ai_and_the_game_goes_on(users, client):
    game = running_game(users)
    absentee = user_to_act(game, users)
    seat = game.seat_to_act()
    version = game.version
    expired = game.deadline + timedelta(seconds=1)

    assert clocks.sweep(now=expired)["timeouts"] == 1

    game = fresh(game)
    seat.refresh_from_db()
    assert seat.user == absentee
    assert seat.ai_level == "medium" and seat.taken_over
    assert seat.taken_over_at == expired
    # The AI played the seat's turn (queued after commit) and the game went on.
    assert game.version > version
    assert Move.objects.filter(game=game, seat=seat, actor=None).exists()
    assert game.seat_to_act() != seat
    assert game.status == Game.Status.RUNNING
    # Everyone sees it; the absentee is offered the seat back.
    client.force_login(users[0] if absentee != users[0] else users[1])
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"{absentee.username}'s seat is played by the AI since" in page
    assert "Take my seat back" not in page
    client.force_login(absentee)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Take my seat back from the AI" in page

    response = client.post(reverse("games:take_back", args=[game.pk]))

    assert response.status_code == 303
    seat.refresh_from_db()
    assert seat.ai_level == "" and not seat.taken_over


@pytest.mark.django_db
def test_taking_the_seat_back_on_your_turn_restarts_your_clock(users):
    # Without commit callbacks the AI does not get to move: the turn stays with the seat.
    game = running_game(users)
    absentee = user_to_act(game, users)
    expired = game.deadline + timedelta(hours=1)
    assert services.time_out(game.pk, now=expired)
    game = fresh(game)
    assert game.seat_to_act().is_ai and game.deadline is None
    with pytest.raises(Conflict):  # the AI has the seat: no moves past it
        services.submit_move(game.pk, {"type": "choose_role", "role": "builder"}, user=absentee)

    back = expired + timedelta(hours=3)
    services.take_seat_back(game.pk, absentee, now=back)

    game = fresh(game)
    seat = game.seat_to_act()
    assert seat.user == absentee and not seat.is_ai and not seat.taken_over
    assert game.turn_started_at == back
    assert game.deadline == back + DAY
    with pytest.raises(Conflict):
        services.take_seat_back(game.pk, absentee)


@pytest.mark.django_db(transaction=True)
def test_vote_to_drop_the_absentee(users, client):
    game = running_game(users, on_timeout="vote")
    absentee = user_to_act(game, users)
    seat = game.seat_to_act()
    others = [u for u in users[:3] if u != absentee]
    expired = game.deadline + timedelta(minutes=1)

    assert clocks.sweep(now=expired)["timeouts"] == 1

    game = fresh(game)
    seat.refresh_from_db()
    assert seat.timed_out_at == expired and not seat.is_ai
    assert game.deadline is None  # the game waits
    assert clocks.sweep(now=expired + DAY)["timeouts"] == 0
    client.force_login(others[0])
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"{absentee.username} ran out of time" in page
    assert "0 of 2 votes needed" in page
    assert f"Drop {absentee.username}" in page
    client.force_login(absentee)
    assert "Drop " not in client.get(game.get_absolute_url()).content.decode()
    with pytest.raises(Forbidden):
        services.vote_to_drop(game.pk, absentee, seat.pk)
    with pytest.raises(Forbidden):
        services.vote_to_drop(game.pk, users[3], seat.pk)

    client.force_login(others[0])
    client.post(reverse("games:vote_drop", args=[game.pk, seat.pk]))
    client.post(reverse("games:vote_drop", args=[game.pk, seat.pk]))  # twice counts once
    seat.refresh_from_db()
    assert not seat.is_ai
    assert "1 of 2 votes needed" in client.get(game.get_absolute_url()).content.decode()

    assert services.vote_to_drop(game.pk, others[1], seat.pk)

    seat.refresh_from_db()
    game = fresh(game)
    assert seat.is_ai and seat.dropped and seat.timed_out_at is None
    assert seat.user == absentee
    assert game.version > 0 and game.seat_to_act() != seat  # the AI played on
    with pytest.raises(Conflict):
        services.take_seat_back(game.pk, absentee)
    client.force_login(absentee)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "handed to the AI for good" in page and "Take my seat back" not in page


@pytest.mark.django_db
def test_an_absentee_who_comes_back_before_the_vote_closes_it(users):
    game = running_game(users, on_timeout="vote")
    absentee = user_to_act(game, users)
    other = next(u for u in users[:3] if u != absentee)
    seat = game.seat_to_act()
    services.time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    services.vote_to_drop(game.pk, other, seat.pk)

    game = play_until_the_turn_passes(game, users)

    seat.refresh_from_db()
    assert seat.timed_out_at is None and not seat.drop_votes.exists()
    assert not seat.is_ai
    with pytest.raises(Conflict):
        services.vote_to_drop(game.pk, other, seat.pk)


@pytest.mark.django_db
def test_vote_mode_without_other_people_lets_the_ai_keep_the_seat(users):
    game = running_game(users, humans=1, ai=2, on_timeout="vote")
    while fresh(game).seat_to_act().is_ai:  # seating is random: let the AI play up to us
        services.play_ai_turn(game.pk, fresh(game).version)
    game = fresh(game)
    services.time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    seat = fresh(game).seat_to_act()
    assert seat.is_ai and seat.taken_over and not seat.dropped


@pytest.mark.django_db
def test_a_vacation_pauses_the_clock_and_pushes_the_deadline_back(users, client):
    game = running_game(users)
    away = user_to_act(game, users)
    deadline = game.deadline
    start = timezone.now()

    vacation = clocks.start_vacation(away, days=3, now=start)

    assert vacation.end == start + 3 * DAY
    # The other players see it on the game page.
    client.force_login(next(u for u in users[:3] if u != away))
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"{away.username} is on vacation until" in page
    # The sweeper leaves the turn alone while the vacation runs.
    assert clocks.sweep(now=deadline + timedelta(hours=1))["timeouts"] == 0
    assert not fresh(game).seat_to_act().is_ai

    # The vacation ends; the sweeper settles it before it looks at deadlines.
    counts = clocks.sweep(now=vacation.end + timedelta(minutes=1))

    assert counts == {"vacations": 1, "reminders": 0, "timeouts": 0}
    game = fresh(game)
    assert game.deadline == deadline + 3 * DAY
    assert game.reminder_at == deadline - DAY * 0.2 + 3 * DAY
    assert clocks.sweep(now=game.deadline - timedelta(seconds=1))["timeouts"] == 0
    assert clocks.sweep(now=game.deadline + timedelta(seconds=1))["timeouts"] == 1


@pytest.mark.django_db
def test_stopping_a_vacation_early_gives_back_only_the_time_away(users):
    game = running_game(users)
    away = user_to_act(game, users)
    deadline = game.deadline
    start = game.turn_started_at + timedelta(hours=1)
    clocks.start_vacation(away, days=10, now=start)

    clocks.stop_vacation(away, now=start + timedelta(hours=5))

    assert fresh(game).deadline == deadline + timedelta(hours=5)
    assert clocks.vacation_used(away, now=start + DAY) == timedelta(hours=5)
    assert Vacation.objects.get().settled


@pytest.mark.django_db
def test_a_turn_that_starts_during_a_vacation_gets_its_full_time_afterwards(users):
    game = running_game(users)
    mover = user_to_act(game, users)
    now = timezone.now()
    for user in users[:3]:
        if user != mover:
            clocks.start_vacation(user, days=2, now=now - timedelta(hours=1))

    game = play_until_the_turn_passes(game, users)
    vacation = Vacation.objects.get(user_id=game.seat_to_act().user_id)
    clocks.sweep(now=vacation.end + timedelta(seconds=1))

    assert fresh(game).deadline == vacation.end + DAY


@pytest.mark.django_db
def test_vacation_days_are_limited_per_calendar_year(users, client, settings):
    settings.PUERTO_VACATION_DAYS = 10
    user = users[0]
    now = timezone.now().replace(month=6, day=1)
    clocks.start_vacation(user, days=4, now=now)
    with pytest.raises(clocks.VacationError):  # one at a time
        clocks.start_vacation(user, days=1, now=now + DAY)
    with pytest.raises(clocks.VacationError):  # 4 + 7 > 10
        clocks.start_vacation(user, days=7, now=now + 5 * DAY)
    clocks.start_vacation(user, days=6, now=now + 5 * DAY)
    assert clocks.vacation_left(user, now=now + 20 * DAY) == timedelta(0)
    # A new year, a new allowance.
    assert clocks.vacation_left(user, now=now.replace(year=now.year + 1)) == 10 * DAY

    client.force_login(users[1])
    assert "left: 10 days" in client.get(reverse("games:vacation")).content.decode()
    response = client.post(reverse("games:vacation"), {"action": "start", "days": "2"})
    assert response.status_code == 303
    page = client.get(reverse("games:vacation")).content.decode()
    assert "You are on vacation until" in page
    client.post(reverse("games:vacation"), {"action": "stop"})
    assert clocks.current_vacation(users[1]) is None
    assert client.post(reverse("games:vacation"), {"days": "99"}).status_code == 400


@pytest.mark.django_db
def test_open_boards_see_a_timeout_a_vote_and_a_seat_taken_back(users, client):
    """Each changes the version the boards poll, without storing a move, so the others see
    the vote open and move on, and the absentee sees their seat come back."""
    game = running_game(users, on_timeout="vote")
    absentee = user_to_act(game, users)
    seat = game.seat_to_act()
    voter = next(u for u in users[:3] if u != absentee)
    client.force_login(voter)
    moves = Move.objects.filter(game=game).count()

    def board_changed_since(version):
        return client.get(reverse("games:poll", args=[game.pk]), {"v": version}).status_code

    before = fresh(game).version
    clocks.sweep(now=game.deadline + timedelta(minutes=1))
    assert board_changed_since(before) == 200
    assert "0 of 2 votes needed" in client.get(game.get_absolute_url()).content.decode()
    opened = fresh(game).version
    assert board_changed_since(opened) == 204

    services.vote_to_drop(game.pk, voter, seat.pk)
    assert board_changed_since(opened) == 200
    voted = fresh(game).version
    services.vote_to_drop(game.pk, voter, seat.pk)  # the same vote again changes nothing
    assert fresh(game).version == voted

    taken_over = running_game(users, on_timeout="ai")
    absentee = user_to_act(taken_over, users)
    clocks.sweep(now=taken_over.deadline + timedelta(minutes=1))
    before = fresh(taken_over).version
    services.take_seat_back(taken_over.pk, absentee)
    assert fresh(taken_over).version == before + 1
    assert Move.objects.filter(game=game).count() == moves
