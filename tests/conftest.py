"""Shared test setup: tasks run in-process, and tests that need a service say so with a marker.

Without a service a marked test is skipped on a developer's machine. With ``CI=true`` nothing
is skipped: a missing service stops the whole run at the start, saying what is missing.

``make test`` runs the suite in two pytest-xdist workers. Each has a test database of its own
(pytest-django adds the worker's name to it) and a Redis database of its own; the tests that
start Celery workers or redis-servers are marked ``REAL_PROCESSES`` (``tests/helpers.py``) and
run one after the other in one worker.
"""

import functools
import importlib.util
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.conf import settings
from django.core.servers.basehttp import WSGIRequestHandler
from django.test import override_settings
from django.utils import timezone, translation

from puerto.celery import app as celery_app

CHROMIUM = Path("/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() == "true"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Give each pytest-xdist worker the Redis database after REDIS_URL's by its number (gw1:
    one after, ...), set in its environment before it loads the settings: the cache (and with it
    the rate limits) that one worker's tests fill or clear is never another's."""
    if not settings.REDIS_URL:
        return
    url = urlsplit(settings.REDIS_URL)
    number = int(url.path.strip("/") or 0) + int(node.workerinput["workerid"].removeprefix("gw"))
    own = urlunsplit(url._replace(path=f"/{number}"))
    node.gateway.remote_exec(f"import os; os.environ['REDIS_URL'] = {own!r}").waitclose()


@functools.cache
def missing_services() -> dict[str, str]:
    """Map each unavailable marker to the reason, checked once per run."""
    missing = {}
    if not settings.DATABASES["default"]["ENGINE"].endswith(".postgresql"):
        missing["postgres"] = "DATABASE_URL does not point at PostgreSQL"
    if not settings.REDIS_URL:
        missing["redis"] = "REDIS_URL is not set"
    else:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        try:
            client.ping()
        except redis.RedisError as error:
            missing["redis"] = f"Redis at REDIS_URL is unreachable ({error})"
        finally:
            client.close()
    if shutil.which("redis-server") is None:
        missing["reliability"] = "redis-server is missing (apt-get install redis-server)"
    if not CHROMIUM.exists():
        missing["browser"] = f"{CHROMIUM} is missing (apt-get install chromium chromium-driver)"
    elif importlib.util.find_spec("playwright") is None:
        missing["browser"] = "the playwright package is not installed"
    return missing


def pytest_sessionstart(session):
    if IN_CI and missing_services():
        reasons = "; ".join(f"{name}: {why}" for name, why in missing_services().items())
        pytest.exit(f"CI=true but services are missing: {reasons}", returncode=1)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    for marker in item.iter_markers():
        reason = missing_services().get(marker.name)
        if reason:
            (pytest.fail if IN_CI else pytest.skip)(f"{marker.name}: {reason}")


SITE_PASSWORD_HASHERS = settings.PASSWORD_HASHERS
"""As the site hashes passwords (``puerto/settings.py``): Argon2."""


@pytest.fixture(autouse=True, scope="session")
def quick_password_hashing():
    """MD5 for the passwords tests make and check: Argon2 as the site has it costs a quarter of
    a second a hash, and most tests make users with a password. Tests of the hashing itself
    take ``site_password_hashing``."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def quick_hard_ai():
    """A few playouts a decision for hard AI seats, hints and reviews: at the site's budget each
    costs about 2 s of CPU, and the tests of the site check what a seat does, not how well it
    plays. The tests of the budget itself (``tests/bots``) call the bots directly."""
    with override_settings(AI_SIMULATIONS=8, ANALYSIS_SIMULATIONS=8):
        yield


@pytest.fixture
def site_password_hashing(settings):
    """The site's own password hashers for this test."""
    settings.PASSWORD_HASHERS = SITE_PASSWORD_HASHERS


@pytest.fixture(autouse=True, scope="session")
def live_server_without_nagle():
    """The live server (``live_server``, under the browser and Schemathesis) sends each answer
    at once. With Nagle's algorithm on, as ``socketserver`` leaves it, an answer's last small
    write waits for the client's delayed ACK, 40 ms a request on a kept-alive connection: the
    Schemathesis run took four minutes instead of one."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WSGIRequestHandler, "disable_nagle_algorithm", True)
        yield


@pytest.fixture(autouse=True, scope="session")
def eager_celery():
    """Run tasks in-process; the real-worker tests start their own worker processes."""
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's default language and time zone: a request of a player in
    German or in Berlin (the test client runs it in this thread) must not leave either active
    for the next test."""
    translation.activate(settings.LANGUAGE_CODE)
    timezone.deactivate()
    yield
    translation.activate(settings.LANGUAGE_CODE)
    timezone.deactivate()


@pytest.fixture(autouse=True)
def no_reviews(settings):
    """A finished game queues its reviews in the tests of reviews only (they turn them on): a
    review judges every decision of the game, far longer than the tests that finish games."""
    settings.PUERTO_REVIEWS = False


@pytest.fixture(autouse=True)
def no_request_rate(settings):
    """The API's rate limit counts in the cache, which outlives a test, per account id, which
    the next test reuses: on only in the tests of the limit (tests/games/test_api_rate.py)."""
    settings.API_RATE = None
