"""Worker time of a post-game review: a 4-player game played by medium players (a seeded
deal), then every decision of every seat judged as ``analysis.reviews`` judges a person's
(the seat's view, the move played included, the hard player's budget or ``--simulations``).
Prints the decisions judged per seat, CPU seconds per decision (median, 95th percentile, most)
and per seat, and the game's total against the platform's cap (``REVIEW_GAME_SECONDS``: 600 s
of one core for a game's reviews).

    python bench/bench_review.py                    # Puerto Rico, 4 players, deal 0
    python bench/bench_review.py --game amerigo --deal 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import amerigo as amerigo_bots
from games.bots import analyse_position, choose_action
from games.bots import puerto_rico as puerto_rico_bots
from games.engines import amerigo, puerto_rico

GAMES = {
    "puerto_rico": (puerto_rico, puerto_rico_bots.BOTS, puerto_rico_bots.analyse),
    "amerigo": (amerigo, amerigo_bots.BOTS, amerigo_bots.analyse),
}
CAP = 600.0
"""``REVIEW_GAME_SECONDS``'s default."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="puerto_rico")
    parser.add_argument("--deal", type=int, default=0, help="the game's seed (default 0)")
    parser.add_argument(
        "--simulations", type=int, default=0, help="playouts per position (0: the hard budget)"
    )
    args = parser.parse_args()
    rules, bots, analyst = GAMES[args.game]
    state = rules.new_game(4, seed=args.deal)
    decisions = []  # (seat, state before, action) of every choice of more than one
    move = 0
    while not rules.is_over(state):
        seat = rules.current_player(state)
        view = rules.player_view(state, seat)
        action = choose_action(rules, view, bots=bots, level="medium", seed=move)
        if len(rules.legal_actions(state)) > 1:
            decisions.append((seat, state, action, move))
        state = rules.apply(state, action)
        move += 1
    per_seat: dict[int, list[float]] = {}
    for seat, before, action, number in decisions:
        start = time.process_time()
        analyse_position(
            rules,
            rules.player_view(before, seat),
            analyst=analyst,
            seed=args.deal + number,
            simulations=args.simulations or None,
            played=action,
        )
        per_seat.setdefault(seat, []).append(time.process_time() - start)
    every = sorted(t for ts in per_seat.values() for t in ts)
    print(f"{args.game}, 4 players, deal {args.deal}: {move} moves, {len(every)} decisions")
    print("| seat | decisions | CPU s |")
    print("|---|---|---|")
    for seat, ts in sorted(per_seat.items()):
        print(f"| {seat} | {len(ts)} | {sum(ts):.1f} |")
    p95 = every[int(0.95 * (len(every) - 1))]
    print(
        f"per decision: median {statistics.median(every):.3f} s, 95th percentile {p95:.3f} s,"
        f" most {every[-1]:.3f} s"
    )
    print(f"the game's four reviews: {sum(every):.0f} s of CPU (cap {CAP:.0f} s)")


if __name__ == "__main__":
    main()
