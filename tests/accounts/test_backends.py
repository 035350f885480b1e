"""The signed-in user served from the shared cache, and dropped from it when they change."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse


def user_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        status = client.get(url).status_code
    return status, sum('"accounts_user"' in q["sql"] for q in queries.captured_queries)


@pytest.mark.redis
@pytest.mark.django_db
@pytest.mark.parametrize("cached", [True, False])
def test_a_signed_in_request_reads_its_user_from_the_cache(
    client, settings, django_user_model, cached
):
    settings.PUERTO_CACHE_USERS = cached
    user = django_user_model.objects.create_user("anna")
    client.force_login(user)
    url = reverse("api:games")
    assert user_queries(client, url) == (200, 1)  # the first look-up fills the cache
    assert user_queries(client, url) == (200, 0 if cached else 1)


@pytest.mark.redis
@pytest.mark.django_db
def test_a_deactivated_or_deleted_user_is_signed_out_at_once(client, settings, django_user_model):
    settings.PUERTO_CACHE_USERS = True
    url = reverse("api:games")
    anna, bob = (django_user_model.objects.create_user(name) for name in ("anna", "bob"))
    client.force_login(anna)
    assert client.get(url).status_code == 200
    anna.is_active = False
    anna.save(update_fields=["is_active"])
    assert client.get(url).status_code == 403

    client.force_login(bob)
    assert client.get(url).status_code == 200
    bob.delete()
    assert client.get(url).status_code == 403


def cache_reads(client_redis) -> dict[str, int]:
    stats = client_redis.info("commandstats")
    return {name: stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("get", "mget")}


@pytest.fixture
def redis_server(settings):
    import redis

    return redis.Redis.from_url(settings.CACHES["default"]["LOCATION"])


@pytest.mark.redis
@pytest.mark.django_db
def test_a_signed_in_request_reads_its_session_and_user_in_one_cache_round_trip(
    client, settings, django_user_model, redis_server
):
    settings.PUERTO_CACHE_USERS = True
    assert settings.SESSION_ENGINE == "accounts.sessions"
    client.force_login(django_user_model.objects.create_user("anna"))
    url = reverse("api:games")
    assert client.get(url).status_code == 200  # learns whose session it is; caches the user
    before = cache_reads(redis_server)
    response = client.get(url)
    after = cache_reads(redis_server)
    assert response.status_code == 200 and response.wsgi_request.user.username == "anna"
    assert {name: after[name] - before[name] for name in after} == {"get": 0, "mget": 1}


@pytest.mark.redis
@pytest.mark.django_db
def test_a_wrong_guess_of_whose_session_it_is_still_finds_the_right_user(
    client, settings, django_user_model
):
    from accounts import sessions

    settings.PUERTO_CACHE_USERS = True
    anna, bob = (django_user_model.objects.create_user(name) for name in ("anna", "bob"))
    client.force_login(bob)
    assert client.get(reverse("api:games")).wsgi_request.user == bob  # bob's row is cached
    client.force_login(anna)
    sessions._user_of_session[client.session.session_key] = str(bob.pk)

    response = client.get(reverse("api:games"))

    assert response.status_code == 200 and response.wsgi_request.user == anna
    assert sessions._user_of_session[client.session.session_key] == str(anna.pk)
