"""Email that brings players back: "your move", the daily digest, the reminder, game over,
a challenge to a game.

"Your move" goes only to a player who is away: the beat task ``write_turn_emails`` writes it
once the turn has waited ``PUERTO_TURN_EMAIL_MINUTES`` and the player has not been seen for
``PUERTO_AWAY_MINUTES`` (``saw``: their game page, or a move); one such mail lists every game
waiting for them, and none follows until they have been back.

Nothing lost, nothing doubled: every email is first a ``Notification`` row (the outbox),
written in the same transaction as the change that causes it, with a unique ``dedupe_key``.
After commit a Celery task delivers it (``deliver``); the beat task ``deliver_pending``
delivers whatever was left behind (worker or broker down, a crash between commit and
enqueue) and retries failures with backoff. Delivery locks the row and sends at most once.

Emails are rendered at delivery, in the user's language and time zone, from
``templates/email/<kind>.{subject.txt,txt,html}``, and carry a one-click unsubscribe
(RFC 8058) whose signed token names the user and the kind of mail.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, F, Max, OuterRef, Q
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation

from games.models import Challenge, Game, Move, Notification, Seat
from games.signals import (
    challenge_changed,
    game_cancelled,
    game_finished,
    notifications_written,
    vote_opened,
)
from puerto.mail import message_id

log = logging.getLogger(__name__)

Kind = Notification.Kind
LANGUAGES = ("en", "de")
MAX_ATTEMPTS = 6
"""Delivery attempts before a notification is given up (logged, and marked in the admin)."""
PENDING_BATCH = 200
"""Rows the sweeper delivers per run; the rest wait for the next minute."""
UNSUBSCRIBE_SALT = "puerto.unsubscribe"


def backoff(attempts: int) -> timedelta:
    """Wait after the ``attempts``-th failure: 1, 2, 4, 8, 16 minutes, at most an hour."""
    return timedelta(minutes=min(2 ** (attempts - 1), 60))


# Writing the outbox --------------------------------------------------------------------------


@receiver(game_finished, dispatch_uid="games.notifications.write_game_over")
def write_game_over(sender, *, game: Game, **kwargs) -> None:
    """Inside the last move's transaction: "game over" to every person at the table who wants
    it. ("Your move" waits for ``write_turn_emails``.)"""
    write(
        [
            Notification(
                user=seat.user,
                kind=Kind.GAME_OVER,
                game=game,
                payload={"version": game.version},
                dedupe_key=f"game_over:{game.pk}:{seat.user_id}",
            )
            for seat in game.seats.select_related("user")
            if seat.user is not None
            and not seat.dropped
            and seat.user.game_over_email
            and seat.user.email
        ]
    )


def write(rows: list[Notification]) -> list[int]:
    """Store the rows (a row whose key exists already is left out) and queue their delivery
    after commit. Safe inside any transaction: a duplicate key never raises."""
    if not rows:
        return []
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    ids = list(
        Notification.objects.filter(
            dedupe_key__in=[r.dedupe_key for r in rows],
            sent_at__isnull=True,
            discarded_at__isnull=True,
        ).values_list("pk", flat=True)
    )
    if ids:
        transaction.on_commit(lambda: enqueue(ids), robust=True)
    return ids


def enqueue(ids: list[int]) -> None:
    """After commit: the rows wait for delivery (``tasks.queue_delivery`` hears of them)."""
    notifications_written.send(Notification, ids=ids)


def write_reminder(game_id: int, *, now: datetime, paused: set[int] = frozenset()) -> bool:
    """The reminder of a game whose ``reminder_at`` has passed, once per turn."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.reminder_at is None or game.reminder_at > now:
            return False
        seat = game.seat_to_act() if game.status == Game.Status.RUNNING else None
        user_id = seat.user_id if seat is not None and not seat.is_ai else None
        if user_id is not None and user_id in paused:
            return False  # on vacation: the reminder moves back with the deadline
        Game.objects.filter(pk=game.pk).update(reminder_at=None)
        if user_id is None or (game.deadline is not None and game.deadline <= now):
            return False
        user = seat.user
        if not (user.reminder_email and user.email):
            return False
        started = int((game.turn_started_at or now).timestamp())
        return bool(
            write(
                [
                    Notification(
                        user=user,
                        kind=Kind.REMINDER,
                        game=game,
                        payload={"version": game.version},
                        dedupe_key=f"reminder:{game.pk}:{user.pk}:{started}",
                    )
                ]
            )
        )


SEEN_EVERY = timedelta(minutes=1)
"""How often a player's presence at a table is stored: polls come every second."""


def saw(seat: Seat | None, now: datetime | None = None) -> None:
    """The player of ``seat`` has their game open: store it, at most once a minute."""
    if seat is None or seat.user_id is None:
        return
    now = now or timezone.now()
    if seat.seen_at is None or now - seat.seen_at >= SEEN_EVERY:
        seat.seen_at = now
        Seat.objects.filter(pk=seat.pk).update(seen_at=now)


def last_seen(user) -> datetime | None:
    """When ``user`` last had a game open or moved (through any page or the API)."""
    seen = Seat.objects.filter(user=user).aggregate(at=Max("seen_at"))["at"]
    moved = Move.objects.filter(actor=user).aggregate(at=Max("created_at"))["at"]
    return max((t for t in (seen, moved) if t is not None), default=None)


def write_turn_emails(now: datetime | None = None) -> int:
    """The beat's "your move" round: one mail to each player who wants it, is away, and has a
    turn that has waited long enough, which they have neither seen nor been mailed about;
    how many were written."""
    now = now or timezone.now()
    mailed = Notification.objects.filter(
        user=OuterRef("user"),
        kind=Kind.TURN,
        discarded_at__isnull=True,
        created_at__gte=OuterRef("game__turn_started_at"),
    )
    due = (
        Seat.objects.persons_to_act()
        .filter(
            user__turn_email=get_user_model().TurnEmail.IMMEDIATE,
            user__is_active=True,
            game__turn_started_at__lte=now - timedelta(minutes=settings.PUERTO_TURN_EMAIL_MINUTES),
        )
        .filter(Q(seen_at__isnull=True) | Q(seen_at__lt=F("game__turn_started_at")))
        .exclude(user__email="")
        .exclude(Exists(mailed))
    )
    return sum(
        _write_turn_email(user_id, now) for user_id in set(due.values_list("user_id", flat=True))
    )


def _write_turn_email(user_id: int, now: datetime) -> bool:
    with transaction.atomic():
        # The player's row locked: two rounds at once write one mail, not two.
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        if user is None:  # deleted since the round began
            return False
        back = last_seen(user)
        if back is not None and back > now - timedelta(minutes=settings.PUERTO_AWAY_MINUTES):
            return False  # here right now
        unread = Notification.objects.filter(user=user, kind=Kind.TURN, discarded_at__isnull=True)
        if back is not None:
            unread = unread.filter(created_at__gt=back)
        if unread.exists():
            return False  # the last one is still unread: it lists every waiting game
        waiting = waiting_for(user)
        if not waiting:
            return False
        first = waiting[0]
        note = Notification(
            user=user,
            kind=Kind.TURN,
            game=first,
            payload={"version": first.version, "games": [g.pk for g in waiting]},
            dedupe_key=f"turn:{user.pk}:{int(now.timestamp())}",
        )
        return bool(write([note]))


@receiver(vote_opened, dispatch_uid="games.notifications.write_votes")
def write_votes(sender, *, game: Game, seat: Seat, voters: set[int], **kwargs) -> list[int]:
    """The vote on ``seat`` opened: each voter who hears of their turns is asked to vote.
    Inside the timeout's transaction."""
    stamp = int(seat.timed_out_at.timestamp())
    people = get_user_model().objects.filter(pk__in=voters).exclude(email="")
    return write(
        [
            Notification(
                user=user,
                kind=Kind.VOTE,
                game=game,
                payload={"version": game.version, "seat": seat.pk},
                dedupe_key=f"vote:{game.pk}:{seat.pk}:{stamp}:{user.pk}",
            )
            for user in people
            if wanted(user, Kind.VOTE)
        ]
    )


@receiver(game_cancelled, dispatch_uid="games.notifications.write_cancelled")
def write_cancelled(sender, *, game: Game, **kwargs) -> list[int]:
    """A moderator cancelled ``game``: each person at the table hears why (as with "game
    over", unless they switched that mail off). Inside the cancellation's transaction."""
    return write(
        [
            Notification(
                user=seat.user,
                kind=Kind.CANCELLED,
                game=game,
                payload={"version": game.version, "reason": game.cancel_reason},
                dedupe_key=f"cancelled:{game.pk}:{seat.user_id}",
            )
            for seat in game.seats.select_related("user")
            if seat.user is not None and seat.user.email and wanted(seat.user, Kind.CANCELLED)
        ]
    )


@receiver(challenge_changed, dispatch_uid="games.notifications.write_challenge")
def write_challenge(sender, *, challenge: Challenge, **kwargs) -> list[int]:
    """A new challenge: the invitee hears of it if they hear of their turns (an answer is
    asked of them, as with a vote). Inside the challenge's transaction; not sent once it is
    answered or withdrawn."""
    invitee = challenge.invitee
    if challenge.status != Challenge.Status.PENDING or not invitee.email:
        return []
    if not wanted(invitee, Kind.CHALLENGE):
        return []
    return write(
        [
            Notification(
                user=invitee,
                kind=Kind.CHALLENGE,
                game=challenge.game,
                payload={"challenge": challenge.pk},
                dedupe_key=f"challenge:{challenge.pk}",
            )
        ]
    )


def write_warning(user, reason: str, *, stamp: datetime) -> list[int]:
    """A moderator's warning to ``user``: a message from the site, not a setting's mail, so
    it always goes out (and offers no unsubscribe link)."""
    if not user.email:
        return []
    return write(
        [
            Notification(
                user=user,
                kind=Kind.WARNING,
                payload={"reason": reason},
                dedupe_key=f"warning:{user.pk}:{int(stamp.timestamp() * 1000)}",
            )
        ]
    )


def urgency(game: Game):
    """Most urgent first: the soonest deadline (none: last), then the longest waiting."""
    far = datetime.max.replace(tzinfo=UTC)
    return (game.deadline or far, game.turn_started_at or far, game.pk)


def waiting_for(user) -> list[Game]:
    """The running games where it is ``user``'s move, most urgent first."""
    seats = Seat.objects.persons_to_act().filter(user=user).select_related("game")
    return sorted((s.game for s in seats), key=urgency)


def write_digests(now: datetime | None = None) -> int:
    """One digest a day (from ``PUERTO_DIGEST_HOUR`` o'clock in the user's time zone) to each
    digest reader with games waiting for their move."""
    now = now or timezone.now()
    User = get_user_model()
    seats = (
        Seat.objects.persons_to_act()
        .filter(user__turn_email=User.TurnEmail.DIGEST, user__is_active=True)
        .exclude(user__email="")
    )
    games: dict[int, list[Game]] = defaultdict(list)
    users = {}
    for seat in seats.select_related("game", "user"):
        games[seat.user_id].append(seat.game)
        users[seat.user_id] = seat.user
    rows = []
    for user_id, waiting in games.items():
        user = users[user_id]
        local = now.astimezone(user_zone(user))
        if local.hour < settings.PUERTO_DIGEST_HOUR:
            continue
        rows.append(
            Notification(
                user=user,
                kind=Kind.DIGEST,
                payload={"games": [g.pk for g in sorted(waiting, key=urgency)]},
                dedupe_key=f"digest:{user_id}:{local.date().isoformat()}",
            )
        )
    with transaction.atomic():
        return len(write(rows))


# Delivering -----------------------------------------------------------------------------------


def deliver(notification_id: int, now: datetime | None = None) -> str:
    """Send one notification at most once: ``sent``, ``discarded``, ``failed`` or ``skipped``
    (already sent, given up, or being sent by someone else right now)."""
    now = now or timezone.now()
    pending = Notification.objects.filter(sent_at__isnull=True, discarded_at__isnull=True)
    with transaction.atomic():
        note = pending.select_for_update(skip_locked=True).filter(pk=notification_id).first()
        if note is None:
            return "skipped"
        # A write claims the row on databases without row locks (SQLite: the write lock is
        # held to commit, and a second sender finds the row sent).
        if not pending.filter(pk=note.pk).update(attempts=F("attempts")):
            return "skipped"
        why_not = unwanted(note)
        if why_not:
            note.discarded_at, note.last_error = now, why_not
            note.save(update_fields=["discarded_at", "last_error"])
            return "discarded"
        note.attempts += 1
        try:
            build_message(note).send()
        except Exception as error:
            note.last_error = f"{type(error).__name__}: {error}"[:2000]
            if note.attempts >= MAX_ATTEMPTS:
                note.discarded_at = now
                log.error("gave up notification %s: %s", note.pk, note.last_error)
            else:
                note.next_attempt_at = now + backoff(note.attempts)
                log.warning("notification %s failed, retrying: %s", note.pk, note.last_error)
            note.save(update_fields=["attempts", "last_error", "discarded_at", "next_attempt_at"])
            return "failed"
        note.sent_at, note.last_error = now, ""
        note.save(update_fields=["attempts", "sent_at", "last_error"])
        return "sent"


def deliver_pending(now: datetime | None = None) -> int:
    """The sweeper: deliver what is due and unsent, oldest first; how many were sent."""
    now = now or timezone.now()
    due = (
        Notification.objects.filter(sent_at__isnull=True, discarded_at__isnull=True)
        .exclude(next_attempt_at__gt=now)
        .order_by("created_at")
        .values_list("pk", flat=True)[:PENDING_BATCH]
    )
    return sum(deliver(pk, now) == "sent" for pk in list(due))


def wanted(user, kind: str) -> bool:
    """Does ``user`` want this kind of mail now? Checked again at delivery."""
    if kind == Kind.TURN:
        return user.turn_email == user.TurnEmail.IMMEDIATE
    if kind in (Kind.VOTE, Kind.CHALLENGE):  # a decision: for all who hear of their moves
        return user.turn_email != user.TurnEmail.OFF
    if kind == Kind.DIGEST:
        return user.turn_email == user.TurnEmail.DIGEST
    if kind == Kind.REMINDER:
        return user.reminder_email
    if kind == Kind.WARNING:
        return True
    return user.game_over_email  # game over, and a game cancelled by a moderator


def unwanted(note: Notification) -> str:
    """Why this notification should not go out (any more), or ``""``."""
    user = note.user
    if not user.is_active or not user.email:
        return "no active account with an email address"
    if not wanted(user, note.kind):
        return f"{user.get_username()} no longer wants {note.get_kind_display()} email"
    if note.kind == Kind.TURN:
        if not _waiting_games(note):
            return "no longer their move"
        back = last_seen(user)
        if back is not None and back > note.created_at:
            return "back on the site since"
    if note.kind == Kind.REMINDER:
        game = note.game
        seat = game.seat_to_act() if game and game.status == Game.Status.RUNNING else None
        if seat is None or seat.is_ai or seat.user_id != user.pk:
            return "no longer their move"
        if game.turn_started_at and note.created_at < game.turn_started_at:
            return "written for an earlier turn"
    if note.kind == Kind.DIGEST and not _waiting_games(note):
        return "no game waits for their move any more"
    if note.kind == Kind.VOTE and _absentee(note) is None:
        return "the vote is over"
    if note.kind == Kind.CHALLENGE and _challenge(note) is None:
        return "the challenge was answered or withdrawn"
    return ""


def _challenge(note: Notification) -> Challenge | None:
    """The challenge a notification is about, while it waits for an answer."""
    pending = Challenge.objects.pending().filter(pk=note.payload.get("challenge"))
    return pending.select_related("challenger").first()


def _absentee(note: Notification) -> Seat | None:
    """The seat a vote notification is about, while its vote is still open."""
    return (
        Seat.objects.filter(
            pk=note.payload.get("seat"), timed_out_at__isnull=False, ai_level=Seat.AI.NONE
        )
        .select_related("user")
        .first()
    )


# Rendering -----------------------------------------------------------------------------------


def site_url(path: str) -> str:
    return settings.PUERTO_SITE_URL.rstrip("/") + path


def _profile_path() -> str:
    try:
        return reverse("accounts:profile")
    except NoReverseMatch:
        return "/"


def user_zone(user):
    try:
        return ZoneInfo(user.time_zone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def user_language(user) -> str:
    return user.language if user.language in LANGUAGES else "en"


def _waiting_games(note: Notification) -> list[Game]:
    """The games a digest or "your move" lists that still wait for the player's move."""
    ids = note.payload.get("games", [])
    still = {g.pk: g for g in waiting_for(note.user)}
    return [still[pk] for pk in ids if pk in still]


def _players(game: Game) -> list[str]:
    return game.names()


def context_for(note: Notification) -> dict:
    user, game = note.user, note.game
    context = {
        "user": user,
        "name": user.public_name,
        "site_url": site_url("/"),
        "unsubscribe_url": _unsubscribe_for(user, note.kind),
        "settings_url": site_url(_profile_path()),
        "reason": note.payload.get("reason", ""),
    }
    if game is not None:
        names = _players(game)
        context.update(
            game=game,
            game_url=site_url(game.get_absolute_url()),
            players=names,
            others=[n for n in names if n != user.public_name],
            deadline=game.deadline,
        )
    if note.kind == Kind.GAME_OVER and game is not None:
        rows = list(game.results.all())  # first place first
        table = [
            {"name": names[row.position], "total": row.score, "winner": row.placement == 1}
            for row in rows
        ]
        context.update(
            scores=table,
            winners=[r["name"] for r in table if r["winner"]],
            won=any(row.user_id == user.pk and row.placement == 1 for row in rows),
        )
    if note.kind == Kind.VOTE:
        absentee = _absentee(note)
        context["absentee"] = absentee.name if absentee else ""
    if note.kind == Kind.CHALLENGE and game is not None:
        challenge = _challenge(note)
        context.update(
            challenger=challenge.challenger.public_name if challenge else "",
            title=game.title,
            variant=game.variant(),
            num_players=game.num_players,
            lobby_url=site_url(reverse("games:lobby")) + "#challenges",
        )
    if note.kind in (Kind.DIGEST, Kind.TURN):  # "your move": the first game, then every one
        context["games"] = [
            {
                "game": g,
                "url": site_url(g.get_absolute_url()),
                "deadline": g.deadline,
                "since": g.turn_started_at,
                "others": g.other_names(user),
            }
            for g in _waiting_games(note)
        ]
    return context


def _unsubscribe_for(user, kind: str) -> str:
    """Votes and challenges follow the setting for turn email, cancellations the one for
    "game over": the link switches that off. A warning has none."""
    if kind == Kind.WARNING:
        return ""
    follows = {Kind.VOTE: Kind.TURN, Kind.CHALLENGE: Kind.TURN, Kind.CANCELLED: Kind.GAME_OVER}
    setting = follows.get(kind, kind)
    return unsubscribe_url(user, setting)


def build_message(note: Notification) -> EmailMultiAlternatives:
    """The email for ``note`` in its user's language and time zone, text and HTML."""
    user = note.user
    language = user_language(user)
    base = f"email/{note.kind}"
    with translation.override(language), timezone.override(user_zone(user)):
        context = context_for(note)  # in the reader's language: the AI players' names too
        subject = " ".join(render_to_string(f"{base}.subject.txt", context).split())
        text = render_to_string(f"{base}.txt", context)
        html = render_to_string(f"{base}.html", context)
    unsubscribe = context["unsubscribe_url"]
    headers = {"Auto-Submitted": "auto-generated", "Message-ID": message_id()}
    if unsubscribe:
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(subject=subject, body=text, to=[user.email], headers=headers)
    message.attach_alternative(html, "text/html")
    return message


# Unsubscribing -------------------------------------------------------------------------------


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps({"u": user.pk, "k": kind}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(user, kind: str) -> str:
    return site_url(reverse("games:unsubscribe", args=[unsubscribe_token(user, kind)]))


def read_unsubscribe_token(token: str):
    """``(user, kind)`` for a genuine token signed within ``PUERTO_UNSUBSCRIBE_LINK_DAYS``
    (every mail carries a fresh one, so a link goes stale only in an old mail); raises
    ``signing.SignatureExpired`` for an older one, ``signing.BadSignature`` for any other."""
    data = signing.loads(
        token, salt=UNSUBSCRIBE_SALT, max_age=timedelta(days=settings.PUERTO_UNSUBSCRIBE_LINK_DAYS)
    )
    try:
        user_id, kind = data["u"], data["k"]
    except (KeyError, TypeError) as error:
        raise signing.BadSignature("not an unsubscribe token") from error
    user = get_user_model().objects.filter(pk=user_id).first() if kind in Kind.values else None
    if user is None:
        raise signing.BadSignature("no such account or kind of email")
    return user, kind


def unsubscribe(user, kind: str) -> None:
    """Switch this kind of mail off in the profile; queued mail of the kind is not sent."""
    if kind in (Kind.TURN, Kind.DIGEST, Kind.VOTE, Kind.CHALLENGE):
        user.turn_email = user.TurnEmail.OFF
        fields = ["turn_email"]
    elif kind == Kind.REMINDER:
        user.reminder_email = False
        fields = ["reminder_email"]
    else:
        user.game_over_email = False
        fields = ["game_over_email"]
    user.save(update_fields=fields)
