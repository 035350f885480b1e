"""Generated requests at both move endpoints, on PostgreSQL: legal moves from the engine, the
same mutated, wrong types, deep nesting, NUL characters, lone surrogates, huge strings, extra
fields, stale versions, reused keys, players not to act and strangers. Every answer is a legal
move or a 4xx with a reason, never a 5xx, and the stored moves replay to the stored state.
Puerto Rico at both endpoints, Amerigo through the API."""

import json
import random
import re
import threading
from contextlib import contextmanager
from urllib.parse import urlencode

import pytest
from django.contrib.messages import get_messages
from django.db import connection, transaction
from django.db.models import Count
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import services
from games.engines.amerigo.actions import FIELDS as AMERIGO_FIELDS
from games.engines.amerigo.data import COLOURS, SHAPES, VILLAGES
from games.models import Game, Move
from games.registry import get_engine
from tests.replayed import replayed

pr = get_engine("puerto_rico")
am = get_engine("amerigo")
MOVES = 60
"""Moves played before the examples: a few rounds, every phase."""
HTMX = {"HTTP_HX_REQUEST": "true"}
FUZZ = settings(
    max_examples=1200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

NAMES = [
    *pr.GOODS,
    "quarry",
    *pr.BUILDINGS,
    "settler",
    "mayor",
    "builder",
    "craftsman",
    "trader",
    "captain",
    "prospector",
    *COLOURS,
    *SHAPES,
    *VILLAGES,
    "chest",
]
TYPES = [
    "choose_role",
    "pass",
    "hacienda",
    "settle",
    "arrange",
    "build",
    "extra_good",
    "sell",
    "load",
    "wharf",
    "store",
]
FIELDS = [
    "type",
    "role",
    "tile",
    "hospice",
    "island",
    "city",
    "privilege",
    "building",
    "university",
    "good",
    "ship",
    "windrose",
    "warehouse",
]
AMERIGO_TYPES = sorted(AMERIGO_FIELDS)
AMERIGO_NAMES = sorted({name for fields in AMERIGO_FIELDS.values() for name in fields})
WORDS = {"puerto_rico": (TYPES, FIELDS), "amerigo": (AMERIGO_TYPES, ["type", *AMERIGO_NAMES])}
"""Per engine: its action types and field names."""
BAD_TEXT = ["\x00", "a\x00b", "\ud800", "x\udfffy", "x" * 5_000]
TEXT = st.text(max_size=12) | st.sampled_from(NAMES + FIELDS + AMERIGO_NAMES + BAD_TEXT)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
JSON = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture
def users(django_user_model):
    """Without passwords: hashing one costs a good part of a second."""
    return [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris", "eve")]


def new_game(users, engine="puerto_rico"):
    """A 3-player game with a fixed seed, so a failing run can be run again."""
    game = services.create_game(users[0], num_players=3, engine=engine)
    Game.objects.filter(pk=game.pk).update(seed=7)
    for user in users[1:3]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def played(users, moves=MOVES, engine="puerto_rico"):
    """A game ``moves`` random legal moves long, each with its player's key ``k<version>``, and
    the game's row after each: every example starts from one of them, so it does not depend
    on the examples before it and hypothesis can run it again."""
    rules = get_engine(engine)
    game = new_game(users, engine)
    chooser = random.Random(7)
    rows = [game_row(game)]
    for _ in range(moves):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            break
        user = next(u for u in users if u.pk == game.seat_to_act().user_id)
        legal = rules.legal_actions(rules.from_json(game.state))
        action = rules.action_to_json(legal[chooser.randrange(len(legal))])
        key = f"k{game.version}"
        services.submit_move(
            game.pk, action, user=user, expected_version=game.version, idempotency_key=key
        )
        rows.append(game_row(game))
    return game, rows


def game_row(game) -> dict:
    return Game.objects.filter(pk=game.pk).values(*services.MOVE_FIELDS).get()


@contextmanager
def back_at(game, row):
    """The game as it was at ``row``, for one example: rolled back afterwards."""
    with transaction.atomic():
        Move.objects.filter(game=game, version__gt=row["version"]).delete()
        Game.objects.filter(pk=game.pk).update(**row)
        yield Game.objects.get(pk=game.pk)
        transaction.set_rollback(True)


def action_for(data, game) -> object:
    """A legal action, a mutated one, or any JSON at all."""
    rules = get_engine(game.engine)
    types, fields = WORDS[game.engine]
    state = rules.from_json(game.state)
    legal = rules.legal_actions(state)
    kind = data.draw(st.sampled_from(["legal", "legal", "legal", "mutated", "typed", "any"]))
    if kind == "any":
        return data.draw(JSON)
    if kind == "typed":
        some = data.draw(st.dictionaries(st.sampled_from(fields), JSON, max_size=4))
        return {**some, "type": data.draw(st.sampled_from(types) | JSON)}
    action = rules.action_to_json(legal[data.draw(st.integers(0, len(legal) - 1))])
    if kind == "mutated":
        change = data.draw(st.sampled_from(["set", "extra", "drop"]))
        if change == "drop" and len(action) > 1:
            action.pop(data.draw(st.sampled_from(sorted(action))))
        else:
            names = sorted(action) if change == "set" else [*fields, "junk", "\x00", "\ud800"]
            action[data.draw(st.sampled_from(names))] = data.draw(JSON)
    return action


def who(data, game, users):
    """Mostly the player to act; sometimes another seated player or a stranger."""
    to_act = next(u for u in users if u.pk == game.seat_to_act().user_id)
    others = [u for u in users if u != to_act]
    return data.draw(st.sampled_from([to_act] * 6 + others))


def version_for(data, game):
    """Mostly the version the player sees, so that legal moves go through."""
    choice = data.draw(st.integers(0, 9))
    if choice < 7:
        return game.version
    if choice == 7:
        return game.version - 1
    return data.draw(st.integers(-(2**70), 2**70) | LEAVES)


KEYS = st.sampled_from(["", *(f"k{n}" for n in range(12))]) | TEXT


def check_stored(game, before, moved: bool):
    """Only a legal move changes the game, and the moves replay to the state."""
    after = snapshot(game)
    if not moved:
        assert after == before
        return
    assert after[0] > before[0] and after[0] == after[2]
    stored = Game.objects.get(pk=game.pk)
    assert get_engine(game.engine).to_json(replayed(stored)) == stored.state


def snapshot(game):
    """The game's version, state and number of moves, in one query."""
    rows = Game.objects.filter(pk=game.pk).annotate(moves_stored=Count("moves"))
    return rows.values_list("version", "state", "moves_stored").get()


def api_clients(users) -> dict:
    clients = {user.pk: APIClient(raise_request_exception=False) for user in users}
    for user in users:
        clients[user.pk].force_login(user)
    return clients


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(("engine", "examples"), [("puerto_rico", 1200), ("amerigo", 400)])
def test_generated_api_requests_get_a_legal_move_or_a_4xx(users, engine, examples):
    clients = api_clients(users)
    game, rows = played(users, engine=engine)
    statuses = {}

    @settings(FUZZ, max_examples=examples)
    @given(st.data())
    def request(data):
        with back_at(game, data.draw(st.sampled_from(rows))) as at:
            check_request(data, at)

    def check_request(data, game):
        user = who(data, game, users)
        url = reverse("api:moves", args=[game.pk])
        shape = data.draw(st.sampled_from(["move"] * 8 + ["deep", "junk"]))
        if shape == "deep":
            depth = data.draw(st.integers(1, 3_000))
            body = f'{{"action": {"[" * depth}{"]" * depth}, "version": {game.version}}}'
        elif shape == "junk":
            body = json.dumps(data.draw(JSON))
        else:
            fields = {"action": action_for(data, game), "version": version_for(data, game)}
            key = data.draw(KEYS)
            if key:
                fields["key"] = key
            if data.draw(st.booleans()):
                fields[data.draw(TEXT)] = data.draw(JSON)
            body = json.dumps(fields)
        before = snapshot(game)
        response = clients[user.pk].post(url, body, content_type="application/json")
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        assert response.status_code in (200, 201, 400, 403, 409, 413), response.content[:300]
        if response.status_code >= 400:
            answer = response.json()
            assert isinstance(answer["error"], str) and "detail" not in answer
        check_stored(game, before, moved=response.status_code == 201)

    request()
    assert statuses.get(201, 0) > 20 and statuses.get(400, 0) > 20  # both kinds were tried


AMERIGO_BAD_TEXT = [
    ('{"type": "gold", "note": "a\\u0000b"}', "nul-in-an-ignored-field"),
    ('{"type": "gold", "a\\u0000b": 1}', "nul-in-a-key"),
    ('{"type": "gold\\u0000"}', "nul-type"),
    ('{"type": "choose", "colour": "blue\\u0000"}', "nul-colour"),
    ('{"type": "\\ud800"}', "surrogate-type"),
    ('{"type": "gold", "note": ["\\udfff"]}', "surrogate-in-a-list"),
]
"""Amerigo actions as JSON text written by hand (what no JSON library writes), most of them a
legal move but for the bad text."""


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(
    "action", [b[0] for b in AMERIGO_BAD_TEXT], ids=[b[1] for b in AMERIGO_BAD_TEXT]
)
def test_an_amerigo_action_with_a_nul_or_a_lone_surrogate_is_a_400_and_stores_nothing(
    users, action
):
    game = new_game(users, "amerigo")
    user = next(u for u in users if u.pk == game.seat_to_act().user_id)
    before = snapshot(game)
    response = api_clients(users)[user.pk].post(
        reverse("api:moves", args=[game.pk]),
        f'{{"action": {action}, "version": {game.version}}}',
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_text"
    assert response.json()["error"] == (
        "an action's text may not hold NUL characters or lone surrogates"
    )
    check_stored(game, before, moved=False)


def utf8(text: str) -> str:
    """What a form post can carry: UTF-8, so no lone surrogate (JSON escapes can)."""
    return text.encode("utf-8", "replace").decode()


ALERT = re.compile(r'role="alert">([^<]+)</p>')


@pytest.mark.postgres
@pytest.mark.django_db
def test_generated_form_posts_get_a_legal_move_or_a_4xx(users):
    clients = {user.pk: Client(raise_request_exception=False) for user in users}
    for user in users:
        clients[user.pk].force_login(user)
    game, rows = played(users)
    statuses = {}

    @settings(FUZZ, max_examples=800)
    @given(st.data())
    def post(data):
        with back_at(game, data.draw(st.sampled_from(rows))) as at:
            check_post(data, at)

    def check_post(data, game):
        user = who(data, game, users)
        version = version_for(data, game)
        fields = {"version": "" if version is None else str(version)}
        if data.draw(st.integers(0, 4)) == 0:  # the mayor's form, filled in freely
            fields["kind"] = "arrange"
            names = [f"island-{k}" for k in pr.ISLAND_KINDS] + [f"city-{b}" for b in pr.BUILDINGS]
            for name in data.draw(st.lists(st.sampled_from(names) | TEXT, max_size=4)):
                fields[utf8(name)] = data.draw(st.sampled_from(["0", "1", "2", "99", "-1", "x"]))
        else:
            action = action_for(data, game)
            fields["action"] = json.dumps(action) if data.draw(st.integers(0, 9)) else str(action)
        key = utf8(data.draw(KEYS))
        if key:
            fields["key"] = key
        # The player's own key again with the same action answers like the move it made then.
        mine = Move.objects.filter(game=game, actor=user, idempotency_key=key[:64])
        replay = key.isprintable() and mine.exists()
        body = urlencode({utf8(name): utf8(value) for name, value in fields.items()})
        htmx = data.draw(st.integers(0, 3)) == 0  # without JavaScript, the browser posts itself
        before = snapshot(game)
        clients[user.pk].cookies.pop("messages", None)  # only this post's reason
        response = clients[user.pk].post(
            reverse("games:move", args=[game.pk]),
            body,
            content_type="application/x-www-form-urlencoded",
            **(HTMX if htmx else {}),
        )
        statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
        moved = Game.objects.get(pk=game.pk).version != before[0]
        if htmx:
            assert response.status_code in (200, 400, 403, 409, 413)
            assert moved <= (response.status_code == 200) <= (moved or replay)
            if response.status_code in (400, 403, 409):
                assert ALERT.search(response.content.decode()), response.content[:300]
        elif response.status_code != 413:  # redirected back, with the reason if refused
            assert response.status_code == 303
            refused = bool(list(get_messages(response.wsgi_request)))
            assert moved <= (not refused) <= (moved or replay)
        check_stored(game, before, moved=moved)

    post()
    assert statuses.get(303, 0) > 20 and statuses.get(400, 0) > 20  # both ways were tried


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_simultaneous_moves_through_the_api_and_the_form_apply_exactly_one(users):
    game = new_game(users)
    player = next(u for u in users if u.pk == game.seat_to_act().user_id)
    roles = ["settler", "mayor", "builder", "craftsman", "trader", "captain"]
    senders = []
    for number, role in enumerate(roles):
        client = (APIClient if number % 2 else Client)(raise_request_exception=False)
        client.force_login(player)
        senders.append((client, role))
    barrier = threading.Barrier(len(senders))
    statuses = []

    def send(client, role):
        action = {"type": "choose_role", "role": role}
        try:
            barrier.wait()
            if isinstance(client, APIClient):
                url = reverse("api:moves", args=[game.pk])
                body = {"action": action, "version": 0, "key": role}
                response = client.post(url, body, format="json")
                statuses.append(("api", response.status_code))
            else:
                url = reverse("games:move", args=[game.pk])
                fields = {"version": 0, "action": json.dumps(action)}
                statuses.append(("form", client.post(url, fields, **HTMX).status_code))
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=sender) for sender in senders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    applied = [s for s in statuses if s in (("api", 201), ("form", 200))]
    assert len(statuses) == len(roles) and len(applied) == 1
    assert sorted(code for _, code in statuses) == sorted([applied[0][1]] + [409] * 5)
    game = Game.objects.get(pk=game.pk)
    assert Move.objects.filter(game=game, forced=False).count() == 1
    assert pr.to_json(replayed(game)) == game.state
