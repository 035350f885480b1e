"""Speed of the Amerigo engine: random full games per second (2, 3, 4 players) and the time
to list the legal actions in the building phase, where tile placements make the list long.

``python bench/bench_amerigo.py --games 50``.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines import amerigo as am
from games.engines.amerigo.rules import new_act
from games.engines.amerigo.state import derive_cover


def play(num_players: int, seed: int) -> int:
    """One full random game (``apply(..., inplace=True)``); the number of decisions."""
    rng = random.Random(seed)
    state = am.new_game(num_players, seed)
    decisions = 0
    while not am.is_over(state):
        actions = am.legal_actions(state)
        am.apply(state, actions[rng.randrange(len(actions))], inplace=True)
        decisions += 1
    return decisions


def building_position(seed: int = 1) -> am.State:
    """Four players; the seat to act builds with 6 AP, a trading post on each of the three
    largest islands, five landscape tiles and one village tile of each size beside its board."""
    state = am.new_game(4, seed)
    m = state.map
    largest = sorted(range(len(m.sizes)), key=lambda k: -m.sizes[k])[:3]
    seat = am.current_player(state)
    p = state.players[seat]
    p.posts = [next(post for post, _ in m.posts if m.island[post] == k) for k in largest]
    p.landscapes = ["6R", "5P", "4T", "3L", "2"]
    p.villages_held = {"V1": 1, "V2": 1, "V3": 1, "V4": 1}
    state.cover = derive_cover(state)
    state.phase = "act"
    state.act = new_act("green", 6)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30, help="games per player count")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    for n in am.PLAYER_COUNTS:
        start = time.perf_counter()
        decisions = sum(play(n, seed) for seed in range(args.games))
        elapsed = time.perf_counter() - start
        print(
            f"{n} players: {args.games / elapsed:.1f} random games/s, "
            f"{decisions / args.games:.0f} decisions a game, "
            f"{elapsed / decisions * 1e6:.0f} us a decision"
        )
    state = building_position()
    runs = 50
    start = time.perf_counter()
    for _ in range(runs):
        legal = am.legal_actions(state)
    elapsed = (time.perf_counter() - start) / runs
    print(f"building phase: {len(legal)} legal actions listed in {elapsed * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
