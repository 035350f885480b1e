"""Challenges: the creator of an open game invites one user by name; the invitee accepts
(and takes a seat, as by joining) or declines, and the creator may withdraw it meanwhile.

A pending challenge holds a seat (``services.held_seats``): nobody else may take the last free
seats that invitees hold, so a game never fills up under an invitee who has not answered yet.
Every change locks the game row first, as joining does, so a challenge and a join never
overtake each other; each refusal is a ``GameError`` with a stable code
(``docs/api.md``, *Challenges*), and each change is told by ``signals.challenge_changed``
(the invitee's event and email, the challenger's event).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from games import services
from games.models import Challenge, Game
from games.services import Conflict, Forbidden, GameError, NotFound
from games.signals import challenge_changed
from moderation.models import barred_standing

MAX_USERNAME = 150
"""Django's longest username: a longer name is nobody's."""


def challenge(game_id: int, by, username: str) -> Challenge:
    """``by``, the creator of the open game ``game_id``, challenges the user ``username`` to
    it: the invitee's seat is held until they answer."""
    invitee = challengeable(username)
    with transaction.atomic():
        game = services._open_game(game_id)
        if by is None or game.creator_id != by.pk:
            raise Forbidden(
                gettext("only the player who opened the game may challenge players to it"),
                "not_creator",
            )
        if invitee.pk == by.pk:
            raise GameError(gettext("you cannot challenge yourself"), "challenge_yourself")
        name = {"player": invitee.public_name}
        if game.seats.filter(user=invitee).exists():
            message = gettext("%(player)s already has a seat in this game") % name
            raise Conflict(message, "already_seated", name)
        if game.challenges.pending().filter(invitee=invitee).exists():
            message = gettext("%(player)s is already challenged to this game") % name
            raise Conflict(message, "already_challenged", name)
        if invitee.is_bot and not game.bots_allowed:
            raise Forbidden(
                gettext("this game takes no bot accounts: its creator did not allow them"),
                "bots_not_allowed",
            )
        if game.seats.count() + services.held_seats(game) >= game.num_players:
            raise Conflict(gettext("no seat is left to hold for another player"), "game_full")
        made = Challenge.objects.create(game=game, challenger=by, invitee=invitee)
        challenge_changed.send(Challenge, challenge=made)
    return made


def challengeable(username) -> object:
    """The active account named ``username``, who may play now; ``no_such_user`` (the same
    for a closed, suspended or banned account: who is kept out is nobody's business)."""
    User = get_user_model()
    valid = (
        isinstance(username, str)
        and len(username) <= MAX_USERNAME
        and User.username_validator.regex.fullmatch(username)
    )
    found = valid and User.objects.filter(username=username, is_active=True).first()
    if not found or barred_standing(found) is not None:
        raise NotFound(gettext("there is no player of that name"), "no_such_user")
    return found


def accept(challenge_id: int, user) -> Challenge:
    """The invitee takes the seat held for them, as by joining (``services.join_game``, which
    answers the challenge); the game starts if that was its last seat."""
    with transaction.atomic():
        found = _pending(challenge_id, user, invitee=True)
        services.join_game(found.game_id, user)
    return _fresh(found)


def decline(challenge_id: int, user) -> Challenge:
    """The invitee says no: the seat held for them is free again."""
    with transaction.atomic():
        found = _pending(challenge_id, user, invitee=True)
        services._close_challenges(_one(found), Challenge.Status.DECLINED)
    return _fresh(found)


def withdraw(challenge_id: int, user) -> Challenge:
    """The challenger takes the challenge back: the seat held is free again."""
    with transaction.atomic():
        found = _pending(challenge_id, user, invitee=False)
        services._close_challenges(_one(found), Challenge.Status.WITHDRAWN)
    return _fresh(found)


def _fresh(found: Challenge) -> Challenge:
    """The challenge as its change left it, with its game and players."""
    return Challenge.objects.select_related("game", "challenger", "invitee").get(pk=found.pk)


def _one(found: Challenge):
    return Challenge.objects.filter(pk=found.pk)


def _pending(challenge_id: int, user, *, invitee: bool) -> Challenge:
    """The challenge, its game locked, if it is pending and ``user`` is its invitee
    (``invitee``) or its challenger; a challenge neither sent nor received by ``user`` is
    answered like one that does not exist."""
    row = Challenge.objects.filter(pk=challenge_id).values("game_id").first()
    if row is None:
        raise NotFound(gettext("no such challenge"), "no_such_challenge")
    services._lock(row["game_id"])
    found = Challenge.objects.select_related("game", "challenger", "invitee").get(pk=challenge_id)
    if user is None or user.pk not in (found.invitee_id, found.challenger_id):
        raise NotFound(gettext("no such challenge"), "no_such_challenge")
    if invitee and found.invitee_id != user.pk:
        raise Forbidden(
            gettext("only the challenged player may accept or decline a challenge"),
            "not_invitee",
        )
    if not invitee and found.challenger_id != user.pk:
        raise Forbidden(
            gettext("only the player who challenged may withdraw a challenge"),
            "not_challenger",
        )
    if found.status != Challenge.Status.PENDING:
        status = {"status": found.status}
        raise Conflict(
            gettext("this challenge is no longer open: %(status)s")
            % {"status": found.get_status_display()},
            "challenge_answered",
            status,
        )
    return found


def pending_for(user) -> list[Challenge]:
    """The challenges waiting for ``user``'s answer, the oldest first: the lobby's list."""
    if user is None or not user.is_authenticated:
        return []
    rows = Challenge.objects.pending().filter(invitee=user, game__status=Game.Status.OPEN)
    return list(rows.select_related("game", "challenger").order_by("created_at", "pk"))


def pending_in(game: Game) -> list[Challenge]:
    """The pending challenges of ``game``, the seats they hold in the waiting room."""
    return list(game.challenges.pending().select_related("invitee").order_by("created_at", "pk"))
