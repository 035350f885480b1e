"""gunicorn's settings for the site, read from the working directory by ``gunicorn puerto.wsgi``
(the image, compose and the web bench start it from the project's root).

One sync worker per core the process may run on. A request here is CPU work with a few short
round trips to a nearby database, so workers beyond the cores only take turns on them: with
100 players aiming at 300 moves/s on 2 cores, 4 workers spent 15-21 % more CPU than 2 (and
PostgreSQL 8-12 % more), and answered later (docs/benchmarks.md, ninth series).
``WEB_CONCURRENCY`` sets another count, as it does for gunicorn without this file.
"""

import os


def cores() -> int:
    """The cores this process may use (a container's CPU set, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


workers = int(os.environ.get("WEB_CONCURRENCY") or cores())
