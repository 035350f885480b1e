"""Every moderator action: checked, done through the games' and accounts' services (so a game
changes on the same road as a move: row lock, version bump, signals after commit), and written
to the audit log in the same transaction."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.services import delete_account as delete_account_of
from games import notifications
from games import services as games
from games.models import Seat
from games.services import Forbidden, GameError
from moderation.models import Entry, Standing, barred_standing

MAX_REASON = 2000
MAX_SUSPENSION = timedelta(days=3650)
PERMISSION = "moderation.moderate"


def _checked(moderator, reason: str) -> str:
    if moderator is None or not moderator.has_perm(PERMISSION):
        raise Forbidden(gettext("only moderators may do this"))
    reason = (reason or "").strip()
    if not reason:
        raise GameError(gettext("say why: the reason is required"))
    if len(reason) > MAX_REASON:
        raise GameError(
            gettext("the reason is longer than %(max)d characters") % {"max": MAX_REASON}
        )
    return reason


def _log(moderator, action: str, reason: str, **about) -> Entry:
    return Entry.objects.create(moderator=moderator, action=action, reason=reason, **about)


def cancel_game(moderator, game_id: int, reason: str) -> Entry:
    """Cancel an open or running game; the players see why on its page and by email."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        game = games.cancel_by_moderator(game_id, reason)
        return _log(moderator, Entry.Action.CANCEL_GAME, reason, game=game)


def seat_to_ai(moderator, seat_id: int, level: str, reason: str) -> Entry:
    """An AI player of ``level`` takes the seat (of a running game) until a moderator gives
    it back."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        seat = games.seat_to_ai(seat_id, level)
        return _log(
            moderator,
            Entry.Action.SEAT_TO_AI,
            reason,
            seat=seat,
            game_id=seat.game_id,
            user_id=seat.user_id,
            details={"level": level},
        )


def seat_to_person(moderator, seat_id: int, reason: str) -> Entry:
    """The seat's player plays it again."""
    reason = _checked(moderator, reason)
    seat = Seat.objects.select_related("user__standing").filter(pk=seat_id).first()
    if seat is not None and barred_standing(seat.user) is not None:
        raise GameError(gettext("the seat's player is suspended or banned"))
    with transaction.atomic():
        seat = games.seat_back_to_person(seat_id)
        return _log(
            moderator,
            Entry.Action.SEAT_TO_PERSON,
            reason,
            seat=seat,
            game_id=seat.game_id,
            user_id=seat.user_id,
        )


def warn(moderator, user, reason: str) -> Entry:
    """The user gets the reason by email; nothing else changes."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        entry = _log(moderator, Entry.Action.WARN, reason, user=user)
        notifications.write_warning(user, reason, stamp=entry.created_at)
    return entry


def mute(moderator, user, reason: str) -> Entry:
    """Flag the user as muted (what it silences comes with the chat)."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        Standing.objects.update_or_create(user=user, defaults={"muted": True})
        return _log(moderator, Entry.Action.MUTE, reason, user=user)


def suspend(moderator, user, duration: timedelta, reason: str) -> Entry:
    """Keep the user out for ``duration``: no login, no API. Their running seats go to the AI
    (theirs to take back when they return), their seats in open games are freed."""
    reason = _checked(moderator, reason)
    if not timedelta(0) < duration <= MAX_SUSPENSION:
        raise GameError(gettext("a suspension lasts from one day to ten years"))
    until = timezone.now() + duration
    with transaction.atomic():
        Standing.objects.update_or_create(
            user=user, defaults={"suspended_until": until, "reason": reason}
        )
        games.hand_seats_to_ai(user, for_good=False)
        return _log(
            moderator, Entry.Action.SUSPEND, reason, user=user, details={"until": until.isoformat()}
        )


def ban(moderator, user, reason: str) -> Entry:
    """Keep the user out for good; their running seats go to the AI for good, their seats in
    open games are freed."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        Standing.objects.update_or_create(user=user, defaults={"banned": True, "reason": reason})
        games.hand_seats_to_ai(user)
        return _log(moderator, Entry.Action.BAN, reason, user=user)


def reinstate(moderator, user, reason: str) -> Entry:
    """Lift the mute, suspension and ban; seats the AI took stay with it until the player (or
    a moderator) takes them back."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        Standing.objects.update_or_create(
            user=user,
            defaults={"muted": False, "suspended_until": None, "banned": False, "reason": ""},
        )
        return _log(moderator, Entry.Action.REINSTATE, reason, user=user)


def delete_account(moderator, user, reason: str) -> Entry:
    """The account deletion a player can do themselves (anonymised, seats to the AI)."""
    reason = _checked(moderator, reason)
    if user.pk == moderator.pk:
        raise GameError(gettext("delete your own account on your profile page"))
    with transaction.atomic():
        delete_account_of(user)
        return _log(moderator, Entry.Action.DELETE_ACCOUNT, reason, user=user)
