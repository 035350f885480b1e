"""The production compose file must stay valid without a Docker engine to try it on."""

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

from tests.helpers import project_env

COMPOSE = settings.BASE_DIR / "docker-compose.yml"
ENV_EXAMPLE = settings.BASE_DIR / ".env.example"
DOCKERFILE = settings.BASE_DIR / "Dockerfile"


def load_compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def test_compose_runs_every_part_of_puerto():
    services = load_compose()["services"]

    assert {"web", "worker", "beat", "db", "redis", "mail"} <= services.keys()
    assert "gunicorn" in str(services["web"]["command"])
    assert "worker" in str(services["worker"]["command"])
    assert "beat" in str(services["beat"]["command"])


def test_every_compose_service_has_a_healthcheck():
    services = load_compose()["services"]

    for name, service in services.items():
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


@pytest.mark.postgres
@pytest.mark.redis
def test_the_images_web_command_serves_the_site(tmp_path):
    """The image's production server, run here with production settings on a free port, answers
    the health check (only the address is changed; ``gunicorn.conf.py`` in the working
    directory is read, and ``WEB_CONCURRENCY`` sets its worker count)."""
    command = image_command()
    port = free_port()
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    command[0] = str(Path(sys.executable).with_name(command[0]))
    env = project_env(
        WEB_CONCURRENCY="2",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=os.environ["DATABASE_URL"],
        REDIS_URL=os.environ["REDIS_URL"],
        PUERTO_VAR_DIR=str(tmp_path / "var"),
    )
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        command,
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        answer = None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and server.poll() is None and answer is None:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/healthz")
                response = connection.getresponse()
                answer = (response.status, json.loads(response.read())["status"])
            except OSError:
                time.sleep(0.2)
        assert answer == (200, "ok"), (tmp_path / "server.log").read_text()
        assert len(children(server.pid)) == 2
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
