"""Speed of the Puerto Rico engine: random games on one core, cloning, JSON, the bots' playouts.

Plays full games with random legal moves (a seeded ``random.Random``, ``apply(..., inplace=True)``)
and prints labelled figures, for the base game and for each expansion (``edition``
``"new_buildings"``, its draft included, ``"nobles"``, and ``"both"`` together), and the
heuristic's playouts (whole games by the medium heuristic with blur for every seat, from a
new four-player base game, as the hard player of 2026-11-27 played them).
``python bench/bench_engine.py --games 2000`` for a longer run. Targets: at least 100
four-player games per second (in every edition), ``State.clone()`` at most 20 µs.

Games per second are given twice: by wall clock, and by the process's CPU time
(``time.process_time()``). On a shared machine other processes take the core away at times;
wall clock then counts their time too, CPU time only this process's, so the CPU figure is the
one to compare between runs (the targets are checked against it).

Against another checkout (the engine as it was, to measure a change)::

    git worktree add /tmp/engine-ref main      # or any commit; not committed anywhere
    .venv/bin/python bench/bench_engine.py --against /tmp/engine-ref
    git worktree remove /tmp/engine-ref

``--against`` first checks that both engines play the same games: for ``--check-games``
seeds of every edition with two and four players (a quarter as many with three and five), the
legal actions at every decision (their number, and of the mayor phase's longer lists of
placements 100 to 200 evenly spread), the events, the state's JSON after every decision, and
the bots' playouts must be identical. Then it times the
four-player base game and the playouts in worker processes, one engine after the other,
``--rounds`` times, and prints each engine's median (CPU time) and their ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
TARGET_GAMES_PER_SECOND = 100
TARGET_CLONE_US = 20.0
EXPANSIONS = ("new_buildings", "nobles", "both")
"""The editions measured besides the base game."""
EDITIONS = ("base", *EXPANSIONS)

rules: ModuleType
policy: ModuleType
knowledge: ModuleType
PLAYOUT_NOISE = 0.45
"""The blur (VP) of the heuristic in the playouts."""


def load_engine(root: Path) -> None:
    """Import the engine and the bots of the checkout at ``root``: this one, or with
    ``--against`` a reference one (in a worker process of its own)."""
    global rules, policy, knowledge
    sys.path.insert(0, str(root))
    rules = importlib.import_module("games.engines.puerto_rico.rules")
    policy = importlib.import_module("games.bots.policy")
    knowledge = importlib.import_module("games.bots.knowledge")


def play(num_players: int, seed: int, edition: str = "base") -> tuple[object, int]:
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


def playout(num_players: int, seed: int, edition: str = "base") -> object:
    """A whole game from a new one, every seat the medium heuristic with blur: the same work
    in any checkout that has the heuristic. Returns the final state."""
    state = rules.new_game(num_players, seed, {"edition": edition})
    rng = random.Random(seed)
    values = knowledge.Values(state)
    while state.phase != "over":
        if state.phase == "role":
            values = knowledge.Values(state)
        rules.apply(state, policy.choose(state, values, rng, PLAYOUT_NOISE), inplace=True)
    return state


def bench_playouts(games: int, first_seed: int) -> dict[str, float]:
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        playout(4, seed)
    cpu = time.process_time() - start
    return {"games": games, "cpu_seconds": cpu, "cpu_playouts_per_s": games / cpu}


def mid_game_state(num_players: int = 4, seed: int = 12345) -> object:
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


# The same games from two engines ---------------------------------------------------------


LISTED = 100
"""The mayor's placements can run to 100,000: of a longer list the check compares this many."""


def sample(count: int) -> range:
    """The indices of a legal action list the check compares: all of a list up to
    ``LISTED`` long, else ``LISTED`` spread evenly from first to last."""
    return range(count) if count <= LISTED else range(0, count, count // LISTED)


def game_digest(num_players: int, seed: int, edition: str) -> str:
    """A fingerprint of one random game: every legal action list in order (its length, and
    a ``sample`` of a long one), every event, and the state's JSON after every decision."""
    action_to_json = importlib.import_module("games.engines.puerto_rico").action_to_json
    digest = hashlib.sha256()

    def add(data: object) -> None:
        digest.update(json.dumps(data, sort_keys=True).encode())

    rng = random.Random(seed)
    state = rules.new_game(num_players, seed, {"edition": edition})
    add(state.to_json())
    while state.phase != "over":
        actions = rules.legal_actions(state)
        add(len(actions))
        add([action_to_json(actions[i]) for i in sample(len(actions))])
        log: list[dict] = []
        rules.apply(state, actions[rng.randrange(len(actions))], log=log, inplace=True)
        add(log)
        add(state.to_json())
    return digest.hexdigest()


def check_digests(games: int, playouts: int) -> dict[str, str]:
    """Fingerprints of the random games and the playouts the check compares, by name."""
    out = {}
    for edition in EDITIONS:
        for n in (2, 3, 4, 5):
            count = games if n in (2, 4) else max(1, games // 4)
            for seed in range(count):
                out[f"{edition} {n}p seed {seed}"] = game_digest(n, seed, edition)
        for seed in range(playouts):
            final = playout(4, seed, edition).to_json()
            out[f"{edition} 4p playout {seed}"] = hashlib.sha256(
                json.dumps(final, sort_keys=True).encode()
            ).hexdigest()
    return out


def worker(task: str, games: int, seed: int) -> None:
    """What a worker process of ``--against`` prints, as JSON."""
    if task == "check":
        print(json.dumps(check_digests(games, max(1, games // 10))))
    elif task == "games":
        print(json.dumps(bench_games(4, games, seed)))
    else:
        print(json.dumps(bench_playouts(games, seed)))


def start_worker(root: Path, task: str, games: int, seed: int) -> subprocess.Popen:
    command = [sys.executable, __file__, "--worker", task, "--root", str(root)]
    command += ["--games", str(games), "--seed", str(seed)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


def result(process: subprocess.Popen) -> dict:
    out, _ = process.communicate()
    if process.returncode:
        raise SystemExit(f"a worker failed: {process.args}")
    return json.loads(out)


def run_worker(root: Path, task: str, games: int, seed: int) -> dict:
    return result(start_worker(root, task, games, seed))


def compare(reference: Path, args: argparse.Namespace) -> None:
    """``--against``: the same games from both engines, then the two engines' speed."""
    print(f"this engine:            {ROOT}")
    print(f"reference engine:       {reference}")
    start = time.perf_counter()
    checks = [start_worker(root, "check", args.check_games, 0) for root in (ROOT, reference)]
    ours, theirs = (result(process) for process in checks)  # side by side: nothing is timed
    differ = [name for name in ours if ours[name] != theirs.get(name)]
    verdict = "identical" if not differ and ours.keys() == theirs.keys() else "DIFFERENT"
    print(
        f"same games:             {verdict} ({len(ours)} games and playouts,"
        f" {time.perf_counter() - start:.0f} s)"
    )
    for name in differ[:10]:
        print(f"  differs: {name}")
    figures = {
        "games": ("4p base games/s", "cpu_games_per_s", args.games),
        "playouts": ("4p base playouts/s", "cpu_playouts_per_s", args.playouts),
    }
    for task, (label, key, games) in figures.items():
        measured: dict[str, list[float]] = {"reference": [], "this": []}
        for _ in range(args.rounds):  # in turns, so that both see the same load
            measured["reference"].append(run_worker(reference, task, games, args.seed)[key])
            measured["this"].append(run_worker(ROOT, task, games, args.seed)[key])
        before = statistics.median(measured["reference"])
        after = statistics.median(measured["this"])
        print(
            f"{label}:".ljust(24)
            + f"reference {before:.1f}, this {after:.1f}, ratio {after / before:.2f}"
            f"  (CPU time, median of {args.rounds} runs of {games})"
        )
    if differ:
        sys.exit(1)


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
    parser.add_argument(
        "--playouts", type=int, default=100, help="four-player playouts (default 100)"
    )
    parser.add_argument(
        "--against", type=Path, help="another checkout's root: compare its engine with this one"
    )
    parser.add_argument(
        "--check-games",
        type=int,
        default=200,
        help="with --against: games per edition and player count compared (default 200)",
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="with --against: timed runs of each (default 5)"
    )
    parser.add_argument("--worker", choices=("check", "games", "playouts"), help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    load_engine(args.root)
    if args.worker:
        worker(args.worker, args.games, args.seed)
        return
    if args.against:
        compare(args.against.resolve(), args)
        return
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
    playouts = bench_playouts(args.playouts, args.seed)
    print(
        f"4p playouts/s:          {playouts['cpu_playouts_per_s']:.1f} by CPU time"
        f"  ({args.playouts} whole-game playouts of the heuristic)"
    )

    state = mid_game_state()
    state_class = type(state)
    clone_us = per_call_us(state.clone, calls=2000, repeats=25)
    verdict = "ok" if clone_us <= TARGET_CLONE_US else "ABOVE TARGET"
    print(
        f"clone (mid-game 4p):    {clone_us:.2f} us median"
        f"  (target <= {TARGET_CLONE_US:.0f} us: {verdict})"
    )
    to_json_us = per_call_us(state.to_json, calls=500, repeats=15)
    data = state.to_json()
    from_json_us = per_call_us(lambda: state_class.from_json(data), calls=500, repeats=15)
    round_trip_us = per_call_us(
        lambda: state_class.from_json(state.to_json()), calls=500, repeats=15
    )
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
