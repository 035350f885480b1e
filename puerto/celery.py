"""The Celery app, configured from the Django settings (keys prefixed ``CELERY_``)."""

import os
import time

from celery import Celery, signals

from puerto.liveness import WorkerLiveness

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puerto.settings")

app = Celery("puerto")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The worker's health check reads the file this touches (puerto/liveness.py).
app.steps["worker"].add(WorkerLiveness)

AI_TURN_TASK = "games.tasks.play_ai_turn"
_started: dict[str, float] = {}
"""When each running AI task began, by task id (a pool process runs one task at a time)."""


@signals.task_prerun.connect
def _task_began(task_id: str, task, **kwargs) -> None:
    if task.name == AI_TURN_TASK:
        _started[task_id] = time.perf_counter()


@signals.task_postrun.connect
def _task_ended(task_id: str, task, **kwargs) -> None:
    """The AI task's time, whether it played, handed on or failed, in ``puerto_ai_turn_seconds``."""
    began = _started.pop(task_id, None)
    if began is not None:
        from puerto.metrics import AI_TURN_SECONDS

        AI_TURN_SECONDS.observe(time.perf_counter() - began)


@signals.worker_init.connect
def _serve_metrics(**kwargs) -> None:
    """With ``WORKER_METRICS_PORT`` set, the worker's main process serves the metrics its pool
    processes count (they share ``PROMETHEUS_MULTIPROC_DIR``, emptied here before the pool
    starts) on that port: its own small server, as a worker answers no HTTP otherwise."""
    port = os.environ.get("WORKER_METRICS_PORT", "").strip()
    if port:
        from puerto.metrics import serve_worker_metrics

        serve_worker_metrics(int(port))


@signals.worker_process_shutdown.connect
def _pool_process_exited(pid: int | None = None, **kwargs) -> None:
    """An exited pool process's live gauges no longer count (prometheus-client's way)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())
