"""What a hard player's move costs: CPU seconds and playouts per decision, over a few games
with the hard player in seat 0 and medium players in the others. CPU time (of this process)
does not depend on what else runs on the machine, as wall time does.

    python bench/bench_search.py                           # Puerto Rico, 4 players, base
    python bench/bench_search.py --players 2 --edition both --games 2
    python bench/bench_search.py --game amerigo --games 1
    python bench/bench_search.py --simulations 500         # another budget than the default
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import amerigo as amerigo_bots
from games.bots import choose_action, halving
from games.bots import puerto_rico as puerto_rico_bots
from games.engines import amerigo, puerto_rico
from games.engines.puerto_rico.options import EDITIONS

SLOW = 2.5
"""Seconds of CPU a decision should stay under on an idle machine."""

GAMES = {
    "puerto_rico": (puerto_rico, puerto_rico_bots.BOTS),
    "amerigo": (amerigo, amerigo_bots.BOTS),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="puerto_rico")
    parser.add_argument("--edition", choices=EDITIONS, default="base")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3, help="games (deals 0, 1, ...)")
    parser.add_argument("--simulations", type=int, default=None, help="default: the bot's")
    args = parser.parse_args()
    engine, bots = GAMES[args.game]
    searched: list[int] = []
    search = halving.search

    def counted(*args: Any, **kwargs: Any) -> halving.Found:
        """``halving.search``, its playouts counted."""
        found = search(*args, **kwargs)
        searched.append(sum(map(len, found.rewards)))
        return found

    halving.search = counted
    options = {"edition": args.edition} if args.game == "puerto_rico" else None
    cpu, wall, playouts = [], [], []
    for deal in range(args.games):
        state = engine.new_game(args.players, seed=deal, options=options)
        move = 0
        while not engine.is_over(state):
            actor = engine.current_player(state)
            view = engine.player_view(state, actor)
            seed = deal * 10_000 + move
            if actor == 0 and len(engine.legal_actions(state)) > 1:
                began, began_cpu = time.perf_counter(), time.process_time()
                action = choose_action(
                    engine, view, bots=bots, level="hard", seed=seed, simulations=args.simulations
                )
                cpu.append(time.process_time() - began_cpu)
                wall.append(time.perf_counter() - began)
                playouts.append(sum(searched[-1:]))
                searched.clear()
            else:
                action = choose_action(engine, view, bots=bots, level="medium", seed=seed)
            state = engine.apply(state, action, inplace=True)
            move += 1
    busy = [p for p in playouts if p]
    print(
        f"{args.game} {args.edition if options else ''} {args.players} players, {args.games} games,"
        f" {len(cpu)} hard decisions ({len(busy)} searched)"
    )
    print(
        f"CPU s/decision: median {statistics.median(cpu):.3f}, mean {statistics.fmean(cpu):.3f},"
        f" max {max(cpu):.3f}; wall max {max(wall):.3f};"
        f" over {SLOW} s of CPU: {sum(c > SLOW for c in cpu)}"
    )
    print(
        f"playouts/searched decision: median {statistics.median(busy):.0f},"
        f" min {min(busy)}, max {max(busy)};"
        f" CPU ms/playout {1000 * sum(cpu) / max(1, sum(busy)):.2f}"
    )


if __name__ == "__main__":
    main()
