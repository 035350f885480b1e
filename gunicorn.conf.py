"""gunicorn's settings for the site, read from the working directory by ``gunicorn puerto.wsgi``
(the image, compose and the web bench start it from the project's root).

Sync workers, one more than the cores the process may run on. A request here is CPU work with
a few short waits on a nearby database, so more workers only take turns on the same cores: with
100 players aiming at 300 moves/s on 2 cores, 4 workers spent 15-21 % more CPU than 2 (and
PostgreSQL 8-12 % more) and answered later. The one extra keeps a core busy while a worker
waits (for a commit to reach the disk, or for a game's row lock): against 2 workers, 3 spent
about 9 % more CPU and kept the game page's p95 under 30 ms in four runs of four where 2 did
in three, and its p99 lower in three of four (docs/benchmarks.md, ninth series).
``WEB_CONCURRENCY`` sets another count, as it does for gunicorn without this file.
"""

import os


def cores() -> int:
    """The cores this process may use (a container's CPU set, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


workers = int(os.environ.get("WEB_CONCURRENCY") or cores() + 1)
