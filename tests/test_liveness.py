"""The liveness files the health checks of worker and beat read (puerto/liveness.py)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings

from puerto import liveness
from tests.helpers import REAL_PROCESSES, project_env
from tests.test_celery import start_worker, stop_worker


@pytest.fixture
def alive(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "alive"
    monkeypatch.setenv("PUERTO_LIVENESS_FILE", str(path))
    return path


def age(path: Path) -> float:
    return time.time() - path.stat().st_mtime


def make_old(path: Path) -> None:
    """Set the file's time an hour back, as a process that stood still would leave it."""
    an_hour_ago = time.time() - 3600
    os.utime(path, (an_hour_ago, an_hour_ago))


class Timer:
    """Records what a step asks the worker's timer to repeat."""

    def __init__(self) -> None:
        self.repeated = []

    def call_repeatedly(self, seconds, function):
        self.repeated.append((seconds, function))
        return self


def test_the_worker_touches_the_file_at_start_and_on_its_timer(alive):
    worker = type("Worker", (), {"timer": Timer()})()
    step = liveness.WorkerLiveness(worker)

    step.start(worker)

    assert alive.exists()
    [(seconds, touch)] = worker.timer.repeated
    assert seconds <= 60  # at least twice within the health check's two minutes
    make_old(alive)
    touch()
    assert age(alive) < 60


def test_beats_scheduler_touches_the_file_at_every_tick(alive, tmp_path):
    app = Celery(set_as_current=False)
    scheduler = liveness.BeatScheduler(app=app, schedule_filename=str(tmp_path / "schedule"))
    alive.touch()
    make_old(alive)

    scheduler.tick()

    assert age(alive) < 60
    scheduler.close()


def test_nothing_is_touched_without_a_liveness_file(monkeypatch, tmp_path):
    monkeypatch.delenv("PUERTO_LIVENESS_FILE", raising=False)
    monkeypatch.chdir(tmp_path)

    liveness.touch()

    assert list(tmp_path.iterdir()) == []


def wait_for(path: Path, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert process.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.2)


@REAL_PROCESSES
@pytest.mark.redis
def test_a_real_worker_on_redis_touches_its_liveness_file(tmp_path):
    path = tmp_path / "alive"
    log = tmp_path / "worker.log"
    env = project_env(
        PUERTO_VAR_DIR=str(tmp_path / "var"),
        REDIS_URL=os.environ["REDIS_URL"],
        PUERTO_LIVENESS_FILE=str(path),
    )
    worker = start_worker(env, log, "--concurrency=1", "-n", "liveness@%h")
    try:
        wait_for(path, worker, log)
    finally:
        output = stop_worker(worker, log)
    assert "Traceback" not in output, output


@REAL_PROCESSES
def test_a_real_beat_with_the_composes_scheduler_touches_its_liveness_file(tmp_path):
    path = tmp_path / "alive"
    log = tmp_path / "beat.log"
    env = project_env(PUERTO_VAR_DIR=str(tmp_path / "var"), PUERTO_LIVENESS_FILE=str(path))
    command = [sys.executable, "-m", "celery", "-A", "puerto", "beat", "--loglevel=INFO"]
    command += ["--scheduler", "puerto.liveness:BeatScheduler"]
    command += ["--schedule", str(tmp_path / "schedule")]
    with log.open("w") as output:
        beat = subprocess.Popen(
            command, cwd=settings.BASE_DIR, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        wait_for(path, beat, log)
    finally:
        beat.terminate()
        beat.wait(timeout=20)
    assert "Traceback" not in log.read_text(), log.read_text()
