"""Strength of the AI levels: tournaments of one tested bot against bots of another level,
the tested bot in each seat equally often; Puerto Rico (any edition, 4 or 2 players), or
Amerigo (2, 3 or 4 players) with ``--game``.

Games come in fours (pairs with two players) on one deal (the same ``new_game`` seed): the
tested bot sits in each seat in turn, so neither the deal nor the seat favours it. A tie for
the win counts as 1/k of a win. Each bot sees only its seat's ``player_view``. Prints a
progress bar on stderr and a table on stdout: win rate with a 95 % Wilson interval, average
scores, seconds per move. The hard player's wall-time cap (``halving.CAP``, a safety net on
the site) is lifted: a ladder plays the moves an idle machine plays, whatever runs beside it,
only later (under load, the cap cut the slowest decisions short).

    python bench/bench_ai.py                       # every pairing, 100 games each
    python bench/bench_ai.py --pairing hard-medium --games 40 --simulations 200   # a lighter hard
    python bench/bench_ai.py --pairing hard-reference --players 2   # against the frozen hard
    python bench/bench_ai.py --pairing hard-medium --param horizon=1 --param fitted_roles=1 \
        --simulations 1000                         # the search with other PARAMS
    python bench/bench_ai.py --edition all --players 2     # hard against medium, each edition
    python bench/bench_ai.py --game amerigo --games 100    # Amerigo: every pairing
    python bench/bench_ai.py --game amerigo --players 2 --pairing hard-medium   # two players
    python bench/bench_ai.py --game amerigo --pairing hard-medium --param z=1   # other HARD
    python bench/bench_ai.py --pairing hard-medium --games 8 --seed 300 --record a.jsonl
    python bench/bench_ai.py --tally a.jsonl b.jsonl     # the tables of recorded games

``--record`` appends each game as it ends, so a long ladder can run in pieces (in the
background, over days, on several machines) and ``--tally`` adds the pieces up. The records
of the ladders in ``docs/benchmarks.md`` are kept in ``bench/records/``: ``--tally`` on them
prints those tables again.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hard_2026_11

from games.bots import amerigo as amerigo_bots
from games.bots import choose_action, search
from games.bots import puerto_rico as puerto_rico_bots
from games.engines import amerigo, puerto_rico
from games.engines.puerto_rico.options import EDITIONS


def play_reference(state, view: dict, legal: list, seed: int, **limits) -> object:
    """The hard player of 2026-11-27 (``hard_2026_11``) at its 2 s counted in moves."""
    return hard_2026_11.choose(state, view, seed)


PAIRINGS = {
    4: {
        "medium-easy": ("medium", "easy", 0.40),
        "hard-medium": ("hard", "medium", 0.85),
        "hard-easy": ("hard", "easy", 0.60),
        "hard-reference": ("hard", "hard-2026-11", 0.40),
    },
    2: {
        "hard-medium": ("hard", "medium", 0.70),
        "hard-reference": ("hard", "hard-2026-11", 0.60),
    },
}
"""Per player count, name: (tested level, level of the others, target win rate; chance is
25 % with four players, 50 % with two)."""
EXPANSION_TARGET = 0.70
"""The hard player's target against medium players in an edition with an expansion."""
GAMES = {
    "puerto_rico": (
        puerto_rico,
        {**puerto_rico_bots.BOTS, "hard-2026-11": play_reference},
        PAIRINGS,
        search.PARAMS,
    ),
    "amerigo": (
        amerigo,
        amerigo_bots.BOTS,
        {
            4: {"medium-easy": ("medium", "easy", 0.60), "hard-medium": ("hard", "medium", 0.55)},
            3: {"hard-medium": ("hard", "medium", 0.63)},
            2: {"hard-medium": ("hard", "medium", 0.70)},
        },
        amerigo_bots.HARD,
    ),
}
"""Each game's engine, its bots (Puerto Rico's with the frozen reference of 2026-11-27), its
pairings by player count and its hard player's parameters (``--param``). Amerigo's target
with three players keeps the four-player target's lead over chance (55 % against 25 %: 30
points over 33 %); with two, Puerto Rico's two-player target against medium."""


def play_game(task: tuple[str, str, int, str, str, int, int, int | None]) -> dict:
    """One game; returns the tested seat's result, the scores and the move times."""
    game, edition, players, tested, other, deal, seat, simulations = task
    engine, bots, *_ = GAMES[game]
    options = {"edition": edition} if game == "puerto_rico" else None
    state = engine.new_game(players, seed=deal, options=options)
    times: dict[str, list[float]] = defaultdict(list)
    move = 0
    while not engine.is_over(state):
        actor = engine.current_player(state)
        level = tested if actor == seat else other
        view = engine.player_view(state, actor)
        start = time.perf_counter()
        action = choose_action(
            engine,
            view,
            bots=bots,
            level=level,
            seed=deal * 10_000 + move,
            budget=math.inf,
            simulations=simulations if level == "hard" else None,
        )
        times[level].append(round(time.perf_counter() - start, 4))  # small records
        state = engine.apply(state, action, inplace=True)
        move += 1
    outcome = engine.outcome(state)
    winners = [place.seat for place in outcome if place.placement == 1]
    totals = [place.score for place in outcome]
    return {
        "deal": deal,
        "seat": seat,
        "win": 1 / len(winners) if seat in winners else 0.0,
        "score": totals[seat],
        "others": sum(t for i, t in enumerate(totals) if i != seat) / (players - 1),
        "times": dict(times),
    }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (fractional wins are allowed)."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def progress(done: int, total: int, started: float) -> None:
    width = 40
    filled = width * done // total
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0.0
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games"
        f"  {elapsed / 60:5.1f} min, about {eta / 60:4.1f} min left "
    )
    sys.stderr.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="puerto_rico", help="the game")
    parser.add_argument(
        "--edition",
        choices=(*EDITIONS, "all"),
        default="base",
        help="Puerto Rico edition, or all in turn (default base)",
    )
    parser.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=4, help="players per game (default 4)"
    )
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument(
        "--pairing",
        choices=sorted({n for by_count in PAIRINGS.values() for n in by_count} | {"all"}),
        default="all",
        help="one pairing, or all (default)",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=0,
        help="hard player's playouts per move; 0 (default): its own default, the site's",
    )
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a number in the hard player's parameters (Puerto Rico: search.PARAMS, Amerigo:"
        " amerigo.HARD; inf allowed), instead of its default; repeatable",
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="first deal (default 0)")
    parser.add_argument(
        "--record",
        type=Path,
        help="append each game's result to this file as a JSON line as soon as it ends",
    )
    parser.add_argument(
        "--tally",
        type=Path,
        nargs="+",
        metavar="RECORD",
        help="play nothing: the tables of the games in these --record files",
    )
    args = parser.parse_args()
    if args.tally:
        tally(args.tally)
        return
    _engine, _bots, by_count, params = GAMES[args.game]
    pairings = by_count.get(args.players, {})
    if args.pairing not in (*pairings, "all") or not pairings:
        parser.error(f"{args.game} with {args.players} players has: {', '.join(pairings) or '-'}")
    if args.game != "puerto_rico" and args.edition != "base":
        parser.error("--edition is for Puerto Rico")
    for param in args.param:
        key, _, value = param.partition("=")
        if key not in params:
            parser.error(f"the {args.game} hard player's parameters are {', '.join(params)}")
        params[key] = type(params[key])(float(value))
    names = list(pairings) if args.pairing == "all" else [args.pairing]
    editions = EDITIONS if args.edition == "all" else (args.edition,)
    simulations = args.simulations or None
    players = args.players
    deals = math.ceil(args.games / players)

    runs = [(edition, name) for edition in editions for name in names]
    tasks = [
        (args.game, edition, players, *pairings[name][:2], args.seed + d, seat, simulations)
        for edition, name in runs
        for d in range(deals)
        for seat in range(players)
    ]
    keys = [run for run in runs for _ in range(deals * players)]
    hard = f"{simulations} playouts a move" if simulations else "its default budget a move"
    print(f"python {platform.python_version()}, {args.jobs} processes, hard player: {hard}")
    if args.param:
        print(f"hard player's parameters: {params}")
    print(
        f"{args.game}, {players} players, edition {', '.join(editions)}: {deals * players}"
        f" games per pairing ({deals} deals x {players} seats)"
    )

    results: dict[tuple[str, str], list[dict]] = defaultdict(list)
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        ordered = pool.imap(play_game, tasks)
        for i, (key, result) in enumerate(zip(keys, ordered, strict=True)):
            results[key].append(result)
            if args.record:
                edition, name = key
                line = {"game": args.game, "players": players, "edition": edition}
                with args.record.open("a") as record:
                    record.write(json.dumps({**line, "pairing": name, **result}) + "\n")
            progress(i + 1, len(tasks), started)
    sys.stderr.write("\n")
    report(args.game, players, results)
    print(f"\nwall time {(time.perf_counter() - started) / 60:.1f} min")


def tally(paths: list[Path]) -> None:
    """The tables of recorded games, by game and player count."""
    groups: dict[tuple[str, int], dict[tuple[str, str], list[dict]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for path in paths:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            groups[row["game"], row["players"]][row["edition"], row["pairing"]].append(row)
    for (game, players), results in groups.items():
        deals = sorted({row["deal"] for rows in results.values() for row in rows})
        print(f"{game}, {players} players, deals {deals[0]}-{deals[-1]} ({len(deals)} deals)")
        report(game, players, results)
        print()


def report(game: str, players: int, results: dict[tuple[str, str], list[dict]]) -> None:
    """Win rates against their targets, wins by seat, and the levels' time per move."""
    pairings = GAMES[game][2][players]
    print()
    print(
        "| edition | players | pairing | games | win rate | 95 % interval | target | score"
        " | rivals' score |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    times: dict[str, list[float]] = defaultdict(list)
    seat_lines = []
    for (edition, name), rows in results.items():
        tested, other, target = pairings[name]
        if edition != "base" and name == "hard-medium":
            target = EXPANSION_TARGET
        n = len(rows)
        wins = sum(r["win"] for r in rows)
        low, high = wilson(wins, n)
        verdict = "met" if wins / n >= target else "NOT MET"
        score = sum(r["score"] for r in rows) / n
        rivals = sum(r["others"] for r in rows) / n
        print(
            f"| {edition} | {players} | {tested} vs {players - 1} {other} | {n} | {wins / n:.1%}"
            f" | {low:.1%} to {high:.1%} | ≥ {target:.0%} ({verdict}) | {score:.1f}"
            f" | {rivals:.1f} |"
        )
        seats = defaultdict(list)
        for r in rows:
            seats[r["seat"]].append(r["win"])
            for level, ts in r["times"].items():
                times[level].extend(ts)
        by_seat = ", ".join(
            f"seat {seat + 1} {sum(wins) / len(wins):.0%}" for seat, wins in sorted(seats.items())
        )
        seat_lines.append(f"{edition}, {tested} vs {other}, won by seat: {by_seat}")
    print()
    print("Seat 1 is the first governor (Puerto Rico) or the first to act (Amerigo).")
    print("\n".join(seat_lines))
    print()
    print("| level | moves | mean s/move | max s/move |")
    print("|---|---|---|---|")
    for level in ("easy", "medium", "hard", "hard-2026-11"):
        if times[level]:
            ts = times[level]
            print(f"| {level} | {len(ts)} | {sum(ts) / len(ts):.4f} | {max(ts):.3f} |")


if __name__ == "__main__":
    main()
