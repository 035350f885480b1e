"""Games to list, made quickly: played through the services up to their start, then finished
with the results a test chooses (the archive reads only a game's rows)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games import services
from games.models import Game, Result


def finished_game(
    users,
    scores=None,
    *,
    engine: str = "puerto_rico",
    rated: bool = False,
    spectators: bool = True,
    options=None,
    finished_at: datetime | None = None,
) -> Game:
    """A game of ``users`` (the first opened it) finished with ``scores`` by engine seat
    (default: seat 0 first); placements follow the scores, the highest first."""
    game = services.create_game(
        users[0],
        engine=engine,
        num_players=len(users),
        rated=rated,
        spectators=spectators,
        options=options,
    )
    for user in users[1:]:
        services.join_game(game.pk, user)
    game = Game.objects.with_seats().get(pk=game.pk)
    scores = scores or [10 * (len(users) - i) for i in range(len(users))]
    ranking = sorted(set(scores), reverse=True)
    for seat in game.seats.all():
        score = scores[seat.position]
        Result.objects.create(
            game=game,
            seat=seat,
            position=seat.position,
            user=seat.user,
            played_by=Result.PlayedBy.PERSON,
            person_decisions=1,
            ai_decisions=0,
            placement=ranking.index(score) + 1,
            score=score,
            parts={},
            tiebreak={},
        )
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        ending=Game.Ending.PLAYED_OUT,
        current_position=None,
        finished_at=finished_at or timezone.now(),
    )
    return Game.objects.with_seats().get(pk=game.pk)


def running_game(users, *, spectators: bool = True, rated: bool = False) -> Game:
    game = services.create_game(
        users[0],
        engine="puerto_rico",
        num_players=len(users),
        spectators=spectators,
        rated=rated,
    )
    for user in users[1:]:
        services.join_game(game.pk, user)
    return Game.objects.with_seats().get(pk=game.pk)
