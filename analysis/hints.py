"""Hints: in a casual game, a player on their turn may ask what the hard AI player would do.

The question is stored (``Hint``) and answered by the worker like an AI move, from the seat's
own view only; the other players see how many hints each player used. Never in a rated game.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from analysis.models import Hint
from games.bots import analyse_position
from games.models import Game, Seat
from games.services import Conflict, Forbidden

SHOWN = 3
"""The choices a hint shows, the AI's first; only those searched to the end, whose win shares
compare (a choice dropped early had too few playouts: one playout's win would outrank them)."""


def offered(game: Game, seat: Seat | None) -> bool:
    """Whether ``seat`` may ask for a hint now: a casual game running on its person's turn,
    of a game whose AI can judge a position."""
    return (
        seat is not None
        and not seat.is_ai
        and not game.rated
        and game.status == Game.Status.RUNNING
        and game.current_position == seat.position
        and game.spec.analyst is not None
    )


def ask(game: Game, user, version: int) -> Hint:
    """The hint of ``user``'s seat at ``version``, asked now if it was not yet (and queued for
    the worker once the question is stored). ``Forbidden`` in a rated game or off the
    player's turn; ``Conflict`` when the game has moved on from ``version``."""
    from analysis.tasks import answer_hint  # the tasks import this module

    seat = game.seat_of(user)
    if seat is None:
        raise Forbidden(gettext("only the game's players may ask for a hint"))
    if game.rated:
        raise Forbidden(gettext("hints are for casual games: this game is rated"))
    if not offered(game, seat):
        raise Forbidden(gettext("you may ask for a hint on your own turn only"))
    if version != game.version:
        raise Conflict(gettext("the game has moved on: look at the board again"))
    hint, created = Hint.objects.get_or_create(seat=seat, version=version)
    if created:
        transaction.on_commit(lambda: answer_hint.delay(hint.pk))
    return hint


def answer(hint_id: int) -> None:
    """Search the hinted position as the hard player would, from the seat's view, and store
    the top choices; a question the game has moved on from stays unanswered."""
    hint = Hint.objects.select_related("seat__game").filter(pk=hint_id).first()
    if hint is None or hint.answered_at is not None:
        return
    game = hint.seat.game
    if game.version != hint.version or game.status != Game.Status.RUNNING:
        return
    rules = game.rules
    view = rules.player_view(game.engine_state(), hint.seat.position)
    estimates = analyse_position(
        rules,
        view,
        analyst=game.spec.analyst,
        seed=game.seed + hint.version,
        simulations=settings.ANALYSIS_SIMULATIONS,
    )
    finalists = [e for e in estimates if e.finalist]
    hint.estimates = [
        {"action": rules.action_to_json(e.action), "win": e.win, "playouts": e.playouts}
        for e in finalists[:SHOWN]
    ]
    hint.answered_at = timezone.now()
    hint.save(update_fields=["estimates", "answered_at"])


def words(game: Game, position: int, state, estimates: list[dict]) -> list[dict]:
    """Each stored estimate (``Hint.estimates``, a review's choices) as the board says its
    action, from a state agreeing with the seat's view of ``state``: its win share in per
    cent and its playouts."""
    rules, spec = game.rules, game.spec
    seen = rules.determinize(rules.player_view(state, position), 0)
    return [
        {
            "words": spec.describe_action(seen, position, rules.action_from_json(e["action"])),
            "win": None if e["win"] is None else round(100 * e["win"]),
            "playouts": e["playouts"],
        }
        for e in estimates
    ]
