"""Ratings and the players' pages with a large site: 10,000 players, 100,000 finished games.

On the recreated PostgreSQL database ``puerto_bench_players``, with production settings
(``DEBUG=false``) and Django's test client, in one process. The site is filled with
``bulk_create``: ``--players`` players and ``--games`` finished games of the shelf's games
(Puerto Rico of 2 to 5 players and its editions, Amerigo of 2 to 4), a person in most seats,
the busiest players in many more games than the rest (a Pareto draw), 70 % of the games rated
and rated in order with the site's own model (``players.ratings.MODEL``), plus ``--running``
running games to watch. Finished games are stored without their state: no list page reads it.

Then it measures, as CPU of this process (``time.process_time()``: Django, the templates, the
database client; not PostgreSQL's) and as wall time (PostgreSQL's share included):

- The rating update of a finished game (``players.ratings.rate_game``), ``--rate`` games of
  four seats, each in its own transaction, as the receiver of the finishing move runs it.
- GETs of the leaderboard (first page and page 20), the busiest player's page and a player's
  with an average number of games (seen by a stranger), the archive (first page, and filtered
  by a player's name), the watch list, and the API's profile and leaderboard, ``--repeat``
  times each, after one GET that is not timed; and the SQL queries of each.

``python bench/bench_players.py`` takes about five minutes, most of it filling the database.
Without a reachable PostgreSQL it says so and exits 0 (with ``CI=true``: 1). The target: each
page's queries a fixed number, whatever the number of games.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_web import calibration_ms, p, production_environment, recreate_database

BATCH = 5000


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000, help="finished games")
    parser.add_argument("--running", type=int, default=1_000, help="running games to watch")
    parser.add_argument("--rate", type=int, default=300, help="rating updates timed")
    parser.add_argument("--repeat", type=int, default=20, help="GETs of each page timed")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--database", default="puerto_bench_players", help="recreated")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/5", help="the cache")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--reuse", action="store_true", help="measure the database a run before filled"
    )
    return parser.parse_args()


def tables(rng: random.Random):
    """A game of the shelf as the lobby opens it: (engine, players, options)."""
    from games.registry import shelf

    spec = rng.choice(shelf())
    options = {}
    for option in spec.engine.OPTIONS:
        if option["type"] == "choice" and option["name"] in spec.option_choice_names:
            options[option["name"]] = rng.choice(option["choices"])
    return spec.name, rng.choice(spec.player_counts), options


def fill(args, rng: random.Random) -> None:
    """The players, the finished games with their seats, results and rating history, the
    ratings they lead to, and the running games."""
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Result, Seat
    from games.registry import get_engine
    from players.models import Rating, RatingChange
    from players.ratings import shown

    users = User.objects.bulk_create(
        User(username=f"player{n:05d}", email=f"player{n:05d}@example.org", password="!")
        for n in range(args.players)
    )
    # A few players play a great deal, most a little.
    weights = [rng.paretovariate(1.2) for _ in users]
    now = timezone.now()
    start = now - timedelta(days=730)
    step = (now - start) / args.games
    ratings: dict[tuple, list] = {}
    changes, rows, seat_rows = [], [], []
    for first in range(0, args.games, BATCH):
        count = min(BATCH, args.games - first)
        drawn = [tables(rng) for _ in range(count)]
        games = Game.objects.bulk_create(
            Game(
                engine=engine,
                num_players=n,
                options=options,
                status=Game.Status.FINISHED,
                ending=Game.Ending.PLAYED_OUT,
                rated=rng.random() < 0.7,
                spectators=rng.random() < 0.9,
                started_at=start + step * (first + i) - timedelta(days=10),
                finished_at=start + step * (first + i),
                version=200,
            )
            for i, (engine, n, options) in enumerate(drawn)
        )
        seat_rows.clear()
        for game in games:
            persons = rng.choices(users, weights, k=game.num_players)
            persons = list(dict.fromkeys(persons))  # nobody twice at a table
            for position in range(game.num_players):
                person = persons[position] if position < len(persons) else None
                if position >= 2 and rng.random() < 0.15:
                    person = None
                seat_rows.append(
                    Seat(
                        game=game,
                        user=person,
                        ai_level="" if person else rng.choice(("easy", "medium", "hard")),
                        position=position,
                        colour=Seat.COLOURS[position],
                    )
                )
        seats = Seat.objects.bulk_create(seat_rows)
        rows.clear()
        by_game: dict[int, list[Seat]] = {}
        for seat in seats:
            by_game.setdefault(seat.game_id, []).append(seat)
        for game in games:
            table = by_game[game.pk]
            placements = list(range(1, len(table) + 1))
            rng.shuffle(placements)
            for seat, placement in zip(table, placements, strict=True):
                played_by = Result.PlayedBy.PERSON if seat.user_id else Result.PlayedBy.AI
                rows.append(
                    Result(
                        game=game,
                        seat=seat,
                        position=seat.position,
                        user_id=seat.user_id,
                        played_by=played_by,
                        person_decisions=60 if seat.user_id else 0,
                        ai_decisions=0 if seat.user_id else 60,
                        placement=placement,
                        score=60 - 8 * placement + rng.randrange(6),
                        parts={},
                        tiebreak={},
                    )
                )
            if game.rated:
                rate_in_memory(game, table, rows[-len(table) :], ratings, changes)
        Result.objects.bulk_create(rows)
        print(f"  {first + count} finished games stored", flush=True)
    stored = Rating.objects.bulk_create(
        Rating(
            ladder=ladder,
            user_id=user_id,
            ai_level=level,
            mu=r[0].mu,
            sigma=r[0].sigma,
            value=shown(r[0].mu, r[0].sigma),
            games=r[1],
            wins=r[2],
            last_game_at=r[3],
        )
        for (ladder, user_id, level), r in ratings.items()
    )
    pks = {(r.ladder, r.user_id, r.ai_level): r.pk for r in stored}
    for first in range(0, len(changes), BATCH):
        part = changes[first : first + BATCH]
        for change in part:
            change.rating_id = pks[change.rating_id]
        RatingChange.objects.bulk_create(part)
    print(f"  {len(stored)} ratings, {len(changes)} rating changes stored", flush=True)
    running = []
    for _ in range(args.running):
        engine, n, options = tables(rng)
        rules = get_engine(engine)
        state = rules.to_json(rules.new_game(n, rng.randrange(2**31), options))
        running.append(
            Game(
                engine=engine,
                num_players=n,
                options=options,
                status=Game.Status.RUNNING,
                spectators=rng.random() < 0.9,
                rated=rng.random() < 0.5,
                initial_state=state,
                state=state,
                current_position=0,
                started_at=now - timedelta(hours=rng.randrange(1, 500)),
                turn_started_at=now - timedelta(minutes=rng.randrange(1, 5000)),
            )
        )
    running = Game.objects.bulk_create(running)
    Seat.objects.bulk_create(
        Seat(game=game, user=person, position=position, colour=Seat.COLOURS[position])
        for game in running
        for position, person in enumerate(rng.sample(users, game.num_players))
    )


def rate_in_memory(game, seats, results, ratings: dict, changes: list) -> None:
    """What ``rate_game`` would have stored for ``game``, kept in memory: each holder's
    (rating, games, wins, last game) in ``ratings``, one ``RatingChange`` per seat in
    ``changes`` (its ``rating_id`` the holder's key until the ratings are stored)."""
    from players.models import RatingChange
    from players.ratings import MODEL, shown

    ladder = game.spec.ladder_for(game.num_players).key
    keys = [(ladder, s.user_id, "" if s.user_id else s.ai_level) for s in seats]
    before = [ratings.get(k, (MODEL.rating(), 0, 0, None))[0] for k in keys]
    placements = [r.placement for r in results]
    after = MODEL.rate([[r] for r in before], ranks=placements)
    for key, old, (new,), placement, seat in zip(
        keys, before, after, placements, seats, strict=True
    ):
        _, played, won, _ = ratings.get(key, (None, 0, 0, None))
        ratings[key] = (new, played + 1, won + (placement == 1), game.finished_at)
        changes.append(
            RatingChange(
                game=game,
                position=seat.position,
                rating_id=key,
                placement=placement,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                value_before=shown(old.mu, old.sigma),
                value_after=shown(new.mu, new.sigma),
                at=game.finished_at,
            )
        )


def time_rating_updates(args, rng: random.Random) -> tuple[list[float], list[float], int]:
    """CPU and wall ms of ``rate_game`` for ``--rate`` new four-seat games of rated players,
    each in its own transaction; the SQL queries of one."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from games.models import Game, Result, Seat
    from players.models import Rating
    from players.ratings import rate_game

    rated = list(
        Rating.objects.filter(ladder="puerto_rico", user__isnull=False).values_list(
            "user_id", flat=True
        )[:2000]
    )
    cpu, wall, queries = [], [], 0
    for number in range(args.rate):
        game = Game.objects.create(
            engine="puerto_rico",
            num_players=4,
            status=Game.Status.FINISHED,
            rated=True,
            finished_at=timezone.now(),
        )
        placements = [1, 2, 3, 4]
        rng.shuffle(placements)
        for position, user_id in enumerate(rng.sample(rated, 4)):
            seat = Seat.objects.create(game=game, user_id=user_id, position=position)
            Result.objects.create(
                game=game,
                seat=seat,
                position=position,
                user_id=user_id,
                played_by=Result.PlayedBy.PERSON,
                person_decisions=50,
                ai_decisions=0,
                placement=placements[position],
                score=50,
                parts={},
                tiebreak={},
            )
        game = Game.objects.with_seats().get(pk=game.pk)
        started, clock = time.process_time(), time.perf_counter()
        with CaptureQueriesContext(connection) as captured, transaction.atomic():
            assert len(rate_game(game)) == 4
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
        if number == 0:
            queries = len(captured)
    return cpu, wall, queries


def pages() -> list[tuple[str, str]]:
    from django.db.models import Count
    from django.urls import reverse

    from accounts.models import User

    counts = User.objects.annotate(n=Count("results")).order_by("-n").values_list("username", "n")
    busiest, most = counts[0]
    typical = next(name for name, n in counts[len(counts) // 2 : len(counts) // 2 + 1])
    return [
        ("leaderboard, page 1", reverse("players:leaderboard", args=["puerto_rico"])),
        ("leaderboard, page 20", reverse("players:leaderboard", args=["puerto_rico"]) + "?page=20"),
        (f"player page, busiest ({most} games)", reverse("players:player", args=[busiest])),
        ("player page, a median player", reverse("players:player", args=[typical])),
        ("archive, page 1", reverse("games:archive")),
        ("archive, one player's games", reverse("games:archive") + f"?player={busiest}"),
        ("watch, page 1", reverse("games:watch")),
        ("API: a player", reverse("api:player", args=[busiest])),
        ("API: a leaderboard", reverse("api:leaderboard", args=["puerto_rico"])),
    ]


def measure_page(client, url: str, repeat: int) -> tuple[list[float], list[float], int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    assert client.get(url, secure=True).status_code == 200, url
    cpu, wall = [], []
    with CaptureQueriesContext(connection) as captured:
        client.get(url, secure=True)
    queries = len(captured)  # read now: it slices the connection's log, which requests reset
    for _ in range(repeat):
        started, clock = time.process_time(), time.perf_counter()
        client.get(url, secure=True)
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
    return cpu, wall, queries


def main() -> None:
    began = time.monotonic()
    args = parse_args()
    if not args.reuse and not recreate_database(args.server, args.database):
        if os.environ.get("CI", "").lower() == "true":
            raise SystemExit("CI=true: the players' benchmark needs PostgreSQL")
        print("skipped: the players' benchmark needs PostgreSQL")
        return
    with tempfile.TemporaryDirectory(prefix="puerto-bench-") as folder:
        os.environ.update(production_environment(args, Path(folder)))
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        from django.db import connection
        from django.test import Client

        from accounts.models import User

        rng = random.Random(args.seed)
        if not args.reuse:
            print(f"filling: {args.players} players, {args.games} finished games", flush=True)
            fill(args, rng)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        filled = time.monotonic() - began
        calibration = calibration_ms()
        cpu, wall, queries = time_rating_updates(args, rng)
        print(f"filled in {filled:.0f} s; calibration {calibration:.3f} ms")
        print(f"  {'measure':<44}{'queries':>8}{'CPU p50':>9}{'p95':>7}{'wall p50':>10}{'p95':>7}")
        print(
            f"  {'rating update of a 4-seat game':<44}{queries:>8}{p(cpu, 50):>9.1f}"
            f"{p(cpu, 95):>7.1f}{p(wall, 50):>10.1f}{p(wall, 95):>7.1f}"
        )
        stranger, _ = User.objects.get_or_create(username="stranger")
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(stranger)
        for label, url in pages():
            cpu, wall, queries = measure_page(client, url, args.repeat)
            print(
                f"  {label:<44}{queries:>8}{p(cpu, 50):>9.1f}{p(cpu, 95):>7.1f}"
                f"{p(wall, 50):>10.1f}{p(wall, 95):>7.1f}"
            )
    print(f"{time.monotonic() - began:.0f} s in all")


if __name__ == "__main__":
    main()
