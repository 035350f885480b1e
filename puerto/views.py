"""Site-wide views that belong to no app: the home page and the health check."""

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.text import get_text_list
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import notifications
from games.registry import shelf


def home(request: HttpRequest) -> HttpResponse:
    """Visitors learn what the site is; a player finds the games waiting for their move."""
    context = {"games": get_text_list([str(game.title) for game in shelf()], gettext("and"))}
    if request.user.is_authenticated:
        waiting = notifications.waiting_for(request.user)
        prefetch_related_objects(waiting, "seats__user")
        context["waiting"] = [{"game": g, "others": g.other_names(request.user)} for g in waiting]
    return render(request, "home.html", context)


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
    processes stay in rotation while the report still says what is missing."""
    report = {
        "status": "ok",
        "database": "ok" if _database_ok() else "down",
        "redis": _redis_status(),
    }
    failing = [part for part in ("database", "redis") if report[part] == "down"]
    if failing:
        report["status"] = "error" if "database" in failing else "degraded"
        report["failing"] = failing
    return JsonResponse(report, status=503 if report["status"] == "error" else 200)
