"""Player pages, following players, and the leaderboards. Thin: what a page shows of a
player is ``players.profiles``; who is on a leaderboard, ``players.leaderboards``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts.middleware import activate_now
from games.registry import get_ladder
from players import follows, leaderboards, profiles
from players.forms import LeaderboardForm
from players.models import PROVISIONAL_GAMES


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    activate_now(request)
    shown = profiles.active_player(username)
    context = profiles.profile(request.user, shown)
    context["provisional_games"] = PROVISIONAL_GAMES
    context["history_games"] = profiles.HISTORY
    context["all_shown"] = profiles.visible_games(request.user, shown) == profiles.EVERY_GAME
    return render(request, "players/player.html", context)


@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    """Follow the player (``follow=1``) or stop (``follow=0``). htmx gets the button again; a
    plain form post is sent back to the player page."""
    if not request.user.is_authenticated:
        return HttpResponse(gettext("Log in to follow players."), status=403)
    followed = profiles.active_player(username)
    status, error = 200, ""
    on = {"1": True, "0": False}.get(request.POST.get("follow", ""))
    try:
        if on is None:
            raise follows.CannotFollow(gettext("Say whether to follow (1) or to stop (0)."))
        follows.set_following(request.user, followed, on)
    except follows.CannotFollow as refusal:
        status, error = 400, str(refusal)
    if not request.htmx:
        if error:
            return HttpResponse(error, status=status)
        response = HttpResponseRedirect(reverse("players:player", args=[followed.username]))
        response.status_code = 303
        return response
    context = {
        "player": followed,
        "following": profiles.following(request.user, followed),
        "follow_error": error,
    }
    return render(request, "players/_follow.html", context, status=status)


@login_required
@require_GET
def following(request: HttpRequest) -> HttpResponse:
    """The players the reader follows, and their latest games that the reader may see."""
    followed = request.user.follows.filter(followed__is_active=True).select_related("followed")
    context = {
        "followed": [f.followed for f in followed.order_by("followed__username")],
        "games": profiles.followed_games(request.user),
    }
    return render(request, "players/following.html", context)


def _board_form(request: HttpRequest) -> LeaderboardForm | HttpResponse:
    """The leaderboard's parameters, or the 400 that says what is wrong with them."""
    activate_now(request)  # the refusal is in the reader's language
    form = LeaderboardForm(request.GET)
    if form.is_valid():
        return form
    return render(request, "players/bad_query.html", {"error": form.first_error()}, status=400)


@require_GET
def ratings(request: HttpRequest) -> HttpResponse:
    """Every ladder with its first ten persons."""
    form = _board_form(request)
    if isinstance(form, HttpResponse):
        return form
    active = form.cleaned_data["active"]
    context = {"boards": leaderboards.tops(active), "form": form, "active": active}
    return render(request, "players/ratings.html", context)


@require_GET
def leaderboard(request: HttpRequest, ladder: str) -> HttpResponse:
    activate_now(request)
    board = get_ladder(ladder)
    if board is None:
        raise Http404(gettext("There is no such leaderboard."))
    form = _board_form(request)
    if isinstance(form, HttpResponse):
        return form
    active, number = form.cleaned_data["active"], form.cleaned_data["page"]
    try:
        page = leaderboards.page_of(board, active, number)
    except EmptyPage:
        raise Http404(gettext("The leaderboard has no such page.")) from None
    context = {
        "ladder": board,
        "page": page,
        "ai_levels": leaderboards.ai_levels(board),
        "bots": leaderboards.bots(board),
        "form": form,
        "active": active,
    }
    return render(request, "players/leaderboard.html", context)
