"""The API's rate limit per token, per account and per address, as a client reads it."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from accounts import tokens

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def three_a_minute(settings):
    settings.API_RATE = "3/minute"
    cache.clear()


def token_client(user) -> APIClient:
    _, text = tokens.create(user, "bot", [])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {text}")
    return client


def test_each_answer_tells_the_limit_and_the_fourth_request_waits(django_user_model):
    anna = django_user_model.objects.create_user("anna")
    client = token_client(anna)
    left = []
    for _ in range(3):
        answer = client.get("/api/games/")
        assert answer.status_code == 200
        assert answer["X-RateLimit-Limit"] == "3"
        assert 0 < int(answer["X-RateLimit-Reset"]) <= 60
        left.append(answer["X-RateLimit-Remaining"])
    assert left == ["2", "1", "0"]

    refused = client.get("/api/games/")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert refused["X-RateLimit-Remaining"] == "0"
    assert "throttled" in refused.json()["error"]

    # Another token of the same account has its own count; so has a stranger's address.
    assert token_client(anna).get("/api/games/").status_code == 200
    assert APIClient().get("/api/games/watch/").status_code == 200


def test_a_session_counts_per_account(django_user_model):
    anna = django_user_model.objects.create_user("anna")
    first, second = APIClient(), APIClient()
    first.force_login(anna)
    second.force_login(anna)
    assert [first.get("/api/games/").status_code for _ in range(3)] == [200] * 3
    assert second.get("/api/games/").status_code == 429
