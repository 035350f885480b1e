"""Speed of the Puerto Rico engine: random games on one core, cloning, JSON.

Plays full games with random legal moves (a seeded ``random.Random``, ``apply(..., inplace=True)``)
and prints labelled figures, for the base game and for each expansion (``edition``
``"new_buildings"``, its draft included, ``"nobles"``, and ``"both"`` together).
``python bench/bench_engine.py --games 2000`` for a longer run. Targets: at least 100
four-player games per second (in every edition), ``State.clone()`` at most 20 µs.

Games per second are given twice: by wall clock, and by the process's CPU time
(``time.process_time()``). On a shared machine other processes take the core away at times;
wall clock then counts their time too, CPU time only this process's, so the CPU figure is the
one to compare between runs (the targets are checked against it).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines.puerto_rico import rules
from games.engines.puerto_rico.state import State

TARGET_GAMES_PER_SECOND = 100
TARGET_CLONE_US = 20.0
EXPANSIONS = ("new_buildings", "nobles", "both")
"""The editions measured besides the base game."""


def play(num_players: int, seed: int, edition: str = "base") -> tuple[State, int]:
    """One full random game; returns the final state and the number of decisions."""
    rng = random.Random(seed)
    state = rules.new_game(num_players, seed, {"edition": edition})
    legal_actions, apply = rules.legal_actions, rules.apply
    decisions = 0
    while state.phase != "over":
        actions = legal_actions(state)
        apply(state, actions[rng.randrange(len(actions))], inplace=True)
        decisions += 1
    return state, decisions


def bench_games(
    num_players: int, games: int, first_seed: int, edition: str = "base"
) -> dict[str, float]:
    counts = []
    start, start_cpu = time.perf_counter(), time.process_time()
    for seed in range(first_seed, first_seed + games):
        counts.append(play(num_players, seed, edition)[1])
    cpu = time.process_time() - start_cpu
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "games_per_s": games / elapsed,
        "cpu_games_per_s": games / cpu,
        "mean": statistics.fmean(counts),
        "min": min(counts),
        "max": max(counts),
        "us_per_decision": cpu / sum(counts) * 1e6,
    }


def mid_game_state(num_players: int = 4, seed: int = 12345) -> State:
    """A position halfway through a random game."""
    _, decisions = play(num_players, seed)
    rng = random.Random(seed)
    state = rules.new_game(num_players, seed)
    for _ in range(decisions // 2):
        actions = rules.legal_actions(state)
        rules.apply(state, actions[rng.randrange(len(actions))], inplace=True)
    return state


def per_call_us(fn, calls: int, repeats: int) -> float:
    """Median over ``repeats`` batches of ``calls`` calls, in µs per call."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500, help="four-player games (default 1500)")
    parser.add_argument(
        "--other-games",
        type=int,
        default=None,
        help="two-, three- and five-player games each (default: half of --games)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args()
    other = args.other_games if args.other_games is not None else max(1, args.games // 2)

    print(f"python:                 {platform.python_version()} ({platform.machine()})")
    print(f"games (4 players):      {args.games}, seeds {args.seed}..{args.seed + args.games - 1}")

    four = bench_games(4, args.games, args.seed)
    verdict = "ok" if four["cpu_games_per_s"] >= TARGET_GAMES_PER_SECOND else "BELOW TARGET"
    print(
        f"4p games/s:             {four['cpu_games_per_s']:.1f} by CPU time,"
        f" {four['games_per_s']:.1f} by wall clock"
        f"  (target >= {TARGET_GAMES_PER_SECOND} by CPU time: {verdict})"
    )
    print(f"4p decisions/game:      mean {four['mean']:.1f}, min {four['min']}, max {four['max']}")
    print(f"4p us/decision:         {four['us_per_decision']:.2f} (CPU time)")

    state = mid_game_state()
    clone_us = per_call_us(state.clone, calls=2000, repeats=25)
    verdict = "ok" if clone_us <= TARGET_CLONE_US else "ABOVE TARGET"
    print(
        f"clone (mid-game 4p):    {clone_us:.2f} us median"
        f"  (target <= {TARGET_CLONE_US:.0f} us: {verdict})"
    )
    to_json_us = per_call_us(state.to_json, calls=500, repeats=15)
    data = state.to_json()
    from_json_us = per_call_us(lambda: State.from_json(data), calls=500, repeats=15)
    round_trip_us = per_call_us(lambda: State.from_json(state.to_json()), calls=500, repeats=15)
    print(f"to_json (mid-game 4p):  {to_json_us:.1f} us median")
    print(f"from_json (mid-game 4p): {from_json_us:.1f} us median")
    print(f"json round trip:        {round_trip_us:.1f} us median (from_json(to_json(s)))")

    for n in (2, 3, 5):
        report(f"{n}p", bench_games(n, other, args.seed))
    for edition in EXPANSIONS:
        label = edition.replace("_", " ")
        for n in (2, 3, 4, 5):
            r = bench_games(n, args.games if n == 4 else other, args.seed, edition)
            report(f"{label} {n}p", r)
            if n == 4:
                ok = r["cpu_games_per_s"] >= TARGET_GAMES_PER_SECOND
                verdict = "ok" if ok else "BELOW TARGET"
                print(
                    f"{label} 4p target >= {TARGET_GAMES_PER_SECOND} games/s by CPU time: {verdict}"
                )


def report(label: str, r: dict[str, float]) -> None:
    print(
        f"{label} games/s:".ljust(26)
        + f"{r['cpu_games_per_s']:.1f} CPU, {r['games_per_s']:.1f} wall"
        f"  ({r['games']} games; decisions mean {r['mean']:.1f},"
        f" min {r['min']}, max {r['max']}; {r['us_per_decision']:.2f} CPU us/decision)"
    )


if __name__ == "__main__":
    main()
