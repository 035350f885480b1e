"""Fit the value model (``value.predict``) and write ``weights.py``.

    python -m games.bots.train --games 1500 --jobs 2

Plays games between heuristic players of mixed noise, records every seat's features at role
choices, and fits one ridge regression of the VP still to come per player count and stage. Pure
Python: the sums of the normal equations are accumulated over the non-zero features only.
Rerun it whenever the heuristics or the features change; it prints each model's fit.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from pathlib import Path

from games.engines.puerto_rico import rules
from games.engines.puerto_rico.options import PLAYER_COUNTS
from games.engines.puerto_rico.scoring import scores

from . import policy
from .knowledge import Values
from .value import NAMES, STAGES, features, stage

NOISES = (0.0, 0.15, 0.3, 0.45)
RIDGE = 3.0
OUT = Path(__file__).with_name("weights.py")


def play(task: tuple[int, int]) -> list[tuple[int, list[float], float]]:
    """One game; rows of (stage, features, VP still to come) for a sample of role choices.

    All seats play with the same noise, so that a feature does not stand for a weaker player.
    """
    num_players, seed = task
    rng = random.Random(seed)
    noise = rng.choice(NOISES)
    state = rules.new_game(num_players, seed)
    samples = []
    while state.phase != "over":
        values = Values(state)
        if state.phase == "role" and rng.random() < 0.5:
            for seat in range(num_players):
                won, x = features(state, seat, values)
                samples.append((seat, stage(values), won, x))
        action = policy.choose(state, values, rng, noise)
        rules.apply(state, action, inplace=True)
    final = [s["total"] for s in scores(state)]
    return [(st, x, final[seat] - won) for seat, st, won, x in samples]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (``a`` is small and well conditioned)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        for r in range(col + 1, n):
            f = m[r][col] / p
            if f:
                row, top = m[r], m[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: list[tuple[list[float], float]]) -> tuple[list[float], float, float]:
    """Ridge regression (the bias unpenalised); returns weights, R² and residual sd."""
    k = len(NAMES)
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in rows:
        nz = [(i, v) for i, v in enumerate(x) if v]
        for i, vi in nz:
            ai = a[i]
            b[i] += vi * y
            for j, vj in nz:
                ai[j] += vi * vj
    for i in range(1, k):
        a[i][i] += RIDGE
    w = solve(a, b)
    mean = sum(y for _, y in rows) / len(rows)
    sse = sum((sum(wi * xi for wi, xi in zip(w, x, strict=True)) - y) ** 2 for x, y in rows)
    sst = sum((y - mean) ** 2 for _, y in rows) or 1.0
    return w, 1 - sse / sst, (sse / len(rows)) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500, help="games per player count")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1_000_000)
    args = parser.parse_args()
    weights: dict[int, list[list[float]]] = {}
    with multiprocessing.Pool(args.jobs) as pool:
        for n in PLAYER_COUNTS:
            tasks = [(n, args.seed + g) for g in range(args.games)]
            by_stage: list[list[tuple[list[float], float]]] = [[] for _ in range(len(STAGES) + 1)]
            for rows in pool.imap_unordered(play, tasks, chunksize=8):
                for st, x, y in rows:
                    by_stage[st].append((x, y))
            weights[n] = []
            for st, rows in enumerate(by_stage):
                w, r2, sd = fit(rows)
                weights[n].append([round(v, 4) for v in w])
                print(f"{n} players, stage {st}: {len(rows)} rows, R² {r2:.3f}, sd {sd:.2f} VP")
    lines = [
        '"""Weights of the value model, written by ``python -m games.bots.train``: do not edit."""',
        "",
        "# fmt: off",
        "WEIGHTS = {",
    ]
    for n, stages in weights.items():
        lines.append(f"    {n}: [")
        for w in stages:
            lines.append("        [")
            lines.extend(
                "            " + ", ".join(repr(v) for v in w[i : i + 8]) + ","
                for i in range(0, len(w), 8)
            )
            lines.append("        ],")
        lines.append("    ],")
    lines += ["}", "# fmt: on", ""]
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
