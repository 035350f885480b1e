"""gunicorn's settings for the site, read from the working directory by ``gunicorn puerto.wsgi``
(the image, compose and the web bench start it from the project's root).

Sync workers, one more than the cores the process may run on. A request here is CPU work with
a few short waits on a nearby database, so more workers only take turns on the same cores: with
100 players aiming at 300 moves/s on 2 cores, 4 workers spent 15-21 % more CPU than 2 (and
PostgreSQL 8-12 % more) and answered later. The one extra keeps a core busy while a worker
waits (for a commit to reach the disk, or for a game's row lock): against 2 workers, 3 spent
about 9 % more CPU and kept the game page's p95 under 30 ms in four runs of four where 2 did
in three, and its p99 lower in three of four (docs/benchmarks.md, ninth series).
The cores are the container's CPU limit where it has one (``cores``): on a big host without a
limit, set one (``cpus:`` in compose) or ``WEB_CONCURRENCY``, as every worker holds a database
connection and PostgreSQL allows 100 (docs/operations.md, "Database connections").
``WEB_CONCURRENCY`` sets another count, as it does for gunicorn without this file.
"""

import math
import os

CPU_MAX = "/sys/fs/cgroup/cpu.max"
"""cgroup v2's CPU limit of this container: ``<quota> <period>`` in microseconds, or ``max``."""


def cores(cpu_max: str = CPU_MAX) -> int:
    """The cores this process may use: a container's CPU limit (``cpus:`` in compose, cgroup v2)
    rounded up, else its CPU set, never more than the CPU set. A container without either sees
    the whole host, whose cores may be more than PostgreSQL has connections for."""
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    available = available or os.cpu_count() or 1
    try:
        with open(cpu_max) as limit:
            quota, period = limit.read().split()[:2]
    except (OSError, ValueError):
        return available
    if quota == "max" or not (quota.isdigit() and period.isdigit()) or int(period) == 0:
        return available
    return max(1, min(available, math.ceil(int(quota) / int(period))))


workers = int(os.environ.get("WEB_CONCURRENCY") or cores() + 1)


def on_starting(server) -> None:
    """Metrics of all workers in one scrape: prometheus-client's multiprocess mode, each worker
    writing its values to files in ``PROMETHEUS_MULTIPROC_DIR`` (a fresh directory of this
    server when not set), emptied here before any worker starts (puerto/metrics.py)."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        import tempfile

        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="puerto-metrics-")
        server.made_metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    directory = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        if name.endswith(".db"):
            os.remove(os.path.join(directory, name))


def child_exit(server, worker) -> None:
    """A worker that exited (restarted, or killed at its timeout) leaves its counters to the
    sums but no longer counts in the live gauges."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server) -> None:
    """The directory made by ``on_starting`` goes with the server."""
    made = getattr(server, "made_metrics_dir", None)
    if made:
        import shutil

        shutil.rmtree(made, ignore_errors=True)
