"""Strength of the AI levels: four-player tournaments, one tested bot against three of another
level, the tested bot in each seat equally often; Puerto Rico, or Amerigo with ``--game``.

Games come in fours on one deal (the same ``new_game`` seed): the tested bot sits in seat 0,
1, 2 and 3 in turn, so neither the deal nor the seat favours it. A tie for the win counts as
1/k of a win. Each bot sees only its seat's ``player_view``. Prints a progress bar on stderr
and a table on stdout: win rate with a 95 % Wilson interval, average scores, seconds per move.

    python bench/bench_ai.py                       # every pairing, 100 games each
    python bench/bench_ai.py --pairing hard-medium --games 40 --simulations 0   # full 2 s budget
    python bench/bench_ai.py --game amerigo --games 100    # Amerigo: every pairing
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose_action
from games.bots.search import DEFAULT_BUDGET
from games.engines import amerigo, puerto_rico

PAIRINGS = {
    "medium-easy": ("medium", "easy", 0.40),
    "hard-medium": ("hard", "medium", 0.40),
    "hard-easy": ("hard", "easy", 0.60),
}
"""name: (tested level, level of the three others, target win rate; chance is 25 %)."""
GAMES = {
    "puerto_rico": (puerto_rico, PAIRINGS),
    "amerigo": (
        amerigo,
        {"medium-easy": ("medium", "easy", 0.60), "hard-medium": ("hard", "medium", 0.40)},
    ),
}
"""Each game's engine and its pairings."""
PLAYERS = 4
DEFAULT_SIMULATIONS = 50


def play_game(task: tuple[str, str, str, int, int, int | None]) -> dict:
    """One game; returns the tested seat's result, the scores and the move times."""
    game, tested, other, deal, seat, simulations = task
    engine = GAMES[game][0]
    state = engine.new_game(PLAYERS, seed=deal)
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
            level=level,
            seed=deal * 10_000 + move,
            simulations=simulations if level == "hard" else None,
        )
        times[level].append(time.perf_counter() - start)
        state = engine.apply(state, action, inplace=True)
        move += 1
    winners = engine.winners(state)
    totals = [s["total"] for s in engine.scores(state)]
    return {
        "win": 1 / len(winners) if seat in winners else 0.0,
        "score": totals[seat],
        "others": sum(t for i, t in enumerate(totals) if i != seat) / (PLAYERS - 1),
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
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument(
        "--pairing",
        choices=sorted({name for _, pairings in GAMES.values() for name in pairings} | {"all"}),
        default="all",
        help="one pairing, or all (default)",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=DEFAULT_SIMULATIONS,
        help=f"hard player's simulations per move (default {DEFAULT_SIMULATIONS}); "
        f"0: its full time budget of {DEFAULT_BUDGET:g} s a move instead",
    )
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="first deal (default 0)")
    args = parser.parse_args()
    pairings = GAMES[args.game][1]
    if args.pairing not in (*pairings, "all"):
        parser.error(f"{args.game} has the pairings {', '.join(pairings)}")
    names = list(pairings) if args.pairing == "all" else [args.pairing]
    simulations = args.simulations or None
    deals = math.ceil(args.games / PLAYERS)

    tasks = [
        (args.game, pairings[name][0], pairings[name][1], args.seed + d, seat, simulations)
        for name in names
        for d in range(deals)
        for seat in range(PLAYERS)
    ]
    keys = [name for name in names for _ in range(deals * PLAYERS)]
    hard = f"{simulations} simulations a move" if simulations else f"{DEFAULT_BUDGET:g} s a move"
    print(f"python {platform.python_version()}, {args.jobs} processes, hard player: {hard}")
    print(f"{args.game}: {deals * PLAYERS} games per pairing ({deals} deals x {PLAYERS} seats)")

    results: dict[str, list[dict]] = defaultdict(list)
    started = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        ordered = pool.imap(play_game, tasks)
        for i, (key, result) in enumerate(zip(keys, ordered, strict=True)):
            results[key].append(result)
            progress(i + 1, len(tasks), started)
    sys.stderr.write("\n")

    print()
    print("| pairing | games | win rate | 95 % interval | target | score | rivals' score |")
    print("|---|---|---|---|---|---|---|")
    times: dict[str, list[float]] = defaultdict(list)
    for name in names:
        tested, other, target = pairings[name]
        rows = results[name]
        n = len(rows)
        wins = sum(r["win"] for r in rows)
        low, high = wilson(wins, n)
        verdict = "met" if wins / n >= target else "NOT MET"
        score = sum(r["score"] for r in rows) / n
        rivals = sum(r["others"] for r in rows) / n
        print(
            f"| {tested} vs 3 {other} | {n} | {wins / n:.1%} | {low:.1%} to {high:.1%}"
            f" | ≥ {target:.0%} ({verdict}) | {score:.1f} | {rivals:.1f} |"
        )
        for r in rows:
            for level, ts in r["times"].items():
                times[level].extend(ts)
    print()
    print("| level | moves | mean s/move | max s/move |")
    print("|---|---|---|---|")
    for level in ("easy", "medium", "hard"):
        if times[level]:
            ts = times[level]
            print(f"| {level} | {len(ts)} | {sum(ts) / len(ts):.4f} | {max(ts):.3f} |")
    print(f"\nwall time {(time.perf_counter() - started) / 60:.1f} min")


if __name__ == "__main__":
    main()
