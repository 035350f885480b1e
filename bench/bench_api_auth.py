"""What authenticating an API request costs: ``GET /api/games/`` with a personal token
(Bearer), HTTP Basic and a session, in this process through Django's test client on a fresh
SQLite database (``--requests`` each, after a warm-up). Prints the median and 95th percentile
of the wall time and the CPU time per request: Basic hashes the password (Argon2) every time,
a token is one indexed look-up and a SHA-256.

    python bench/bench_api_auth.py --requests 40
"""

from __future__ import annotations

import argparse
import base64
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def measure(client, headers: dict, count: int) -> tuple[list[float], list[float]]:
    client.get("/api/games/", **headers)  # warm-up
    walls, cpus = [], []
    for _ in range(count):
        wall, cpu = time.perf_counter(), time.process_time()
        answer = client.get("/api/games/", **headers)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        assert answer.status_code == 200, answer.status_code
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ["PUERTO_VAR_DIR"] = folder
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puerto.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from accounts import tokens
    from accounts.models import User

    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench", "bench@example.org", "a long enough password 7")
    _, text = tokens.create(user, "bench", [])
    basic = base64.b64encode(b"bench:a long enough password 7").decode()
    session = Client(HTTP_HOST="localhost")
    session.force_login(user)
    ways = {
        "token (Bearer)": (Client(HTTP_HOST="localhost"), {"HTTP_AUTHORIZATION": f"Bearer {text}"}),
        "HTTP Basic": (Client(HTTP_HOST="localhost"), {"HTTP_AUTHORIZATION": f"Basic {basic}"}),
        "session": (session, {}),
    }
    print(f"GET /api/games/, {args.requests} requests each, SQLite, in-process test client")
    print("| authentication | p50 ms | p95 ms | CPU ms per request |")
    print("|---|---|---|---|")
    for name, (client, headers) in ways.items():
        walls, cpus = measure(client, headers, args.requests)
        walls.sort()
        p95 = walls[int(0.95 * (len(walls) - 1))]
        print(
            f"| {name} | {statistics.median(walls) * 1000:.1f} | {p95 * 1000:.1f}"
            f" | {statistics.fmean(cpus) * 1000:.1f} |"
        )


if __name__ == "__main__":
    main()
