"""The site's own metrics for Prometheus, and ``/metrics`` that serves them with
django-prometheus's (requests by view and status, latency, database queries).

Counted where they happen: moves stored (``games.receivers``), the AI task's time (Celery's
task signals, ``puerto.celery``), open event streams (``events.views``). Read when scraped
(``SiteCollector``): the Celery queues' lengths in Redis and the unsent email in the outbox.

Several processes: gunicorn's workers, and the worker's pool, each count on their own. With
``PROMETHEUS_MULTIPROC_DIR`` set, prometheus-client keeps each process's values in a file
there and a scrape adds them up (``MultiProcessCollector``); gunicorn.conf.py and
puerto/celery.py empty the directory at start and mark exited processes dead. Without it
(development, tests, the single uvicorn process) the values are this process's own.
docs/operations.md lists every metric.
"""

import hmac
import ipaddress
import logging
import os

import redis
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)

CELERY_QUEUES = ("celery", "reviews")
"""The queues the workers take tasks from: the default one and the post-game reviews'."""

MOVES = Counter(
    "puerto_moves_stored",
    "Moves stored, by game (engine) and by who played them: person, ai or forced.",
    ["game", "by"],
)
AI_TURN_SECONDS = Histogram(
    "puerto_ai_turn_seconds",
    "Time of one play_ai_turn task (it plays AI moves for up to about 2 s, then hands on).",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 90),
)
OPEN_STREAMS = Gauge(
    "puerto_event_streams_open",
    "Server-Sent Event streams open now (under ASGI, the events process).",
    multiprocess_mode="livesum",
)


def multiprocess_mode() -> bool:
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def _queue_lengths() -> dict[str, int] | None:
    """Tasks waiting in each queue (Redis lists named after them), or None without Redis."""
    if not settings.REDIS_URL:
        return None
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        with client.pipeline(transaction=False) as pipe:
            for queue in CELERY_QUEUES:
                pipe.llen(queue)
            return dict(zip(CELERY_QUEUES, pipe.execute(), strict=True))
    except redis.RedisError as error:
        logger.warning("metrics: Redis unreachable, no queue lengths (%s)", type(error).__name__)
        return None
    finally:
        client.close()


def _outbox_backlog() -> int:
    """Email written but neither sent nor given up."""
    from games.models import Notification

    return Notification.objects.filter(sent_at__isnull=True, discarded_at__isnull=True).count()


class SiteCollector(Collector):
    """Figures read when scraped, so every process serving /metrics reports the same."""

    def collect(self):
        lengths = _queue_lengths()
        up = GaugeMetricFamily(
            "puerto_celery_broker_up", "1 if the queues' lengths could be read from Redis."
        )
        up.add_metric([], 0 if lengths is None else 1)
        yield up
        queues = GaugeMetricFamily(
            "puerto_celery_queue_length", "Tasks waiting in a Celery queue.", labels=["queue"]
        )
        for queue, length in (lengths or {}).items():
            queues.add_metric([queue], length)
        yield queues
        yield GaugeMetricFamily(
            "puerto_email_outbox_unsent",
            "Email notifications neither sent nor given up (the outbox's backlog).",
            value=_outbox_backlog(),
        )


def registry() -> CollectorRegistry:
    """What a scrape reads: every process's values (multiprocess mode) or this process's, and
    the figures read now."""
    if multiprocess_mode():
        collected = CollectorRegistry()
        multiprocess.MultiProcessCollector(collected)
    else:
        collected = CollectorRegistry()
        collected.register(_Registered())
    collected.register(SiteCollector())
    return collected


class _Registered(Collector):
    """This process's default registry, inside a registry of one scrape."""

    def collect(self):
        return REGISTRY.collect()


INSIDE = [
    ipaddress.ip_network(net)
    for net in (
        "127.0.0.0/8",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "::1/128",
        "fc00::/7",
    )
]
"""Loopback and the private networks (RFC 1918, IPv6 unique local) a scraper sits in: not
``is_private``, which also takes in the documentation ranges and more."""


def _inside(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    ip = getattr(ip, "ipv4_mapped", None) or ip
    return any(ip in net for net in INSIDE)


def allowed(request: HttpRequest) -> bool:
    """The bearer token when one is set, or a request from loopback or a private network that
    came through no proxy (the TLS proxy would make any visitor look private; it does not
    route /metrics either, deploy/Caddyfile)."""
    token = settings.METRICS_TOKEN
    sent = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    if "x-forwarded-for" in request.headers:
        return False
    return _inside(request.META.get("REMOTE_ADDR", ""))


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """The Prometheus text format; a 404, as for any unknown address, to anyone not allowed."""
    if not allowed(request):
        raise Http404
    return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)


def clear_multiprocess_dir() -> None:
    """Empty ``PROMETHEUS_MULTIPROC_DIR`` (made if missing) before the processes that write to
    it start: files of a previous run would be added to this run's figures."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        return
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.endswith(".db"):
            os.remove(os.path.join(directory, name))


def serve_worker_metrics(port: int) -> None:
    """The Celery worker's metrics on ``port`` (all addresses of its container: compose
    publishes it on the host's loopback only). Needs multiprocess mode: its pool processes
    count, not the process that serves."""
    if not multiprocess_mode():
        logger.error("WORKER_METRICS_PORT needs PROMETHEUS_MULTIPROC_DIR: no worker metrics")
        return
    clear_multiprocess_dir()
    collected = CollectorRegistry()
    multiprocess.MultiProcessCollector(collected)
    start_http_server(port, registry=collected)
    logger.info("worker metrics on port %d", port)
