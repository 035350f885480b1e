"""Site-wide views that belong to no app: the home page, the health check, and the pages of
a request that found nothing or failed (in the API's one shape under ``/api/``)."""

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.text import get_text_list
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import notifications
from games.models import Game
from games.registry import shelf
from puerto import refusals
from puerto.checks import email_delivery

FRONT_PAGE_OPEN_GAMES = 8
"""Open games a visitor sees on the front page; the lobby lists more."""


def home(request: HttpRequest) -> HttpResponse:
    """Visitors learn what the site is: the games, a board, a game against the AI one sign-up
    away, the open games to join. A player finds the games waiting for their move."""
    signed_in = request.user.is_authenticated
    context = {
        "games": get_text_list([str(game.title) for game in shelf()], gettext("and")),
        "shelf": [
            {"spec": spec, "against_ai": _against_ai_url(spec.name, signed_in)} for spec in shelf()
        ],
    }
    if signed_in:
        waiting = notifications.waiting_for(request.user)
        prefetch_related_objects(waiting, "seats__user")
        context["waiting"] = [{"game": g, "others": g.other_names(request.user)} for g in waiting]
    else:
        context["open_games"] = Game.objects.waiting_for_players()[:FRONT_PAGE_OPEN_GAMES]
    return render(request, "home.html", context)


def _against_ai_url(engine: str, signed_in: bool) -> str:
    """The lobby with every further seat given to the AI; a visitor signs up on the way."""
    lobby = f"{reverse('games:lobby')}?{urlencode({'game': engine, 'against': 'ai'})}"
    if signed_in:
        return lobby
    return f"{reverse('account_signup')}?{urlencode({'next': lobby})}"


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        return False


def _redis_status() -> str:
    """``ok``, ``not configured`` or ``down``; short timeouts keep a dead Redis from hanging us."""
    if not settings.REDIS_URL:
        return "not configured"
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        return "ok" if client.ping() else "down"
    except redis.RedisError:
        return "down"
    finally:
        client.close()


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Cheap probe for load balancers and compose, naming each part that is down.

    Without the database nothing works: 503, so a load balancer stops sending requests here.
    Without Redis the site still serves (sessions are in the database, the cache falls back to
    memory, AI turns and email wait for it): 200 with ``"status": "degraded"``, so the web
    processes stay in rotation while the report still says what is missing. ``email`` says
    where mail goes (``relay``, ``catcher`` or ``not sent``: the check ``puerto.W001``) and
    changes no status: the site serves without it. ``version`` is the release running."""
    report = {
        "status": "ok",
        "version": settings.PUERTO_VERSION,
        "database": "ok" if _database_ok() else "down",
        "redis": _redis_status(),
        "email": email_delivery(),
    }
    failing = [part for part in ("database", "redis") if report[part] == "down"]
    if failing:
        report["status"] = "error" if "database" in failing else "degraded"
        report["failing"] = failing
    return JsonResponse(report, status=503 if report["status"] == "error" else 200)


def _in_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A path no view answers: the site's page, or a refusal under ``/api/`` (a client that
    reads JSON gets JSON, whatever the path)."""
    if _in_api(request):
        return JsonResponse(refusals.body(404, gettext("no such address in the API")), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """A view that failed: the site's page, or a refusal under ``/api/``."""
    if _in_api(request):
        message = gettext("the server failed; the error is logged")
        return JsonResponse(refusals.body(500, message, "server_error"), status=500)
    return defaults.server_error(request)
