"""Production settings and probes: the database password, the warning about unsent email, the
log format, /healthz's email, gunicorn's core count, Message-IDs."""

import json
import os
import re
import runpy

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.utils import timezone

from games import notifications
from games.models import Notification
from tests.helpers import run_python
from tests.test_settings import production_env as settings_env


def production_env(tmp_path, **overrides):
    """``test_settings``' production environment, its database named by a URL that holds a
    password, and no ``DATABASE_PASSWORD`` unless a test gives one."""
    env = settings_env(tmp_path, DATABASE_URL="postgres://puerto:from-the-url@db:5432/puerto")
    env.pop("DATABASE_PASSWORD", None)
    return env | overrides


DUMP_PASSWORD = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.DATABASES['default']['PASSWORD'])"
)


@pytest.mark.parametrize(
    ("given", "expected"),
    [({}, "from-the-url"), ({"DATABASE_PASSWORD": "p@ss:w/rd#1"}, "p@ss:w/rd#1")],
    ids=["url-only", "password-apart"],
)
def test_a_database_password_given_apart_wins_over_the_urls(tmp_path, given, expected):
    """Compose passes POSTGRES_PASSWORD apart: pasted into the URL, @ : / # would break it."""
    result = run_python("-c", DUMP_PASSWORD, env=production_env(tmp_path, **given))

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


@pytest.mark.parametrize(
    ("debug", "email_url", "warned"),
    [
        ("false", "smtp://mail:1025", True),  # compose's mail catcher
        ("false", "smtp://localhost:25", True),
        ("false", "console://", True),
        ("false", "smtp://user:secret@smtp.example.org:587/?tls=True", False),
        ("true", "smtp://mail:1025", False),  # development may keep its mail
    ],
)
def test_check_warns_when_production_mail_reaches_nobody(tmp_path, debug, email_url, warned):
    env = production_env(tmp_path, DEBUG=debug, EMAIL_URL=email_url)

    result = run_python("manage.py", "check", env=env)

    assert result.returncode == 0, result.stderr
    assert ("puerto.W001" in result.stdout + result.stderr) is warned


LOG_A_LINE = (
    "import django, logging; django.setup(); "
    "logging.getLogger('games.tasks').warning('ai_turn_not_queued')"
)


def test_log_lines_carry_time_level_and_logger(tmp_path):
    result = run_python("-c", LOG_A_LINE, env=production_env(tmp_path))

    assert result.returncode == 0, result.stderr
    line = json.loads(result.stdout.strip().splitlines()[-1])  # production: JSON lines
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00", line["time"]), line
    assert (line["level"], line["logger"], line["message"]) == (
        "WARNING",
        "games.tasks",
        "ai_turn_not_queued",
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("backend", "host", "email"),
    [
        ("django.core.mail.backends.smtp.EmailBackend", "mail", "catcher"),
        ("django.core.mail.backends.smtp.EmailBackend", "127.0.0.1", "catcher"),
        ("django.core.mail.backends.smtp.EmailBackend", "smtp.example.org", "relay"),
        ("django.core.mail.backends.console.EmailBackend", "", "not sent"),
    ],
)
def test_healthz_says_where_email_goes_without_changing_the_status(
    client, settings, backend, host, email
):
    settings.EMAIL_BACKEND, settings.EMAIL_HOST = backend, host
    settings.REDIS_URL = ""

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "version": settings.PUERTO_VERSION,
        "database": "ok",
        "redis": "not configured",
        "email": email,
    }


# gunicorn's worker count ----------------------------------------------------------------------


@pytest.fixture
def cores(monkeypatch):
    """gunicorn.conf.py's ``cores``, on a host of 64 cores with no CPU set."""
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)))
    return runpy.run_path(str(settings.BASE_DIR / "gunicorn.conf.py"))["cores"]


@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [
        ("200000 100000\n", 2),  # cpus: 2
        ("150000 100000\n", 2),  # cpus: 1.5, rounded up
        ("50000 100000\n", 1),
        ("max 100000\n", 64),  # no limit: the CPU set
        ("12800000 100000\n", 64),  # never more than the CPU set
        (None, 64),  # cgroup v1, or no cgroup file at all
    ],
)
def test_gunicorn_counts_the_containers_cpu_limit_not_the_hosts_cores(
    cores, tmp_path, cpu_max, expected
):
    limit = tmp_path / "cpu.max"
    if cpu_max is not None:
        limit.write_text(cpu_max)

    assert cores(str(limit)) == expected


# Message-IDs ----------------------------------------------------------------------------------


@pytest.fixture
def site_domain(settings):
    settings.PUERTO_SITE_URL = "https://puerto.example.org"
    return "puerto.example.org"


@pytest.mark.django_db
def test_outbox_mail_has_a_message_id_in_the_sites_domain(django_user_model, site_domain):
    user = django_user_model.objects.create_user("anna", "anna@example.org")
    (pk,) = notifications.write_warning(user, "be kind", stamp=timezone.now())

    message = notifications.build_message(Notification.objects.get(pk=pk)).message()

    assert message["Message-ID"].endswith(f"@{site_domain}>")


@pytest.mark.django_db
def test_account_mail_has_a_message_id_in_the_sites_domain(
    client, django_user_model, mailoutbox, site_domain
):
    user = django_user_model.objects.create_user("anna", "anna@example.org", "a-password-42")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    client.post("/accounts/password/reset/", {"email": user.email})

    (message,) = mailoutbox
    assert message.message()["Message-ID"].endswith(f"@{site_domain}>")
