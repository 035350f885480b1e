"""The players' JSON API: a profile as the page shows it to the requester (the same privacy),
the ladders and their leaderboards, following by POST and DELETE with a session and with HTTP
Basic, refusals in the API's one shape, hostile input, and the OpenAPI schema naming every
field the answers hold."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from games.registry import ladders
from players import api, profiles
from players.models import Follow, Rating, RatingChange
from tests.games.test_bad_input import NOT_NUMBERS, assert_refused, basic, deep, session
from tests.players.conftest import finished, rate, running

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()


def client_for(user=None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def profile(username: str, viewer=None) -> dict:
    response = client_for(viewer).get(reverse("api:player", args=[username]))
    assert response.status_code == 200, response.content[:300]
    return response.json()


def fields(serializer) -> set[str]:
    return set(serializer().fields)


# The profile ---------------------------------------------------------------------------------


def test_a_profile_holds_the_ratings_with_their_history_the_record_and_the_games(race, people):
    ann, ben, cy, _ = people
    games = [finished(ann, ben, cy, rated=True, seed=seed) for seed in range(2)]
    current = running(ann, ben, cy)
    data = profile("ann")
    assert set(data) == fields(api.PlayerSerializer)
    assert data["username"] == "ann" and data["games_shown"] is True
    assert data["following"] is None  # not signed in
    (rating,) = data["ratings"]
    assert set(rating) == fields(api.LadderRatingSerializer)
    stored = Rating.objects.get(user=ann, ladder="race")
    assert (rating["ladder"], rating["value"], rating["games"]) == ("race", stored.value, 2)
    assert rating["provisional"] is True and rating["rank"] >= 1
    values = [point["value"] for point in rating["history"]]
    assert len(values) == 3 and values[-1] == stored.value
    assert rating["history"][0]["at"] is None
    assert data["record"]["played"] == 2
    wins = sum(g.results.get(user=ann).placement == 1 for g in games)
    assert data["record"]["won"] == wins
    assert sum(p["games"] for p in data["record"]["placements"]) == 2
    assert [g["id"] for g in data["recent_games"]] == [g.pk for g in reversed(games)]
    recent = data["recent_games"][0]
    assert set(recent) == fields(api.PlayerGameSerializer)
    assert recent["replay_url"] == reverse("games:replay", args=[games[-1].pk])
    assert recent["placement"] == games[-1].results.get(user=ann).placement
    assert {s["username"] for s in recent["seats"]} == {"ann", "ben", "cy"}
    assert [g["id"] for g in data["current_games"]] == [current.pk]
    assert data["current_games"][0]["placement"] is None


def test_the_profile_keeps_the_pages_privacy(race, people, moderator):
    ann, ben, cy, dee = people
    watchable = finished(ann, ben, cy)
    private = finished(ann, ben, cy, spectators=False, seed=2)
    assert [g["id"] for g in profile("ann", dee)["recent_games"]] == [watchable.pk]
    assert [g["id"] for g in profile("ann")["recent_games"]] == [watchable.pk]
    for viewer in (ann, moderator):
        assert {g["id"] for g in profile("ann", viewer)["recent_games"]} == {
            watchable.pk,
            private.pk,
        }
    ann.games_public = False
    ann.save()
    hidden = profile("ann", dee)
    assert hidden["games_shown"] is False
    assert hidden["record"] is None and hidden["recent_games"] is None
    assert hidden["current_games"] is None
    assert profile("ann", ann)["record"]["played"] == 2


def test_an_inactive_or_unknown_player_is_a_404_in_the_one_shape(people):
    ann = people[0]
    ann.is_active = False
    ann.save()
    for name in ("ann", "nobody", "a\x00b", "x" * 300, "\u00e9\u0301"):
        response = client_for().get(reverse("api:player", args=[name]))
        assert_refused(response, (404,))


# Following ----------------------------------------------------------------------------------


@pytest.mark.parametrize("auth", [session, basic])
def test_follow_and_unfollow_with_a_session_and_with_basic(people, auth):
    ann, ben, _, _ = people
    client = auth(ben)
    url = reverse("api:follow", args=["ann"])
    for _ in range(2):  # twice changes nothing
        response = client.post(url)
        assert response.status_code == 200 and response.json() == {"following": True}
        assert Follow.objects.filter(follower=ben, followed=ann).count() == 1
    assert profile("ann", ben)["following"] is True
    for _ in range(2):
        response = client.delete(url)
        assert response.status_code == 200 and response.json() == {"following": False}
        assert not Follow.objects.exists()


def test_following_is_refused_in_the_one_shape(people):
    ann, ben, _, _ = people
    url = reverse("api:follow", args=["ann"])
    no_csrf = APIClient(enforce_csrf_checks=True, raise_request_exception=False)
    no_csrf.force_login(ben)
    cases = [
        (APIClient().post(url), 401),  # not signed in
        (no_csrf.post(url), 403),  # no CSRF token
        (session(ben).put(url), 405),
        (session(ben).get(url), 405),
        (session(ann).post(url), 400),  # themselves
        (session(ben).post(reverse("api:follow", args=["nobody"])), 404),
    ]
    for response, status in cases:
        assert_refused(response, (status,))
    assert "yourself" in session(ann).post(url).json()["error"]
    assert not Follow.objects.exists()


BODIES = [
    deep("follow"),
    '{"follow": "a\\u0000b"}',
    '{"x": "\\ud800"}',
    "[1]",
    '"yes"',
    "1",
    "{nope",
]


@pytest.mark.parametrize("auth", [session, basic])
@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
@pytest.mark.parametrize("method", ["post", "delete"])
def test_a_follow_with_a_body_is_refused_and_changes_nothing(people, auth, body, method):
    """Nothing is sent to follow: the address says whom. A body that says anything, or does
    not parse, is a 400 whatever its nesting, NUL or lone surrogate."""
    ann, ben, _, _ = people
    if method == "delete":
        Follow.objects.create(follower=ben, followed=ann)
    before = list(Follow.objects.values_list("follower", "followed"))
    url = reverse("api:follow", args=["ann"])
    response = getattr(auth(ben), method)(url, body, content_type="application/json")
    assert_refused(response)
    assert list(Follow.objects.values_list("follower", "followed")) == before


def test_a_follow_with_an_empty_object_is_a_follow(people):
    response = session(people[1]).post(
        reverse("api:follow", args=["ann"]), "{}", content_type="application/json"
    )
    assert response.status_code == 200 and Follow.objects.count() == 1


# Ladders and leaderboards ------------------------------------------------------------------


def test_the_ladders_are_every_ladder_of_the_shelf():
    data = client_for().get(reverse("api:ladders")).json()
    assert [x["key"] for x in data["ladders"]] == [x.key for x in ladders()]
    first = data["ladders"][0]
    assert set(first) == fields(api.LadderSerializer)
    assert first["url"] == reverse("api:leaderboard", args=[first["key"]])


def test_a_leaderboard_has_persons_by_rating_a_page_at_a_time_and_the_ai_apart(
    django_user_model,
):
    users = django_user_model.objects.bulk_create(
        django_user_model(username=f"p{i:03}") for i in range(52)
    )
    for i, user in enumerate(users):
        rate("amerigo", user, 2000 - i, games=1 if i == 0 else 5, days_ago=200 if i == 51 else 1)
    rate("amerigo", value=2500, level="hard")
    url = reverse("api:leaderboard", args=["amerigo"])
    first = client_for().get(url).json()
    assert set(first) == fields(api.LeaderboardSerializer)
    assert (first["active"], first["page"], first["pages"], first["count"]) == ("90", 1, 2, 51)
    assert [r["username"] for r in first["results"]] == [f"p{i:03}" for i in range(50)]
    assert first["results"][0]["provisional"] and not first["results"][1]["provisional"]
    assert first["previous"] is None and first["next"] == f"http://testserver{url}?active=90&page=2"
    assert [(a["level"], a["value"]) for a in first["ai_levels"]] == [("hard", 2500)]
    second = client_for().get(first["next"]).json()
    assert [(r["rank"], r["username"]) for r in second["results"]] == [(51, "p050")]
    everyone = client_for().get(url, {"active": "all", "page": "2"}).json()
    assert [r["username"] for r in everyone["results"]] == ["p050", "p051"]


def test_an_unknown_ladder_or_a_page_past_the_end_is_a_404():
    assert_refused(client_for().get(reverse("api:leaderboard", args=["chess"])), (404,))
    url = reverse("api:leaderboard", args=["amerigo"])
    assert_refused(client_for().get(url, {"page": "2"}), (404,))


@pytest.mark.parametrize(
    "params",
    [{"active": bad} for bad in ["7", "\x00", "\uff19\uff10", "ALL"]]
    + [{"page": bad} for bad in [*NOT_NUMBERS, "0", "-1", "\x00", "1\x00"]],
)
@pytest.mark.parametrize("auth", [None, session, basic])
def test_bad_leaderboard_parameters_are_a_400_that_says_which(people, params, auth):
    client = auth(people[0]) if auth else client_for()
    response = client.get(reverse("api:leaderboard", args=["amerigo"]), params)
    assert_refused(response)
    assert f"'{next(iter(params))}'" in response.json()["error"]


def test_an_empty_parameter_is_the_default_and_a_unicode_digit_the_number_it_is():
    """As Django's forms read numbers everywhere on the site."""
    url = reverse("api:leaderboard", args=["amerigo"])
    data = client_for().get(url, {"active": "", "page": ""}).json()
    assert (data["active"], data["page"]) == ("90", 1)
    assert client_for().get(url, {"page": "\u0661"}).json()["page"] == 1


def test_a_lone_surrogate_or_repeated_parameter_is_handled():
    url = reverse("api:leaderboard", args=["amerigo"])
    assert_refused(client_for().get(url + "?active=%ED%A0%80"))
    repeated = client_for().get(url + "?active=7&active=all")
    assert_refused(repeated)
    assert list(repeated.json()["fields"]) == ["active"]


def test_bad_parameters_are_refused_in_the_readers_language(people):
    ann = people[0]
    ann.language = "de"
    ann.save()
    response = client_for(ann).get(reverse("api:leaderboard", args=["amerigo"]), {"page": "x"})
    assert_refused(response)
    assert "Seitenzahl" in response.json()["error"]


# The schema --------------------------------------------------------------------------------


def schema() -> dict:
    return client_for().get(reverse("api:schema"), {"format": "json"}).json()


def resolve(document: dict, node: dict) -> dict:
    while "$ref" in node:
        node = document["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def test_the_schema_names_every_field_of_the_players_answers():
    document = schema()
    paths = document["paths"]
    expected = {
        ("/api/players/{username}/", "get", "200"): api.PlayerSerializer,
        ("/api/players/{username}/follow/", "post", "200"): api.FollowSerializer,
        ("/api/players/{username}/follow/", "delete", "200"): api.FollowSerializer,
        ("/api/ratings/", "get", "200"): api.LaddersSerializer,
        ("/api/ratings/{ladder}/", "get", "200"): api.LeaderboardSerializer,
    }
    for (path, method, status), serializer in expected.items():
        body = paths[path][method]["responses"][status]["content"]["application/json"]["schema"]
        shown = resolve(document, body)
        assert set(shown["properties"]) == fields(serializer), path
    player = resolve(document, {"$ref": "#/components/schemas/Player"})
    history = resolve(document, player["properties"]["ratings"]["items"])
    point = resolve(document, history["properties"]["history"]["items"])
    assert set(point["properties"]) == {"game", "at", "value"}
    board = resolve(document, {"$ref": "#/components/schemas/Leaderboard"})
    entry = resolve(document, board["properties"]["results"]["items"])
    assert set(entry["properties"]) == fields(api.EntrySerializer)
    assert {p["name"] for p in paths["/api/ratings/{ladder}/"]["get"]["parameters"]} >= {
        "active",
        "page",
    }
    assert "400" in paths["/api/ratings/{ladder}/"]["get"]["responses"]


def test_no_answer_of_the_players_api_is_a_bare_object():
    """Every object anywhere in the players' answers lists its properties, or says it is a map
    (a refusal's ``params``: what its reason names)."""
    document = schema()

    def walk(node: dict, seen: set) -> None:
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            if name in seen:
                return
            seen = seen | {name}
            node = resolve(document, node)
        if node.get("type") == "object":
            assert node.get("properties") or "additionalProperties" in node, node
        for child in (node.get("items"), *node.get("properties", {}).values()):
            if isinstance(child, dict):
                walk(child, seen)
        for choice in node.get("allOf", []) + node.get("oneOf", []):
            walk(choice, seen)

    for path, operations in document["paths"].items():
        if not path.startswith(("/api/players/", "/api/ratings/")):
            continue
        for operation in operations.values():
            for response in operation["responses"].values():
                content = response.get("content", {}).get("application/json")
                if content:
                    walk(content["schema"], set())


def test_a_long_rating_history_is_the_latest_games_numbered_from_the_first(
    race, people, monkeypatch
):
    ann, ben, cy, _ = people
    monkeypatch.setattr(profiles, "HISTORY", 3)
    for seed in range(5):
        finished(ann, ben, cy, rated=True, seed=seed)
    (rating,) = profile("ann")["ratings"]
    changes = list(RatingChange.objects.filter(rating__user=ann).order_by("pk"))
    assert [p["game"] for p in rating["history"]] == [3, 4, 5]
    assert [p["value"] for p in rating["history"]] == [c.value_after for c in changes[2:]]
    assert rating["history"][-1]["value"] == Rating.objects.get(user=ann).value


def test_a_leaderboard_lists_the_bot_accounts_apart_from_the_persons(django_user_model):
    person = django_user_model.objects.create_user("pia")
    robots = [django_user_model.objects.create_user(n, is_bot=True) for n in ("r1", "r2", "r3")]
    rate("amerigo", person, 1500)
    for robot, value in zip(robots, (1700, 1600, 1700), strict=True):
        rate("amerigo", robot, value)
    board = client_for().get(reverse("api:leaderboard", args=["amerigo"])).json()
    assert [r["username"] for r in board["results"]] == ["pia"]
    assert board["results"][0]["rank"] == 1  # ranked among persons
    ranked = {r["username"]: r["rank"] for r in board["bots"]}
    assert ranked == {"r1": 1, "r3": 1, "r2": 3}
    assert [r["username"] for r in board["bots"]][-1] == "r2"
