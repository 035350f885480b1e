"""Repeated failed logins are throttled in the default cache (locmem here, Redis in production)."""

import time
import types
from unittest import mock

import pytest

from tests.accounts.conftest import PASSWORD, log_in

pytestmark = pytest.mark.django_db
LIMIT_MESSAGE = "Too many failed login attempts. Try again later."


def later(seconds: float):
    """allauth's rate limiter seeing the clock ``seconds`` ahead."""
    clock = types.SimpleNamespace(
        time=lambda: time.time() + seconds, monotonic=time.monotonic, sleep=time.sleep
    )
    return mock.patch("allauth.core.internal.ratelimit.time", clock)


def test_after_five_failures_even_the_right_password_waits(client, member):
    for _ in range(5):
        response = log_in(client, "anna", "wrong-password")
        assert response.status_code == 200
        assert LIMIT_MESSAGE not in response.content.decode()

    throttled = log_in(client, "anna", "wrong-password")
    assert LIMIT_MESSAGE in throttled.content.decode()
    refused = log_in(client, "anna", PASSWORD)
    assert refused.status_code == 200
    assert LIMIT_MESSAGE in refused.content.decode()
    assert "_auth_user_id" not in client.session

    with later(5 * 60 + 1):
        response = log_in(client, "anna", PASSWORD)
    assert response["Location"] == "/games/mine/"


def test_the_limit_counts_per_account_whichever_way_it_is_named(client, member):
    for _ in range(5):
        log_in(client, "ANNA", "wrong-password")
    assert LIMIT_MESSAGE in log_in(client, "anna", PASSWORD).content.decode()


def test_one_address_trying_many_accounts_is_throttled_too(client, member):
    for number in range(10):
        log_in(client, f"nobody{number}", "wrong-password")
    response = log_in(client, "anna", PASSWORD)
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
