"""Liveness files for the health checks of the Celery worker and beat (docker-compose.yml).

Where ``PUERTO_LIVENESS_FILE`` is set, the worker touches that file from its event loop every
``WORKER_INTERVAL`` seconds and beat at every tick of its scheduler; a health check then only
looks at the file's age, where ``celery inspect ping`` started a whole client every time and a
check of beat's pid held for a beat that no longer ticked.
"""

import os
from pathlib import Path

from celery import bootsteps
from celery.beat import PersistentScheduler

WORKER_INTERVAL = 30.0
"""Seconds between two touches by the worker (the health check allows two minutes)."""


def liveness_file() -> Path | None:
    path = os.environ.get("PUERTO_LIVENESS_FILE", "").strip()
    return Path(path) if path else None


def touch() -> None:
    """Mark the process alive now (nothing without ``PUERTO_LIVENESS_FILE``)."""
    path = liveness_file()
    if path is not None:
        path.touch()


class WorkerLiveness(bootsteps.StartStopStep):
    """Touches the file on the worker's own timer, which its event loop runs: a worker that
    stands still (blocked, or reconnecting to the broker) stops touching it."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker, **kwargs) -> None:
        super().__init__(worker, **kwargs)
        self.tref = None

    def start(self, worker) -> None:
        touch()
        self.tref = worker.timer.call_repeatedly(WORKER_INTERVAL, touch)

    def stop(self, worker) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


class BeatScheduler(PersistentScheduler):
    """Celery's default scheduler, touching the file at every tick (``celery beat -S``)."""

    def tick(self, *args, **kwargs):
        touch()
        return super().tick(*args, **kwargs)
