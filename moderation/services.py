"""Every moderator action: checked, done through the games' and accounts' services (so a game
changes on the same road as a move: row lock, version bump, signals after commit), and written
to the audit log in the same transaction."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.services import delete_account as delete_account_of
from games import chat, notifications
from games import services as games
from games.models import ChatMessage, Game, Seat
from games.services import Forbidden, GameError, NotFound
from moderation.models import Entry, Report, Standing, barred_standing

MAX_REASON = 2000
MAX_REPORT_TEXT = 1000
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


# Reports and the chat -----------------------------------------------------------------------


def report(
    reporter,
    game_id: int,
    reason: str,
    text: str = "",
    *,
    player_id: int | None = None,
    message_id: int | None = None,
) -> Report:
    """A player reports a chat message, a player or the game itself (neither given) to the
    moderators. Reporting the same thing again while it is open changes nothing."""
    if reporter is None or not reporter.is_authenticated:
        raise Forbidden(gettext("log in to report"))
    game = Game.objects.with_seats().filter(pk=game_id).first()
    if game is None:
        raise NotFound(gettext("no such game"))
    if reason not in Report.Reason.values:
        raise GameError(gettext("choose a reason"))
    text = (text or "").strip()
    if reason == Report.Reason.OTHER and not text:
        raise GameError(gettext("say what happened"))
    if len(text) > MAX_REPORT_TEXT:
        raise GameError(
            gettext("the text is longer than %(max)d characters") % {"max": MAX_REPORT_TEXT}
        )
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, game=game).first()
        if message is None or not chat.may_read(game, reporter):
            raise NotFound(gettext("no such chat message"))
        player_id, subject = message.author_id, f"message:{message.pk}"
    elif player_id is not None:
        if not any(s.user_id == player_id for s in game.seats.all()):
            raise NotFound(gettext("no such player in this game"))
        subject = f"player:{player_id}"
    else:
        subject = f"game:{game.pk}"
    if player_id == reporter.pk:
        raise GameError(gettext("you cannot report yourself"))
    earlier = Report.objects.filter(
        reporter=reporter, subject=subject, status=Report.Status.OPEN
    ).first()
    if earlier is not None:
        return earlier
    return Report.objects.create(
        reporter=reporter,
        game=game,
        player_id=player_id,
        message=message,
        subject=subject,
        reason=reason,
        text=text,
        version=game.version,
    )


def hide_message(moderator, message_id: int, reason: str) -> Entry:
    """No player sees the message any more; pages that show it drop it at their next poll."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        message = chat.hide(message_id)
        return _log(
            moderator,
            Entry.Action.HIDE_MESSAGE,
            reason,
            user_id=message.author_id,
            game_id=message.game_id,
            details={"message": message.pk, "text": message.text},
        )


def resolve_report(moderator, report_id: int, reason: str) -> Entry:
    """Close a report as acted upon; ``reason`` records what was done."""
    return _close_report(moderator, report_id, reason, Report.Status.RESOLVED)


def dismiss_report(moderator, report_id: int, reason: str) -> Entry:
    """Close a report as unfounded; ``reason`` says why."""
    return _close_report(moderator, report_id, reason, Report.Status.DISMISSED)


def _close_report(moderator, report_id: int, reason: str, status: str) -> Entry:
    reason = _checked(moderator, reason)
    action = {
        Report.Status.RESOLVED: Entry.Action.RESOLVE_REPORT,
        Report.Status.DISMISSED: Entry.Action.DISMISS_REPORT,
    }[status]
    with transaction.atomic():
        found = Report.objects.select_for_update().filter(pk=report_id).first()
        if found is None:
            raise NotFound(gettext("no such report"))
        if found.status != Report.Status.OPEN:
            raise GameError(gettext("the report was handled already"))
        found.status = status
        found.handled_by = moderator
        found.handled_at = timezone.now()
        found.resolution = reason
        found.save(update_fields=["status", "handled_by", "handled_at", "resolution"])
        return _log(
            moderator,
            action,
            reason,
            user_id=found.player_id,
            game_id=found.game_id,
            details={"report": found.pk},
        )
