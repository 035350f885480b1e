"""Fit the evaluation that ends the hard Amerigo player's playouts (``games/bots/amerigo.py``)
on games between medium players, and write it to ``games/bots/amerigo_weights.json``.

At every change of turn the script records each seat's parts of the medium player's estimate
(``amerigo.terms``) and the share of the game still to play; at the end, the final scores. Each
part is weighed by ``a + b * later`` (``later`` the share left), ``a`` and ``b`` by least
squares on the final score (with a constant, which cancels in the search's margins and is not
written). The medium players see the whole state: they only supply positions.

    python bench/fit_amerigo.py                 # 300 games per player count, about 15 min
    python bench/fit_amerigo.py --games 20 --dry-run
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import amerigo as bot
from games.engines import amerigo as am

OUT = Path(__file__).resolve().parent.parent / "games" / "bots" / "amerigo_weights.json"


def play(num_players: int, seed: int) -> list[tuple[float, list[float], float]]:
    """One game between medium players: ``(later, terms, final score)`` for every seat at
    every change of turn."""
    state = am.new_game(num_players, seed)
    at = (state.round, state.turn)
    rows = []
    while not am.is_over(state):
        if (state.round, state.turn) != at and state.phase == "choose":
            at = (state.round, state.turn)
            later = bot.later_share(state)
            rows += [(later, bot.terms(state, s, state), s) for s in range(num_players)]
        action = bot.play_medium(state, {}, am.legal_actions(state), seed)
        state = am.apply(state, action, inplace=True)
    final = {o.seat: o.score for o in am.outcome(state)}
    return [(later, t, final[s]) for later, t, s in rows]


def columns(later: np.ndarray, terms: np.ndarray) -> np.ndarray:
    """Each term, then each term times ``later``, then the constant and ``later``."""
    return np.hstack([terms, terms * later[:, None], np.ones_like(later)[:, None], later[:, None]])


def fit(rows: list) -> tuple[dict, float, float]:
    """The weights, and the mean squared error of the fitted and of the hand-set estimate
    (every term weighed 1, scaled and shifted by least squares too) on the last fifth of the
    rows (fitted on the rest)."""
    later = np.array([r[0] for r in rows])
    terms = np.array([r[1] for r in rows])
    final = np.array([r[2] for r in rows], dtype=float)
    cut = len(rows) * 4 // 5
    x = columns(later, terms)
    coef, *_ = np.linalg.lstsq(x[:cut], final[:cut], rcond=None)
    held = final[cut:]
    fitted_error = float(np.mean((x[cut:] @ coef - held) ** 2))
    hand = columns(later, terms.sum(axis=1, keepdims=True))
    scale, *_ = np.linalg.lstsq(hand[:cut], final[:cut], rcond=None)
    hand_error = float(np.mean((hand[cut:] @ scale - held) ** 2))
    coef, *_ = np.linalg.lstsq(x, final, rcond=None)
    k = len(bot.TERMS)
    weights = {
        "a": [round(float(c), 4) for c in coef[:k]],
        "b": [round(float(c), 4) for c in coef[k : 2 * k]],
    }
    return weights, fitted_error, hand_error


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per player count")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed (default 0)")
    parser.add_argument("--players", type=int, nargs="+", default=list(am.PLAYER_COUNTS))
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args()
    out = {"terms": list(bot.TERMS), "games": args.games, "seed": args.seed}
    for n in args.players:
        rows = []
        for seed in range(args.seed, args.seed + args.games):
            rows += play(n, seed)
        weights, fitted_error, hand_error = fit(rows)
        print(
            f"{n} players: {len(rows)} positions; held-out mean squared error of the final"
            f" score: fitted {fitted_error:.1f}, hand-set {hand_error:.1f}"
        )
        out[str(n)] = weights
    text = json.dumps(out, indent=1) + "\n"
    if args.dry_run:
        print(text)
    else:
        OUT.write_text(text)
        print(f"written to {OUT}")


if __name__ == "__main__":
    main()
