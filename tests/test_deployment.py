"""The production compose file must stay valid without a Docker engine to try it on."""

import contextlib
import http.client
import json
import os
import re
import runpy
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.games.test_notifications import database_url
from tests.helpers import project_env

COMPOSE = settings.BASE_DIR / "docker-compose.yml"
ENV_EXAMPLE = settings.BASE_DIR / ".env.example"
DOCKERFILE = settings.BASE_DIR / "Dockerfile"


def load_compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_compose_runs_every_part_of_puerto():
    services = load_compose()["services"]

    assert {"web", "worker", "reviewer", "beat", "db", "redis", "mail"} <= services.keys()
    assert "gunicorn" in str(services["web"]["command"])
    assert "worker" in str(services["worker"]["command"])
    assert "beat" in str(services["beat"]["command"])


def test_reviews_have_a_worker_of_their_own_in_compose_and_in_make_run():
    """The AI players' worker serves the default queue only; reviews wait for their own."""
    services = load_compose()["services"]
    procfile = dict(
        line.split(": ", 1)
        for line in (settings.BASE_DIR / "Procfile.dev").read_text().splitlines()
    )
    for reviewer, worker in (
        (services["reviewer"]["command"], services["worker"]["command"]),
        (procfile["reviewer"], procfile["worker"]),
    ):
        assert "-Q reviews" in reviewer and "--concurrency=1" in reviewer
        assert "-Q" not in worker


def test_compose_checks_kept_database_connections_before_use():
    web = load_compose()["services"]["web"]

    assert web["environment"]["CONN_HEALTH_CHECKS"] == "true"


def test_every_compose_service_has_a_healthcheck():
    """Every service that keeps running; the one-shot ``migrate`` exits when done."""
    services = load_compose()["services"]

    for name, service in services.items():
        if service.get("restart") == "no":
            continue
        assert service.get("healthcheck", {}).get("test"), f"{name} has no healthcheck"


def test_compose_volumes_are_named_and_declared():
    compose = load_compose()
    used = {
        volume.split(":")[0]
        for service in compose["services"].values()
        for volume in service.get("volumes", [])
    }

    assert used, "no service keeps data in a volume"
    assert used <= set(compose["volumes"])


def test_every_compose_variable_is_documented_in_env_example():
    referenced = set(re.findall(r"\$\{(\w+)", COMPOSE.read_text()))
    documented = set(re.findall(r"^(\w+)=", ENV_EXAMPLE.read_text(), flags=re.MULTILINE))

    assert referenced <= documented


def image_command() -> list[str]:
    """The Dockerfile's ``CMD`` (a JSON list, perhaps over several lines)."""
    text = re.search(r"^CMD (\[.*?\])$", DOCKERFILE.read_text(), re.MULTILINE | re.DOTALL)
    return json.loads(text.group(1).replace("\\\n", ""))


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run (gunicorn's workers)."""
    tasks = Path(f"/proc/{pid}/task").iterdir()
    return [int(c) for task in tasks for c in (task / "children").read_text().split()]


def gunicorn_workers(monkeypatch, concurrency: str | None) -> int:
    if concurrency is None:
        monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    else:
        monkeypatch.setenv("WEB_CONCURRENCY", concurrency)
    return runpy.run_path(str(settings.BASE_DIR / "gunicorn.conf.py"))["workers"]


def test_gunicorn_runs_one_worker_more_than_the_cores_unless_told_otherwise(monkeypatch):
    assert gunicorn_workers(monkeypatch, None) == len(os.sched_getaffinity(0)) + 1
    assert gunicorn_workers(monkeypatch, "") == len(os.sched_getaffinity(0)) + 1
    assert gunicorn_workers(monkeypatch, "5") == 5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def image_web_server(tmp_path, **variables: str):
    """The image's production server, run here with production settings (and ``variables``) on
    a free port: only the address is changed; ``gunicorn.conf.py`` in the working directory is
    read, and ``WEB_CONCURRENCY`` sets its worker count. Yields the server process and its port
    once it answers."""
    command = image_command()
    port = free_port()
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    command[0] = str(Path(sys.executable).with_name(command[0]))
    production = {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": os.environ["DATABASE_URL"],
        "PUERTO_VAR_DIR": str(tmp_path / "var"),
    }
    env = project_env(**production | variables)
    log = tmp_path / "server.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 30
        while get(port, "/healthz") is None:
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield server, port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def get(port: int, path: str, session: str = "") -> tuple[int, bytes] | None:
    """Status and body of ``GET path`` on the local server, as the TLS proxy would send it (with
    the session cookie ``session``, if any); None while nothing listens."""
    headers = {"Host": "127.0.0.1", "X-Forwarded-Proto": "https"}
    if session:
        headers["Cookie"] = f"{settings.SESSION_COOKIE_NAME}={session}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    except OSError:
        return None
    finally:
        connection.close()


@pytest.mark.postgres
@pytest.mark.redis
def test_the_images_web_command_serves_the_site(tmp_path):
    redis_url = os.environ["REDIS_URL"]
    with image_web_server(tmp_path, WEB_CONCURRENCY="2", REDIS_URL=redis_url) as (server, port):
        status, body = get(port, "/healthz")
        assert (status, json.loads(body)["status"]) == (200, "ok")
        assert len(children(server.pid)) == 2


def cut_other_connections() -> int:
    """Terminate, on the server side, every other connection to the test database (as a
    database restart would); how many there were."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("variables", "after_the_cut"),
    [({}, 200), ({"CONN_HEALTH_CHECKS": "false"}, 500)],
    ids=["production-defaults", "health-checks-off"],
)
def test_a_web_process_whose_database_connection_was_cut_serves_the_next_request(
    tmp_path, django_user_model, variables, after_the_cut
):
    """With production settings a web process checks its kept connection before using it, so a
    connection that the database ended (a restart) is replaced, not answered with a 500.
    Without the check, the next request fails (which shows the cut reached the web's
    connection) and the one after it is served again."""
    browser = Client()
    browser.force_login(django_user_model.objects.create_user("anna"))
    session = browser.cookies[settings.SESSION_COOKIE_NAME].value
    # The server reads the test database and this process's key, so it knows the session.
    test_process = {"DATABASE_URL": database_url(), "SECRET_KEY": settings.SECRET_KEY}
    with image_web_server(tmp_path, WEB_CONCURRENCY="1", **test_process | variables) as (_, port):
        assert get(port, "/api/games/", session)[0] == 200  # the connection is kept
        # The web's connection, and any a live server's threads (an earlier test's) keep.
        assert cut_other_connections() >= 1

        assert get(port, "/api/games/", session)[0] == after_the_cut
        assert get(port, "/api/games/", session)[0] == 200
