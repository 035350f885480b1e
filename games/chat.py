"""A game's chat: who may read and write it, writing (checked and rate-limited), a player's
own mutes, and the chat as JSON. Messages are plain text: templates escape them and nothing
turns into a link. Every change bumps ``Game.chat_version``, which the game page polls."""

from __future__ import annotations

import re

from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from games import rates
from games.models import ChatMessage, ChatMute, Game
from games.services import Forbidden, GameError, NotFound
from games.signals import chat_posted
from moderation.models import Standing

MAX_LENGTH = 500
RATE_MESSAGES = 10
RATE_SECONDS = 60
"""At most ``RATE_MESSAGES`` messages per user in any fixed window of ``RATE_SECONDS``."""
NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
"""Control characters but line breaks and tabs, and lone surrogates (which JSON can carry):
no message is made of them, and PostgreSQL refuses NUL in text."""


def is_player(game: Game, user) -> bool:
    """Whether ``user`` has a seat in ``game`` (seats prefetched or not)."""
    return game.seat_of(user) is not None


def may_read(game: Game, user) -> bool:
    """Players read the chat; spectators only if the creator allowed it. The one rule for
    every way to the chat: the game page, its poll, the API, the exported file and a report."""
    return game.chat_public or is_player(game, user)


def shown(game: Game) -> QuerySet[ChatMessage]:
    """The chat without the messages a moderator hid, oldest first. Call only if ``may_read``."""
    return ChatMessage.objects.filter(game=game, hidden_at__isnull=True).order_by("pk")


def messages_for(game: Game, user) -> QuerySet[ChatMessage]:
    """What ``user`` sees of the chat, oldest first: neither hidden messages nor those of
    players they muted. Call only if ``may_read``."""
    messages = shown(game)
    if user is not None and user.is_authenticated:
        messages = messages.exclude(author__in=ChatMute.objects.filter(user=user).values("muted"))
    return messages.select_related("author")


def silenced(user) -> bool:
    """Whether a moderator muted ``user`` (no query for the session's user, which is read with
    its standing)."""
    try:
        return user.standing.muted
    except Standing.DoesNotExist:
        return False


def post(game_id: int, user, text: str) -> ChatMessage:
    """Write ``text`` to the game's chat as ``user``, who must be a player and not muted by
    a moderator."""
    game = Game.objects.with_seats().filter(pk=game_id).first()
    if game is None:
        raise NotFound(gettext("no such game"), "not_found")
    if not is_player(game, user):
        raise Forbidden(gettext("only the game's players may write in its chat"), "not_seated")
    if silenced(user):
        raise Forbidden(gettext("a moderator has muted you: you cannot write in the chat"), "muted")
    text = (text or "").strip()
    if not text:
        raise GameError(gettext("write something first"), "empty_message")
    if len(text) > MAX_LENGTH:
        raise GameError(
            gettext("a chat message has at most %(max)d characters") % {"max": MAX_LENGTH},
            "message_too_long",
            {"max": MAX_LENGTH},
        )
    if NOT_TEXT.search(text):
        raise GameError(
            gettext("a chat message cannot hold control characters"), "control_characters"
        )
    _count_against_rate(user)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            game=game,
            author=user,
            text=text,
            after_move=game.moves.count(),
            version=game.version,
        )
        bump(game.pk)
        chat_posted.send(ChatMessage, message=message)
    return message


def _count_against_rate(user) -> None:
    wait = rates.count("chat", user, RATE_MESSAGES, RATE_SECONDS)
    if wait:
        message = gettext("at most %(count)d messages a minute: wait a moment")
        raise rates.TooFast(message % {"count": RATE_MESSAGES}, wait)


def bump(game_id: int) -> None:
    """Tell the polling pages that the chat changed."""
    Game.objects.filter(pk=game_id).update(chat_version=F("chat_version") + 1)


def hide(message_id: int) -> ChatMessage:
    """Hide a message from every player (a moderator's decision: ``moderation.services``)."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise NotFound(gettext("no such chat message"))
        if message.hidden_at is not None:
            raise GameError(gettext("the message is hidden already"))
        message.hidden_at = timezone.now()
        message.save(update_fields=["hidden_at"])
        bump(message.game_id)
    return message


def set_mute(game: Game, user, other_id: int, muted: bool) -> None:
    """``user`` hides (or shows again) the messages of ``other``, a player of ``game``, in
    their own view only (in every game)."""
    if other_id == user.pk:
        raise GameError(gettext("you cannot mute yourself"))
    if not any(s.user_id == other_id for s in game.seats.all()):
        raise NotFound(gettext("no such player in this game"))
    if muted:
        ChatMute.objects.get_or_create(user=user, muted_id=other_id)
    else:
        ChatMute.objects.filter(user=user, muted_id=other_id).delete()


def as_json(message: ChatMessage) -> dict:
    """One message as JSON-ready data (author read with it)."""
    return {
        "id": message.pk,
        "author": message.author.public_name,
        "text": message.text,
        "after_move": message.after_move,
        "version": message.version,
        "created_at": message.created_at.isoformat(),
    }
