"""Sessions live in the database: a signed-in player keeps playing while Redis is down."""

import pytest
from django.test import override_settings
from django.urls import reverse

from games import services

UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers there
    }
}


@pytest.mark.django_db
def test_a_signed_in_request_works_while_redis_is_down(client, django_user_model):
    anna = django_user_model.objects.create_user("anna")
    game = services.create_game(
        anna, engine="puerto_rico", num_players=3, ai_seats=2, ai_level="easy"
    )
    client.force_login(anna)

    with override_settings(CACHES=UNREACHABLE_REDIS):
        page = client.get(reverse("games:game", args=[game.pk]))
        listed = client.get(reverse("api:games"))

    assert page.status_code == 200 and page.wsgi_request.user == anna
    assert listed.status_code == 200 and [g["id"] for g in listed.json()["games"]] == [game.pk]
