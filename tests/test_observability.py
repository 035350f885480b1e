"""What an operator reads: request and task ids in the logs, JSON log lines in production,
/metrics (guarded, with the site's own figures), Sentry only with a DSN."""

import contextvars
import io
import json
import logging
import secrets

import pytest
import redis
import sentry_sdk
from celery import shared_task
from django.conf import settings
from django.utils.module_loading import import_string
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from sentry_sdk.client import NonRecordingClient

from games import services
from games.models import Game, Move, Notification
from puerto.celery import app as celery_app
from puerto.logs import ContextFilter
from tests.helpers import project_env, run_python

PUBLIC = "203.0.113.7"  # TEST-NET-3: a public address of no one


def json_handler() -> tuple[logging.Handler, io.StringIO]:
    """The production handler of settings.LOGGING (its JSON formatter and filter), into a
    buffer."""
    spec = dict(settings.LOGGING["formatters"]["json"])
    formatter = import_string(spec.pop("()"))(**spec)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(ContextFilter())
    return handler, stream


@pytest.fixture
def request_log():
    """The JSON lines Django's request logger writes (a 404 logs ``Not Found``)."""
    handler, stream = json_handler()
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    logger.removeHandler(handler)


# Request ids -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_request_without_an_id_gets_a_new_one_on_the_response_and_its_log(client, request_log):
    response = client.get("/no-such-page")

    made = response["X-Request-ID"]
    assert 1 <= len(made) <= 64 and made.replace("-", "").isalnum()
    (line,) = request_log()
    assert line["request_id"] == made
    assert line["message"] == "Not Found: /no-such-page"
    assert client.get("/no-such-page")["X-Request-ID"] != made  # one per request


@pytest.mark.django_db
@pytest.mark.parametrize("sane", ["abc", "Req-1.2_3", "x" * 64, "0f8e2c1a-9b7d-4e3f"])
def test_a_sane_incoming_id_is_kept_and_logged(client, request_log, sane):
    response = client.get("/no-such-page", HTTP_X_REQUEST_ID=sane)

    assert response["X-Request-ID"] == sane
    assert [line["request_id"] for line in request_log()] == [sane]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "insane",
    ["x" * 65, "a b", "id;rm", "ünïcode", "\uff11\uff12\uff13", "a\tb", "<script>", "a/b", "a=b"],
)
def test_an_insane_incoming_id_is_replaced_never_echoed(client, request_log, insane):
    response = client.get("/no-such-page", HTTP_X_REQUEST_ID=insane)

    made = response["X-Request-ID"]
    assert made != insane and made.isascii() and made.isalnum()
    assert [line["request_id"] for line in request_log()] == [made]


def test_outside_a_request_the_id_is_null():
    handler, stream = json_handler()
    record = logging.LogRecord("puerto", logging.INFO, __file__, 1, "quiet", None, None)
    contextvars.Context().run(handler.handle, record)  # as a fresh thread or task would

    line = json.loads(stream.getvalue())
    assert line["request_id"] is None and line["task_id"] is None


@shared_task
def log_in_a_task() -> None:
    logging.getLogger("tests.task").warning("working on it")


def test_a_task_logs_its_own_id_and_name():
    handler, stream = json_handler()
    logger = logging.getLogger("tests.task")
    logger.addHandler(handler)
    try:
        result = log_in_a_task.apply()
    finally:
        logger.removeHandler(handler)

    line = json.loads(stream.getvalue())
    assert line["task_id"] == result.id
    assert line["task_name"] == log_in_a_task.name


# Log format by setting -----------------------------------------------------------------------

LOG_A_LINE = """
import django, logging
django.setup()
logging.getLogger("puerto.example").warning("a move for %s", "anna")
"""


def run_logging(tmp_path, **env):
    values = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "puerto.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "PUERTO_VAR_DIR": str(tmp_path / "var"),
        "SENTRY_DSN": "",
        "LOG_FORMAT": "",
    }
    result = run_python("-c", LOG_A_LINE, env=project_env(**values | env))
    assert result.returncode == 0, result.stderr
    return result


def test_production_logs_one_json_object_a_line_on_stdout(tmp_path):
    result = run_logging(tmp_path, DEBUG="false")

    (line,) = [json.loads(text) for text in result.stdout.splitlines()]
    assert set(line) >= {"time", "level", "logger", "message", "request_id", "task_id"}
    assert (line["level"], line["logger"]) == ("WARNING", "puerto.example")
    assert line["message"] == "a move for anna"
    assert line["time"].startswith("20") and "T" in line["time"]
    assert result.stderr == ""


def test_log_format_json_asks_for_json_in_development_too(tmp_path):
    result = run_logging(tmp_path, DEBUG="true", LOG_FORMAT="json")

    assert json.loads(result.stdout)["message"] == "a move for anna"


def test_development_keeps_the_readable_line(tmp_path):
    result = run_logging(tmp_path, DEBUG="true")

    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.endswith(" WARNING puerto.example: a move for anna")


# /metrics ----------------------------------------------------------------------------------


def scraped(response) -> dict[str, float]:
    """The samples of a scrape by name and labels, e.g. ``puerto_celery_queue_length{...}``."""
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return samples


@pytest.mark.django_db
@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "10.1.2.3", "172.18.0.5", "192.168.1.9"])
def test_metrics_are_served_to_loopback_and_private_addresses(client, address):
    samples = scraped(client.get("/metrics", REMOTE_ADDR=address))

    assert "puerto_email_outbox_unsent" in samples
    assert any(name.startswith("django_http_requests_total_by_view") for name in samples)


@pytest.mark.django_db
def test_metrics_are_a_404_to_a_public_address_without_the_token(client, settings):
    settings.METRICS_TOKEN = "s3cret-scrape-token"

    assert client.get("/metrics", REMOTE_ADDR=PUBLIC).status_code == 404
    wrong = {"HTTP_AUTHORIZATION": "Bearer not-the-token", "REMOTE_ADDR": PUBLIC}
    assert client.get("/metrics", **wrong).status_code == 404
    bare = {"HTTP_AUTHORIZATION": "s3cret-scrape-token", "REMOTE_ADDR": PUBLIC}
    assert client.get("/metrics", **bare).status_code == 404


@pytest.mark.django_db
def test_no_token_set_means_no_token_opens_the_metrics(client, settings):
    settings.METRICS_TOKEN = ""

    empty = {"HTTP_AUTHORIZATION": "Bearer ", "REMOTE_ADDR": PUBLIC}
    assert client.get("/metrics", **empty).status_code == 404


@pytest.mark.django_db
def test_metrics_are_served_to_a_public_address_with_the_bearer_token(client, settings):
    settings.METRICS_TOKEN = "s3cret-scrape-token"
    sent = {"HTTP_AUTHORIZATION": "Bearer s3cret-scrape-token", "REMOTE_ADDR": PUBLIC}

    assert "puerto_email_outbox_unsent" in scraped(client.get("/metrics", **sent))


@pytest.mark.django_db
def test_a_request_through_the_proxy_is_refused_though_the_proxy_is_private(client, settings):
    settings.METRICS_TOKEN = ""
    proxied = {"REMOTE_ADDR": "172.18.0.2", "HTTP_X_FORWARDED_FOR": "127.0.0.1"}

    assert client.get("/metrics", **proxied).status_code == 404


def test_the_proxy_answers_metrics_itself_with_a_404():
    """deploy/Caddyfile: /metrics is handled (404) before the block that sends the rest to web."""
    text = (settings.BASE_DIR / "deploy" / "Caddyfile").read_text()

    assert "@metrics path /metrics /metrics/*" in text
    metrics_block = text.index("handle @metrics {\n\t\trespond 404\n\t}")
    assert metrics_block < text.index("handle @events") < text.index("handle {")


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(n, password="pw") for n in ("anna", "bob")]


def moves(by: str) -> float:
    value = REGISTRY.get_sample_value(
        "puerto_moves_stored_total", {"game": "puerto_rico", "by": by}
    )
    return value or 0.0


@pytest.mark.django_db
def test_stored_moves_count_by_who_played_them_and_a_refused_one_not(
    people, django_capture_on_commit_callbacks
):
    game = services.create_game(people[0], engine="puerto_rico", num_players=3, ai_seats=1)
    services.join_game(game.pk, people[1])
    before = {by: moves(by) for by in ("person", "ai", "forced")}

    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(40):  # until both a person and the AI have played
            game = Game.objects.get(pk=game.pk)
            stored = Move.objects.filter(game=game, kind=Move.Kind.ACTION)
            if stored.filter(actor=None).exists() and stored.exclude(actor=None).exists():
                break
            seat = game.seat_to_act()
            person = next((p for p in people if p.pk == seat.user_id), None)
            with pytest.raises(services.GameError):
                services.submit_move(game.pk, {"type": "no such move"}, user=person, ai=not person)
            services.submit_move(game.pk, first_legal(game), user=person, ai=not person)

    stored = Move.objects.filter(game=game, kind=Move.Kind.ACTION)
    by_person = stored.exclude(actor=None).count()
    by_ai = stored.filter(actor=None, forced=False).count()
    assert by_person >= 1 and by_ai >= 1
    assert moves("person") - before["person"] == by_person
    assert moves("ai") - before["ai"] == by_ai
    assert moves("forced") - before["forced"] == stored.filter(forced=True).count()


def first_legal(game: Game):
    from games.registry import get_engine

    rules = get_engine(game.engine)
    return rules.action_to_json(rules.legal_actions(rules.from_json(game.state))[0])


@pytest.mark.django_db
def test_a_move_rolled_back_is_not_counted(people, django_capture_on_commit_callbacks):
    game = services.create_game(people[0], engine="puerto_rico", num_players=3)
    services.join_game(game.pk, people[1])
    services.join_game(
        game.pk,
        type(people[0]).objects.create_user("chris", password="pw"),
    )
    game = Game.objects.get(pk=game.pk)
    person = type(people[0]).objects.get(pk=game.seat_to_act().user_id)
    before = moves("person")

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.submit_move(game.pk, {"type": "choose_role", "role": "mayor"}, user=person)

    assert moves("person") == before  # not yet: the transaction has not committed
    for callback in callbacks:
        callback()
    assert moves("person") == before + 1


def test_the_ai_task_is_timed(db):
    """play_ai_turn for a game that does not exist returns at once: still one observation."""
    from games.tasks import play_ai_turn

    before = REGISTRY.get_sample_value("puerto_ai_turn_seconds_count") or 0.0
    play_ai_turn.apply(args=(0, 0))
    assert REGISTRY.get_sample_value("puerto_ai_turn_seconds_count") == before + 1


@pytest.mark.django_db
def test_the_outbox_gauge_counts_unsent_rows(client, people):
    def notification(key, **fields):
        Notification.objects.create(user=people[0], kind="turn", dedupe_key=key, **fields)

    from django.utils import timezone

    notification("waiting-1")
    notification("waiting-2", attempts=2, last_error="relay refused")
    notification("sent", sent_at=timezone.now())
    notification("given-up", discarded_at=timezone.now())

    assert scraped(client.get("/metrics"))["puerto_email_outbox_unsent"] == 2


@pytest.mark.redis
@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:task_always_eager has no effect on send_task")
def test_the_queue_gauges_read_the_lengths_of_the_real_queues(client):
    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete("celery", "reviews")
    try:
        for _ in range(3):
            celery_app.send_task("tests.nothing", queue="celery")
        celery_app.send_task("tests.nothing", queue="reviews")

        samples = scraped(client.get("/metrics"))
    finally:
        broker.delete("celery", "reviews")
        broker.close()

    assert samples['puerto_celery_queue_length{queue="celery"}'] == 3
    assert samples['puerto_celery_queue_length{queue="reviews"}'] == 1
    assert samples["puerto_celery_broker_up"] == 1


@pytest.mark.django_db
def test_without_redis_the_queues_are_not_reported_and_broker_up_says_so(client, settings):
    settings.REDIS_URL = ""

    samples = scraped(client.get("/metrics"))

    assert samples["puerto_celery_broker_up"] == 0
    assert not any(name.startswith("puerto_celery_queue_length") for name in samples)


# Sentry ------------------------------------------------------------------------------------


def test_sentry_is_not_initialised_without_a_dsn():
    assert not settings.SENTRY_DSN
    assert isinstance(sentry_sdk.get_client(), NonRecordingClient)  # sentry_sdk.init never ran


SENTRY_OPTIONS = """
import json, django, sentry_sdk
django.setup()
client = sentry_sdk.get_client()
options = client.options
print(json.dumps({
    "active": client.is_active(),
    "release": options["release"],
    "environment": options["environment"],
    "pii": options["send_default_pii"],
    "bodies": options["max_request_body_size"],
    "integrations": sorted(client.integrations),
}))
"""


def test_sentry_with_a_dsn_sends_no_personal_data_and_names_the_release(tmp_path):
    env = project_env(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="puerto.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        PUERTO_VAR_DIR=str(tmp_path / "var"),
        SENTRY_DSN="https://public@sentry.example.org/1",
        SENTRY_ENVIRONMENT="staging",
    )
    result = run_python("-c", SENTRY_OPTIONS, env=env)
    assert result.returncode == 0, result.stderr

    options = json.loads(result.stdout.splitlines()[-1])
    assert options["active"] is True
    assert options["release"] == f"puerto@{settings.PUERTO_VERSION}"
    assert options["environment"] == "staging"
    assert options["pii"] is False and options["bodies"] == "never"
    assert {"django", "celery"} <= set(options["integrations"])


@pytest.mark.django_db(transaction=True)
def test_an_open_event_stream_counts_until_it_is_closed(settings, django_user_model):
    import asyncio
    import contextlib

    from asgiref.sync import async_to_sync
    from django.test import AsyncClient
    from django.urls import reverse

    from tests.events.test_streams import running_game

    settings.REDIS_URL = ""
    users = [django_user_model.objects.create_user(n) for n in ("anna", "bob", "chris")]
    game = running_game(users)

    def open_streams() -> float:
        return REGISTRY.get_sample_value("puerto_event_streams_open")

    async def scenario() -> tuple[float, float, float]:
        """Read the stream as the ASGI handler does, then cancel that reading, as the handler
        does when the client disconnects."""
        before = open_streams()
        response = await AsyncClient().get(reverse("api:game_events", args=[game.pk]))
        first = asyncio.Event()

        async def read() -> None:
            async for _chunk in response:
                first.set()

        reading = asyncio.create_task(read())
        await asyncio.wait_for(first.wait(), 30)
        during = open_streams()
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading
        return before, during, open_streams()

    before, during, after = async_to_sync(scenario)()
    assert (during, after) == (before + 1, before)
