"""Move clocks: deadlines, the reminder at 80 %, timeouts and vacations.

Everything lives in the database: ``Game.deadline`` and ``Game.reminder_at`` are set in the
move's own transaction (``keep_the_clock``, a receiver of ``game_changed``), and ``sweep``,
run every minute by Celery beat, acts on the ones that have passed. A restart loses nothing;
a sweep that comes late does what is due then.

Vacations pause a player's clocks: while one runs (or has ended but is not yet settled) the
sweeper leaves that player's turns alone, and when it ends every deadline of a turn that was
waiting for them moves back by the time the vacation overlapped the turn.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from games import notifications, services
from games.models import Game, Seat, Vacation
from games.signals import game_changed

log = logging.getLogger(__name__)

MOVE_TIMES = [
    (timedelta(hours=12), gettext_lazy("12 hours")),
    (timedelta(days=1), gettext_lazy("1 day")),
    (timedelta(days=3), gettext_lazy("3 days")),
    (timedelta(days=7), gettext_lazy("7 days")),
]
"""The move times a new game may choose (or none)."""

REMINDER_SHARE = 0.8
"""The reminder goes out when this share of the move time is used."""


# The clock of the seat to act --------------------------------------------------------------


@receiver(game_changed, dispatch_uid="games.clocks.keep_the_clock")
def keep_the_clock(sender, *, game: Game, previous_position: int | None, **kwargs) -> None:
    """Set the deadline when the turn passes to a person, clear it for AI seats, finished
    games and seats awaiting the others' vote; leave it alone while the same person acts."""
    now = timezone.now()
    to_act = game.seat_to_act() if game.status == Game.Status.RUNNING else None
    if (
        game.move_time is None
        or to_act is None
        or to_act.is_ai
        or to_act.user_id is None
        or to_act.timed_out_at is not None
    ):
        deadline = reminder = None
    elif previous_position != game.current_position or game.deadline is None:
        start = game.turn_started_at or now
        if start + game.move_time <= now:  # a fresh clock is never already run out
            start = now
        deadline = start + game.move_time
        reminder = start + game.move_time * REMINDER_SHARE
    else:
        return
    if (deadline, reminder) != (game.deadline, game.reminder_at):
        game.deadline, game.reminder_at = deadline, reminder
        Game.objects.filter(pk=game.pk).update(deadline=deadline, reminder_at=reminder)


# The sweeper --------------------------------------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Settle ended vacations, write due reminders, act on passed deadlines."""
    now = now or timezone.now()
    counts = {"vacations": 0, "reminders": 0, "timeouts": 0}
    for vacation in Vacation.objects.filter(settled=False, end__lte=now):
        settle(vacation)
        counts["vacations"] += 1
    paused = set(Vacation.objects.pausing(now).values_list("user_id", flat=True))
    running = Game.objects.filter(status=Game.Status.RUNNING)
    for game_id in running.filter(reminder_at__lte=now).values_list("pk", flat=True):
        if notifications.write_reminder(game_id, now=now, paused=paused):
            counts["reminders"] += 1
    for game_id, user_id in (
        running.filter(deadline__lte=now, seats__position=F("current_position"))
        .values_list("pk", "seats__user_id")
        .order_by("deadline")
    ):
        if user_id in paused:
            continue
        try:
            if services.time_out(game_id, now=now):
                counts["timeouts"] += 1
        except Exception:  # one broken game must not stop the others' clocks
            log.exception("timeout of game %s failed", game_id)
    return counts


# Vacations ----------------------------------------------------------------------------------


def vacation_allowance() -> timedelta:
    return timedelta(days=settings.PUERTO_VACATION_DAYS)


def vacation_used(user, now: datetime | None = None) -> timedelta:
    """Vacation time used in the calendar year of ``now`` (by vacations starting in it)."""
    now = now or timezone.now()
    used = timedelta(0)
    for vacation in Vacation.objects.filter(user=user, start__year=now.year, start__lte=now):
        used += min(vacation.end, now) - vacation.start
    return used


def vacation_left(user, now: datetime | None = None) -> timedelta:
    return max(vacation_allowance() - vacation_used(user, now), timedelta(0))


def current_vacation(user, now: datetime | None = None) -> Vacation | None:
    return Vacation.objects.active(now or timezone.now()).filter(user=user).first()


class VacationError(Exception):
    """Why a vacation cannot start, in the reader's language."""


def start_vacation(user, days: float, now: datetime | None = None) -> Vacation:
    """Pause the user's clocks for ``days`` (at most what is left of this year's allowance)."""
    now = now or timezone.now()
    if not days > 0:  # also not a number at all
        raise VacationError(gettext("A vacation lasts at least some time."))
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one at a time
        if current_vacation(user, now) is not None:
            raise VacationError(gettext("You are on vacation already."))
        left = vacation_left(user, now)
        if days > left / timedelta(days=1):  # compared as numbers: no timedelta holds infinity
            raise VacationError(
                gettext("Only %(days)s of vacation are left this year.") % {"days": _days(left)}
            )
        return Vacation.objects.create(user=user, start=now, end=now + timedelta(days=days))


def stop_vacation(user, now: datetime | None = None) -> Vacation | None:
    """End the user's vacation now; their clocks run again with the time they had left."""
    now = now or timezone.now()
    vacation = current_vacation(user, now)
    if vacation is None:
        return None
    vacation.end = now
    vacation.save(update_fields=["end"])
    settle(vacation)
    return vacation


def settle(vacation: Vacation) -> None:
    """Push back the deadlines of every turn that waited for the player during the vacation,
    by the time the vacation overlapped it (game by game, each under its row lock)."""
    game_ids = list(
        Seat.objects.persons_to_act()
        .filter(user_id=vacation.user_id, game__deadline__isnull=False)
        .values_list("game_id", flat=True)
    )
    for game_id in game_ids:
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)
            to_act = game.seat_to_act()
            if game.deadline is None or to_act is None or to_act.user_id != vacation.user_id:
                continue
            paused = vacation.end - max(vacation.start, game.turn_started_at or vacation.start)
            if paused <= timedelta(0):
                continue
            game.deadline += paused
            if game.reminder_at is not None:
                game.reminder_at += paused
            game.save(update_fields=["deadline", "reminder_at"])
    Vacation.objects.filter(pk=vacation.pk).update(settled=True)
    vacation.settled = True


def _days(delta: timedelta) -> str:
    days = round(delta / timedelta(days=1))
    if delta < timedelta(days=1):
        return gettext("less than a day")
    return ngettext("%(days)d day", "%(days)d days", days) % {"days": days}


# What the game page shows -------------------------------------------------------------------


def table_info(game: Game, viewer_seat: Seat | None, now: datetime | None = None) -> dict:
    """For the game page: the deadline, who is on vacation, seats played by the AI, open
    votes to drop an absentee, and what the viewer may do about them."""
    now = now or timezone.now()
    seats = list(game.seats.all())
    user_ids = [s.user_id for s in seats if s.user_id is not None]
    away = dict(
        Vacation.objects.active(now)
        .filter(user_id__in=user_ids)
        .values_list("user_id", "end")
        .order_by("end")
    )
    viewer_id = viewer_seat.user_id if viewer_seat is not None else None
    votes = []
    for seat in seats:
        if seat.timed_out_at is None or seat.is_ai or game.status != Game.Status.RUNNING:
            continue
        voters = {s.user_id for s in seats if s.user_id and not s.is_ai and s.pk != seat.pk}
        cast = set(seat.drop_votes.values_list("voter_id", flat=True)) & voters
        votes.append(
            {
                "seat": seat,
                "since": seat.timed_out_at,
                "votes": len(cast),
                "needed": len(voters) // 2 + 1,
                "can_vote": viewer_id in voters and viewer_id not in cast,
                "voted": viewer_id in cast,
            }
        )
    return {
        "deadline": game.deadline if game.status == Game.Status.RUNNING else None,
        "move_time": game.move_time,
        "on_vacation": [
            {"seat": s, "until": away[s.user_id]}
            for s in seats
            if s.user_id in away and s.user_id != viewer_id
        ],
        "taken_over": [s for s in seats if s.taken_over and s.user_id is not None],
        "votes": votes,
        "can_take_back": viewer_seat is not None
        and viewer_seat.taken_over
        and not viewer_seat.dropped
        and game.status == Game.Status.RUNNING,
    }
