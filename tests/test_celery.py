"""Tasks through real worker processes: the embedded file-system broker and Redis."""

import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from celery import Celery
from django.conf import settings

from games.tasks import ping
from tests.helpers import REAL_PROCESSES, project_env, run_python

# What the web process does: set Django up (which loads the Celery app), then send.
SEND_PING = (
    "import django; django.setup(); from games.tasks import ping; "
    "print(ping.delay().get(timeout=30))"
)


def start_worker(env: dict[str, str], log: Path, *options: str) -> subprocess.Popen:
    """Start a worker logging to ``log`` (a file, so a chatty worker never blocks on a pipe)
    and wait until it is ready; a worker that dies on the way fails with its log."""
    with log.open("w") as output:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "puerto", "worker", "--loglevel=INFO", *options],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so a test can kill it whole
        )
    deadline = time.monotonic() + 60
    while " ready." not in log.read_text():
        if worker.poll() is not None or time.monotonic() > deadline:
            stop_worker(worker, log)
            pytest.fail(f"the Celery worker did not start:\n{log.read_text()}")
        time.sleep(0.2)
    return worker


def stop_worker(worker: subprocess.Popen, log: Path) -> str:
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()
    return log.read_text()


def test_ping_runs_in_process_under_test():
    assert ping.delay().get(timeout=1) == "pong"


@pytest.fixture(scope="module")
def embedded_worker(tmp_path_factory):
    """A worker with embedded beat on the file-system broker, as `make run` starts it."""
    var_dir = tmp_path_factory.mktemp("var")
    log = var_dir / "worker.log"
    env = project_env(PUERTO_VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="tests.settings_beat")
    worker = start_worker(env, log, "--concurrency=1", "-B")
    yield env, var_dir
    output = stop_worker(worker, log)
    assert "Traceback" not in output, output


@REAL_PROCESSES
def test_task_round_trip_through_embedded_worker(embedded_worker):
    env, _ = embedded_worker

    result = run_python("-c", SEND_PING, env=env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "pong"


@REAL_PROCESSES
def test_embedded_beat_sends_scheduled_tasks(embedded_worker):
    _, var_dir = embedded_worker
    results = Path(var_dir, "celery", "results")

    deadline = time.monotonic() + 30
    while len(list(results.iterdir())) < 3 and time.monotonic() < deadline:
        time.sleep(0.5)

    assert len(list(results.iterdir())) >= 3, "beat did not send ping every second"


@REAL_PROCESSES
@pytest.mark.redis
def test_task_round_trip_through_worker_on_redis(tmp_path):
    # A dedicated database number keeps this test's queue apart from anything else on Redis.
    url = urlunsplit(urlsplit(settings.REDIS_URL)._replace(path="/15"))
    redis.Redis.from_url(url).flushdb()
    log = tmp_path / "worker.log"
    worker = start_worker(project_env(REDIS_URL=url), log, "--concurrency=1")
    client = Celery("puerto-test", broker=url, backend=url)
    try:
        result = client.send_task("games.tasks.ping")
        assert result.get(timeout=60) == "pong"
    finally:
        output = stop_worker(worker, log)
        client.close()
        redis.Redis.from_url(url).flushdb()
    assert f"Task games.tasks.ping[{result.id}] succeeded" in output
