"""Parts that fail on purpose: a Redis of the test's own on a spare port (never the shared one),
stopped, frozen and started again, with real worker and beat processes against it and the test
database. This process sends its tasks and keeps its cache there too while a test runs."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from tests.games.test_notifications import celery_on, database_url
from tests.helpers import project_env
from tests.test_celery import start_worker, stop_worker
from tests.test_deployment import free_port


def wait_for(condition, timeout: float, what: str, interval: float = 0.2):
    """Poll ``condition`` until it returns something true; fail naming ``what`` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(interval)


class RedisServer:
    """``redis-server`` on a spare port, without persistence: stopping it loses every queued
    message, as a crashed Redis without its append-only file would."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        log = (self.folder / "redis.log").open("a")
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--daemonize", "no"),
            ],
            cwd=self.folder,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        wait_for(self.answers, 10, f"redis-server on port {self.port}", interval=0.05)

    def answers(self) -> bool:
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        """Killed outright, as a crash or an out-of-memory kill would."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def freeze(self) -> None:
        """Still accepting connections, never answering: a Redis stuck or out of reach."""
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)


@pytest.fixture
def own_redis(tmp_path, settings):
    """A Redis of this test's own; this process's cache, health check and Celery use it."""
    server = RedisServer(tmp_path)
    server.start()
    settings.REDIS_URL = server.url
    settings.CACHES = {
        "default": {**settings.CACHES["default"], "LOCATION": server.url},
    }
    try:
        with celery_on(server.url):
            yield server
    finally:
        if server.process is not None:
            server.thaw()
        server.stop()


def worker_env(server: RedisServer) -> dict[str, str]:
    return project_env(REDIS_URL=server.url, DATABASE_URL=database_url())


class Processes:
    """Worker and beat processes on the test's own Redis, each logging to its own file."""

    def __init__(self, server: RedisServer, folder: Path) -> None:
        self.server, self.folder = server, folder
        self.running: list[tuple[subprocess.Popen, Path]] = []

    def worker(
        self, name: str = "worker", concurrency: int = 2, include: str = ""
    ) -> subprocess.Popen:
        """A worker; ``include`` names a module of further tasks for it to load."""
        log = self.folder / f"{name}.log"
        options = [f"--concurrency={concurrency}", f"--hostname={name}@%h"]
        if include:
            options.append(f"--include={include}")
        process = start_worker(worker_env(self.server), log, *options)
        self.running.append((process, log))
        return process

    def beat(self) -> subprocess.Popen:
        log = self.folder / "beat.log"
        with log.open("w") as output:
            process = subprocess.Popen(
                [
                    *(sys.executable, "-m", "celery", "-A", "puerto", "beat", "--loglevel=INFO"),
                    *("--schedule", str(self.folder / "beat-schedule")),
                    *("--pidfile", str(self.folder / "beat.pid")),
                ],
                cwd=settings.BASE_DIR,
                env=worker_env(self.server),
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.running.append((process, log))
        wait_for(lambda: "beat: Starting" in log.read_text(), 30, "beat to start")
        return process

    @staticmethod
    def kill(process: subprocess.Popen) -> None:
        """SIGKILL to the process and its children (a prefork worker's pool), as the OOM killer
        or a lost machine would."""
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def stop_all(self) -> dict[str, str]:
        logs = {}
        for process, log in self.running:
            if process.poll() is None:
                stop_worker(process, log)
            logs[log.stem] = log.read_text()
        return logs


@pytest.fixture
def processes(own_redis, tmp_path):
    group = Processes(own_redis, tmp_path)
    yield group
    group.stop_all()


def lock_waiters() -> int:
    """Database sessions of the test database waiting for a row lock (a task blocked on it)."""
    with connection.cursor() as cursor:
        # Statistics are read once per transaction unless told otherwise (this runs in one).
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]
