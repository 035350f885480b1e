import tomllib
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError, connection

pytestmark = pytest.mark.django_db


def test_healthz_reports_ok_without_login(client, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "smtp.example.org"

    response = client.get("/healthz")

    assert response.status_code == 200
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert response.json() == {
        "status": "ok",
        "version": pyproject["project"]["version"],
        "database": "ok",
        "redis": "ok" if settings.REDIS_URL else "not configured",
        "email": "relay",
    }


def test_healthz_is_503_naming_the_database_when_it_is_down(client):
    with mock.patch.object(connection, "cursor", side_effect=OperationalError("gone")):
        response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "down"
    assert body["failing"] == ["database"]
    assert body["status"] == "error"


def test_healthz_is_200_degraded_naming_redis_when_configured_but_unreachable(client, settings):
    """The site still serves without Redis: a load balancer keeps it in rotation."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["redis"] == "down"
    assert body["database"] == "ok"
    assert body["failing"] == ["redis"]


def test_healthz_is_503_when_the_database_is_down_whatever_redis_says(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    with mock.patch.object(connection, "cursor", side_effect=OperationalError("gone")):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["status"] == "error"
    assert response.json()["failing"] == ["database", "redis"]


def test_healthz_is_never_cached(client):
    response = client.get("/healthz")

    assert "no-cache" in response["Cache-Control"]
