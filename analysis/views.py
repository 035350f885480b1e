"""The hint on a player's board and the review page after a game. Thin: the questions and
answers are ``analysis.hints`` and ``analysis.reviews``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from analysis import hints, reviews
from analysis.board import board_part
from analysis.models import Review
from games import charts, history
from games.forms import whole_number
from games.models import Game
from games.views import bot_seats, on_posted_version, visible_game

MARK_NAMES = {
    "blunder": gettext_lazy("Blunder"),
    "mistake": gettext_lazy("Mistake"),
    "inaccuracy": gettext_lazy("Inaccuracy"),
}


@login_required
@require_http_methods(["GET", "POST"])
def hint(request: HttpRequest, pk: int) -> HttpResponse:
    """POST ``version``: ask what the AI would do in the position the player sees; GET: the
    hint as it stands (polled while the worker searches). htmx gets the hint's part of the
    board; a plain form post is sent back to the game page."""
    game = visible_game(pk, request.user)
    status, message = 200, ""
    if request.method == "POST":
        status, message, back = on_posted_version(
            request,
            pk,
            gettext("the hint does not say which version of the game you saw"),
            lambda seen: hints.ask(game, request.user, seen),
            "#hint",
            required=True,
        )
        if back:
            return back
    context = {
        "game": game,
        "version": game.version,
        "hint_message": message,
        **board_part(game, game.seat_of(request.user)),
    }
    return render(request, "analysis/_hint.html", context, status=status)


@login_required
@require_GET
def review(request: HttpRequest, pk: int) -> HttpResponse:
    """The review of the viewer's own decisions in a finished game: their win chance over the
    game, the costliest decisions, and the board at one of them (``?decision=`` its version;
    the costliest by default)."""
    game = visible_game(pk, request.user)
    seat = game.seat_of(request.user)
    found = Review.objects.filter(seat=seat).first() if seat else None
    if found is None:
        raise Http404(gettext("there is no review of your decisions in this game"))
    names = game.names()
    costly = reviews.costliest(found)
    try:
        asked = whole_number(request.GET.get("decision"), "")
    except ValueError:
        asked = None
    shown = next((d for d in costly if d["version"] == asked), costly[0] if costly else None)
    context = {
        "game": game,
        "seat": seat,
        "review": found,
        "judged": len(found.decisions),
        "waiting": len(found.pending),
        "marks": reviews.marks(found),
        "chart": _win_chart(found, names[seat.position], seat.colour),
        "costly": [_told(game, seat.position, d) for d in costly],
        "shown": shown and shown["version"],
        "version": game.version,
        "is_my_turn": False,
    }
    if shown is not None:
        before = history.state_at(game, shown["version"] - 1)
        context.update(
            ui_template=game.spec.template,
            **game.spec.seat_board_context(before, seat.position, names, may_act=False),
            bot_seats=bot_seats(game),
        )
    return render(request, "analysis/review.html", context)


def _told(game: Game, position: int, decision: dict) -> dict:
    """A judged decision in words: the move played and the AI's choice, each with its win
    share, from the position before it."""
    before = history.state_at(game, decision["version"] - 1)
    played, best = hints.words(
        game,
        position,
        before,
        [
            {
                "action": decision["played"],
                "win": decision["win"],
                "playouts": decision["playouts"],
            },
            {
                "action": decision["best"],
                "win": decision["best_win"],
                "playouts": decision["best_playouts"],
            },
        ],
    )
    return {
        **decision,
        "mark_name": MARK_NAMES[decision["mark"]],
        "played_words": played,
        "best_words": best,
    }


def _win_chart(review: Review, name: str, colour: str) -> dict | None:
    """The player's win chance after each judged decision, in per cent, labelled by round."""
    points = [(d["round"], [round(100 * d["win"])]) for d in review.decisions]
    return charts.chart(points, [name], [colour], labels=12, top=100)
