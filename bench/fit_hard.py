"""Fit the weights of the hard Puerto Rico player's playouts (``games/bots/rollout.py``) on
games between heuristic players, and write them to ``games/bots/weights.json``.

Games are played by the heuristic with the playouts' blur on its scores, every edition in
turn, for each player count. At every role choice the script records each role's features
and the role the noise-free heuristic takes there, and every seat's evaluation features; at
the end, the final scores and the winner.

- The evaluation: ``a`` and ``b`` by least squares on the VP each seat still gains, then
  ``a``, ``b`` and the softmax width (``t0 + t1 * rounds left``) together by CMA-ES on the
  cross-entropy of the winner (seeded, so the same games give the same weights).
- The role policy: a softmax regression on the heuristic's choices (gradient descent).

    python bench/fit_hard.py                  # 400 games per player count, about 2 min
    python bench/fit_hard.py --games 100 --dry-run
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cma
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import policy, rollout
from games.bots.knowledge import Values, rounds_left
from games.engines import puerto_rico as pr
from games.engines.puerto_rico.common import uses_nobles
from games.engines.puerto_rico.options import EDITIONS

NOISE = 0.45
"""The blur of the games' heuristic players: the search's own playouts blur so."""
PLAYER_COUNTS = (2, 3, 4, 5)
ROLES = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector")
OUT = Path(__file__).resolve().parent.parent / "games" / "bots" / "weights.json"


def play(num_players: int, seed: int) -> tuple[list, list]:
    """One game: its role choices ``(features by role, the heuristic's role)`` and its
    positions ``(rounds left, scores now, features by seat, final scores, win shares)``."""
    edition = EDITIONS[seed % len(EDITIONS)]
    state = pr.new_game(num_players, seed, {"edition": edition})
    rng = random.Random(seed)
    choices, positions = [], []
    values = Values(state)
    while state.phase != "over":
        if state.phase == "role":
            values = Values(state)
            if policy.guest_move(state, values) is None:
                scored = policy.scored_actions(state, values)
                best = max(scored, key=lambda sa: sa[0])[1].role
                choices.append((rollout.role_features(state), best))
                nobles = uses_nobles(state)
                positions.append(
                    (
                        rounds_left(state),
                        [rollout.score(pl, nobles) for pl in state.players],
                        [rollout.evaluation_features(pl) for pl in state.players],
                    )
                )
        pr.apply(state, policy.choose(state, values, rng, NOISE), inplace=True)
    final = [place.score for place in pr.outcome(state)]
    wins = rollout.win_chances(state)
    return choices, [(*p, final, wins) for p in positions]


def fit_evaluation(positions: list, seed: int) -> dict:
    """Least squares for the gains, then CMA-ES on the winner's cross-entropy."""
    k = len(rollout.EVALUATION_FEATURES)
    r = np.array([p[0] for p in positions])
    now = np.array([p[1] for p in positions], dtype=float)
    feats = np.array([p[2] for p in positions], dtype=float)  # positions x seats x k
    final = np.array([p[3] for p in positions], dtype=float)
    wins = np.array([p[4] for p in positions], dtype=float)
    # Gains: a + b * r per feature, plus a common a0 + b0 * r (the same for every seat).
    rows = np.concatenate(
        [
            feats,
            feats * r[:, None, None],
            np.ones_like(feats[..., :1]),
            np.broadcast_to(r[:, None, None], feats[..., :1].shape),
        ],
        axis=2,
    ).reshape(-1, 2 * k + 2)
    gains = (final - now).reshape(-1)
    coef, *_ = np.linalg.lstsq(rows, gains, rcond=None)

    def loss(x: np.ndarray) -> float:
        a, b, t0, t1 = x[:k], x[k : 2 * k], x[2 * k], x[2 * k + 1]
        width = np.maximum(0.5, t0 + t1 * r)
        expected = now + np.einsum("psk,pk->ps", feats, a[None, :] + b[None, :] * r[:, None])
        z = expected / width[:, None]
        z -= z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return float(-(wins * logp).sum() / len(positions))

    start = np.concatenate([coef[:k], coef[k : 2 * k], [2.0, 1.0]])
    es = cma.CMAEvolutionStrategy(
        start, 0.2, {"seed": seed + 1, "verbose": -9, "maxfevals": 6000, "tolfun": 1e-7}
    )
    es.optimize(loss)
    best = es.result.xbest
    print(f"  evaluation: cross-entropy {loss(start):.4f} (least squares) -> {loss(best):.4f}")
    return {
        "a": [round(float(v), 4) for v in best[:k]],
        "b": [round(float(v), 4) for v in best[k : 2 * k]],
        "t0": round(float(best[2 * k]), 4),
        "t1": round(float(best[2 * k + 1]), 4),
    }


def fit_roles(choices: list) -> dict:
    """Softmax regression of the heuristic's role on each role's features."""
    k = len(rollout.ROLE_FEATURES)
    index = {role: i for i, role in enumerate(ROLES)}
    # Every choice as a padded matrix: roles x features, a mask of the roles on offer.
    x = np.zeros((len(choices), len(ROLES), k))
    mask = np.zeros((len(choices), len(ROLES)), dtype=bool)
    y = np.zeros(len(choices), dtype=int)
    for n, (features, best) in enumerate(choices):
        for role, f in features.items():
            x[n, index[role]] = f
            mask[n, index[role]] = True
        y[n] = index[best]
    scale = np.maximum(1.0, np.abs(x).max(axis=(0, 1)))
    xs = x / scale
    w = np.zeros((len(ROLES), k))
    for _ in range(3000):
        logits = np.where(mask, np.einsum("nrk,rk->nr", xs, w), -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        p[np.arange(len(y)), y] -= 1.0
        w -= 0.5 * np.einsum("nr,nrk->rk", p, xs) / len(y)
    logits = np.where(mask, np.einsum("nrk,rk->nr", xs, w), -np.inf)
    agree = float((logits.argmax(axis=1) == y).mean())
    print(f"  roles: the fitted policy's favourite is the heuristic's in {agree:.1%}")
    weights = w / scale
    return {role: [round(float(v), 4) for v in weights[i]] for role, i in index.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per player count")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args()
    weights: dict[str, dict] = {"evaluation": {}, "roles": {}}
    for n in PLAYER_COUNTS:
        choices, positions = [], []
        for seed in range(args.seed, args.seed + args.games):
            c, p = play(n, seed)
            choices += c
            positions += p
        print(f"{n} players: {len(positions)} positions, {len(choices)} role choices")
        weights["evaluation"][str(n)] = fit_evaluation(positions, args.seed)
        weights["roles"][str(n)] = fit_roles(choices)
    text = json.dumps(weights, indent=1) + "\n"
    if args.dry_run:
        print(text)
    else:
        OUT.write_text(text)
        print(f"written to {OUT}")


if __name__ == "__main__":
    main()
