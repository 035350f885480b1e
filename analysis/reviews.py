"""Post-game reviews: after a game ends, the worker judges each person's decisions from that
seat's own view with the hard player's search (``games.bots.analyse_position``), a few
decisions per task on the low-priority ``reviews`` queue, so reviews never delay AI moves.

A decision is judged by the win share of the move played against the search's best choice
(``Estimate.win``). The loss marks it, as chess sites do: an inaccuracy from 10 points of win
chance, a mistake from 20, a blunder from 30, and only when the loss is clear of the search's
own noise (two standard errors of the difference, ``_variance``).
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from analysis.models import Review
from games import history
from games.bots import Estimate, analyse_position
from games.models import Game

MARKS = ((0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy"))
"""Loss of win chance from which a decision is marked, the worst first."""
TASK_SECONDS = 20
"""Worker time one task spends before it hands on to a fresh one (a killed worker loses at
most one decision's work; other reviews get their turn)."""


def queue_reviews(game: Game) -> None:
    """Inside the transaction of the game's last move: a review for each seat a person made
    decisions in, queued after commit. A game whose AI cannot judge positions gets none."""
    from analysis.tasks import review_seat  # the tasks import this module

    if not settings.PUERTO_REVIEWS or game.spec.analyst is None:
        return
    moves = game.moves.order_by("version").only("version", "kind", "action", "seat", "actor")
    decisions: dict[int, list[int]] = {}
    for move in history.standing(moves):
        if move.actor_id is not None and not move.forced:
            decisions.setdefault(move.seat_id, []).append(move.version)
    for seat in game.seats.all():
        if seat.user_id is None or not decisions.get(seat.pk):
            continue
        review = Review.objects.create(seat=seat, pending=decisions[seat.pk])
        transaction.on_commit(lambda pk=review.pk: review_seat.delay(pk))


def judge(estimates: list[Estimate], played) -> dict | None:
    """The played move's estimate against the best one, and its mark; None when the search
    did not play the move out (it ran out of time first)."""
    best = estimates[0]
    mine = next((e for e in estimates if e.action == played), None)
    if mine is None or mine.win is None or best.win is None:
        return None
    pair = [best] if mine is best else [best, mine]
    noise = math.sqrt(sum(_variance(e) for e in pair))
    loss = max(0.0, best.win - mine.win)
    mark = next((name for floor, name in MARKS if loss >= floor), "") if loss > 2 * noise else ""
    return {
        "win": mine.win,
        "playouts": mine.playouts,
        "best_win": best.win,
        "best_playouts": best.playouts,
        "loss": loss,
        "mark": mark,
    }


def _variance(estimate: Estimate) -> float:
    """The variance of a win share, its count of wins smoothed by one win and one loss: a
    share of 0 or 1 from a few playouts is no certainty (Agresti and Coull)."""
    n = estimate.playouts
    smoothed = (estimate.win * n + 1) / (n + 2)
    return smoothed * (1 - smoothed) / n


def review_some(review_id: int) -> bool:
    """Judge the review's next decisions for up to ``TASK_SECONDS`` of worker time, saving
    after each; True if decisions are left for another task. A review stops when its seat's
    share of ``REVIEW_GAME_SECONDS`` is spent: the decisions left are not judged."""
    review = Review.objects.select_related("seat__game").filter(pk=review_id).first()
    if review is None or review.status != Review.Status.QUEUED:
        return False
    game, seat = review.seat.game, review.seat
    rules, analyst = game.rules, game.spec.analyst
    reviewed = Review.objects.filter(seat__game=game).count()
    allowance = settings.REVIEW_GAME_SECONDS / max(1, reviewed)
    started = time.process_time()
    moves = {m.version: m for m in game.moves.filter(version__in=review.pending)}
    while review.pending and time.process_time() - started < TASK_SECONDS:
        if review.cpu_seconds >= allowance:
            break
        began = time.process_time()
        version = review.pending[0]
        before = history.state_at(game, version - 1)
        played = rules.action_from_json(moves[version].action)
        estimates = analyse_position(
            rules,
            rules.player_view(before, seat.position),
            analyst=analyst,
            seed=game.seed + version,
            simulations=settings.ANALYSIS_SIMULATIONS,
            played=played,
        )
        verdict = judge(estimates, played) if len(estimates) > 1 else None
        if verdict is not None:
            review.decisions.append(
                {
                    "version": version,
                    "round": rules.round_number(before),
                    "played": moves[version].action,
                    "best": rules.action_to_json(estimates[0].action),
                    **verdict,
                }
            )
        review.pending.pop(0)
        review.cpu_seconds += time.process_time() - began
        review.save(update_fields=["pending", "decisions", "cpu_seconds"])
    more = bool(review.pending) and review.cpu_seconds < allowance
    if not more:
        review.status = Review.Status.DONE
        review.finished_at = timezone.now()
        review.save(update_fields=["status", "finished_at"])
    return more


def costliest(review: Review, count: int = 5) -> list[dict]:
    """The marked decisions that cost the most win chance, the worst first."""
    marked = [d for d in review.decisions if d["mark"]]
    return sorted(marked, key=lambda d: -d["loss"])[:count]


def marks(review: Review) -> dict[str, int]:
    """How many decisions got each mark."""
    return {name: sum(d["mark"] == name for d in review.decisions) for _, name in MARKS}
