"""Fit the heuristic's weights (``games/bots/knowledge.W``) by self-play: CMA-ES looks for the
weights whose player, in each seat in turn, does best against players of other weights (the
site's own by default, the medium level's), and the result is checked on deals the fit never
saw.

A candidate's fitness is the search's own reward (``search.reward``: half for the win, a
quarter for the margin over the best rival, capped at 10 VP), averaged over its games. Each
generation plays new deals, the same for all its candidates, so candidates are compared on
equal deals and the fit does not learn a handful of deals by heart. The deals go round the
tables asked for (players and edition), so the weights an edition alone uses are fitted too.
Everything is seeded: the same command gives the same weights.

    python bench/fit_weights.py --generations 20 --deals 100 --out w.json
    python bench/fit_weights.py --tables 4:base,4:nobles,2:base --against w.json --out w2.json
    python bench/fit_weights.py --check w.json --deals 250     # only the check
    python bench/fit_weights.py --check w.json --against w.json --blur 0.25   # a playout's blur
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import cma

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_ai import wilson

from games.bots import knowledge, policy, rollout, search
from games.bots.knowledge import Values
from games.engines import puerto_rico as pr
from games.engines.puerto_rico import rules

SITE = dict(knowledge.W)
"""The site's weights: the fit's rivals and its starting point unless ``--against`` says."""
NAMES = sorted(SITE)
CHECK_SEED = 1_000_000
"""First deal of the check, far from the fit's deals."""
Table = tuple[int, str]
"""Players and edition."""


def weights(x: list[float], start: dict[str, float]) -> dict[str, float]:
    """A point of the search space as weights: each starting weight times ``1 + x`` (a
    weight of 0 moves by ``x / 2`` VP), never below 0."""
    return {
        name: max(0.0, start[name] * (1 + v) if start[name] else v / 2)
        for name, v in zip(NAMES, x, strict=True)
    }


def play(
    deal: int,
    seat: int,
    tried: dict[str, float],
    rivals: dict[str, float],
    table: Table,
    blur: float = 0.0,
) -> tuple[float, float]:
    """One game: ``tried`` in ``seat``, its scores blurred by ``blur`` VP, ``rivals``
    elsewhere. The seat's reward and its win (a tie for the win shared)."""
    players, edition = table
    state = pr.new_game(players, seed=deal, options={"edition": edition})
    rng = random.Random(deal)
    while state.phase != "over":
        mine = state.current == seat
        knowledge.W.update(tried if mine else rivals)
        move = policy.choose(state, Values(state), rng, blur if mine else 0.0)
        rules.apply(state, move, inplace=True)
    knowledge.W.update(SITE)
    win = rollout.win_chances(state)[seat]
    return search.reward(rollout.scores(state), seat, win), win


def games(
    tried: dict[str, float],
    rivals: dict[str, float],
    deals: range,
    tables: list[Table],
    blur: float = 0.0,
) -> list[tuple[float, float]]:
    """Each deal at the next of ``tables``, in every seat."""
    return [
        play(d, s, tried, rivals, table, blur)
        for i, d in enumerate(deals)
        for table in [tables[i % len(tables)]]
        for s in range(table[0])
    ]


def fit(args: argparse.Namespace, rivals: dict[str, float]) -> dict[str, float]:
    """Start at ``rivals`` and move away from them where that wins more."""
    strategy = cma.CMAEvolutionStrategy(
        [0.0] * len(NAMES), args.sigma, {"seed": args.seed, "verbose": -9}
    )
    for generation in range(args.generations):
        began = time.perf_counter()
        first = args.seed * 100_000 + generation * args.deals
        deals = range(first, first + args.deals)
        points = strategy.ask()
        fitness = []
        for x in points:
            results = games(weights(x, rivals), rivals, deals, args.tables)
            fitness.append(sum(r for r, _ in results) / len(results))
        strategy.tell(points, [-f for f in fitness])
        print(
            f"generation {generation + 1}: best {max(fitness):.4f}, mean"
            f" {sum(fitness) / len(fitness):.4f}, {time.perf_counter() - began:.0f} s",
            flush=True,
        )
    return weights(strategy.result.xfavorite, rivals)


def check(tried: dict[str, float], rivals: dict[str, float], args: argparse.Namespace) -> None:
    """The fitted weights against their rivals on deals the fit never played, ``--deals`` of
    them at each table."""
    deals = range(CHECK_SEED, CHECK_SEED + args.deals)
    for table in args.tables:
        results = games(tried, rivals, deals, [table], args.blur)
        wins = sum(w for _, w in results)
        low, high = wilson(wins, len(results))
        print(
            f"check {table[0]}:{table[1]}: {len(results)} games, won"
            f" {wins / len(results):.1%} (95 % {low:.1%} to {high:.1%}; chance"
            f" {1 / table[0]:.0%}), reward {sum(r for r, _ in results) / len(results):.4f}",
            flush=True,
        )


def tables(text: str) -> list[Table]:
    """``4:base,2:base,4:nobles`` as tables."""
    return [(int(n), edition) for n, edition in (t.split(":") for t in text.split(","))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables", type=tables, default=[(4, "base")], help="players:edition,... to play"
    )
    parser.add_argument(
        "--against", type=Path, help="the rivals' weights (JSON); the site's if not given"
    )
    parser.add_argument("--generations", type=int, default=20)
    parser.add_argument("--deals", type=int, default=100, help="deals a candidate plays")
    parser.add_argument("--sigma", type=float, default=0.2, help="CMA-ES's first step")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the fitted weights here (JSON)")
    parser.add_argument("--check", type=Path, help="check these weights only")
    parser.add_argument(
        "--blur", type=float, default=0.0, help="the checked player's blur (VP), as a playout's"
    )
    args = parser.parse_args()
    rivals = json.loads(args.against.read_text()) if args.against else SITE
    if args.check:
        check(json.loads(args.check.read_text()), rivals, args)
        return
    fitted = fit(args, rivals)
    changed = {k: round(v, 4) for k, v in fitted.items() if not math.isclose(v, rivals[k])}
    print(json.dumps(changed, indent=1))
    if args.out:
        args.out.write_text(json.dumps(fitted, indent=1, sort_keys=True) + "\n")
    check(fitted, rivals, args)


if __name__ == "__main__":
    main()
