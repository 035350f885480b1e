"""What the game page's board shows of hints and reviews (``games/_board.html`` includes
``analysis/_hint.html``)."""

from __future__ import annotations

from django.urls import reverse

from analysis.hints import offered, words
from analysis.models import Hint, Review
from games.models import Game, Seat


def board_part(game: Game, seat: Seat | None) -> dict:
    """On the seat's turn in a casual game, the hint's button, the question waiting for the
    worker, or the answer; to everyone, the hints each player used; at the end, the link to
    the viewer's review. One query for the hints, one for a finished game's review."""
    names = game.names()
    asked = (
        list(Hint.objects.filter(seat__game=game).select_related("seat")) if not game.rated else []
    )
    used: dict[int, int] = {}
    for hint in asked:
        used[hint.seat.position] = used.get(hint.seat.position, 0) + 1
    finished = game.status == Game.Status.FINISHED and seat is not None
    context = {
        "hints_used": [(names[p], n) for p, n in sorted(used.items())],
        "hint_offered": offered(game, seat),
        "review_url": reverse("analysis:review", args=[game.pk])
        if finished and Review.objects.filter(seat=seat).exists()
        else "",
    }
    if context["hint_offered"]:
        hint = next((h for h in asked if h.seat_id == seat.pk and h.version == game.version), None)
        answered = hint is not None and hint.answered_at is not None
        context.update(
            hint=hint,
            hint_choices=words(game, seat.position, game.engine_state(), hint.estimates)
            if answered
            else [],
            hint_url=reverse("analysis:hint", args=[game.pk]),
        )
    return context
