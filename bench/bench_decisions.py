"""How well a search decides, without playing tournaments: the regret of its choices against
an oracle, the same playouts at many times the budget. A tournament of four searching
players costs minutes of CPU a game and hundreds of games to tell 30 % from 40 %; this asks
each variant of the search the same few dozen decisions instead. It cannot judge the
playouts themselves (their heuristic, its blur): the oracle plays the same ones.

Positions come from four-player base games between medium players (deals 0, 1, ...): every
``--every``-th decision with more than one candidate (roles, builds, the captain's and
craftsman's choices). The oracle plays ``--oracle`` moves of whole-game playouts a position
(the site's; with ``--model reference`` the frozen player's, whose candidates are scored
too), the candidates on shared determinizations and playout seeds, and scores each by
its mean reward (``search.reward``: the win, and the margin over the best rival). A variant
decides each position with a few seeds: the site's search with other ``MOVES`` or
``PARAMS``, or with ``role_top`` (only the heuristic's best few roles searched), or the
frozen hard player of ``hard_2026_11`` (``reference``), or the heuristic alone (``medium``).
Its regret is the oracle's best mean less the oracle's mean of what it chose, in reward
(half of it a chance to win). The oracle's means are kept in ``bench/records/``
(``ORACLE``); building them anew takes about 35 minutes of a core.

    python bench/bench_decisions.py                        # the site's search, 5 minutes
    python bench/bench_decisions.py --variant moves=14000 --variant moves=48000 \\
        --variant horizon=3 --variant role_top=4 --variant z=0 --variant reference
    python bench/bench_decisions.py --build oracle.json --positions 48 --oracle 500000
    python bench/bench_decisions.py --seeds 6 --variant z=0 --variant z=0.5 --variant z=1
    python bench/bench_decisions.py --pairing 30             # are paired playouts alike?
    python bench/bench_decisions.py --build theirs.json --positions 32 --oracle 400000 \\
        --model reference --variant "" --variant reference    # judged by the frozen playouts
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hard_2026_11

from games.bots import choose_action, policy, search
from games.bots import puerto_rico as puerto_rico_bots
from games.bots.knowledge import Values
from games.engines import puerto_rico
from games.engines.puerto_rico import rules
from games.engines.puerto_rico.determinize import determinize
from games.engines.puerto_rico.state import State


def medium_game(deal: int) -> Iterator[tuple[int, State]]:
    """Each move of a four-player base game between medium players, and the state before it."""
    state = puerto_rico.new_game(4, seed=deal, options={"edition": "base"})
    move = 0
    while not puerto_rico.is_over(state):
        yield move, state
        view = puerto_rico.player_view(state, state.current)
        action = choose_action(
            puerto_rico, view, bots=puerto_rico_bots.BOTS, level="medium", seed=move
        )
        state = puerto_rico.apply(state, action, inplace=True)
        move += 1


def positions(count: int, every: int) -> list[tuple[int, int]]:
    """``(deal, move)`` of ``count`` decisions with more than one candidate, every
    ``every``-th of them, from deals 0, 1, ..."""
    found: list[tuple[int, int]] = []
    seen = 0
    deal = 0
    while len(found) < count:
        for move, state in medium_game(deal):
            if len(search.candidates(state, Values(state))) > 1:
                if seen % every == 0 and len(found) < count:
                    found.append((deal, move))
                seen += 1
        deal += 1
    return found


def replay(deal: int, move: int) -> tuple[State, dict]:
    """The state and the seat's view at ``move`` of ``deal``."""
    for m, state in medium_game(deal):
        if m == move:
            return state, puerto_rico.player_view(state, state.current)
    raise ValueError(move)


def oracle(state: State, view: dict, moves: int, seed: int, model: str) -> dict:
    """Every candidate's mean reward over whole-game playouts worth ``moves`` in all, played
    by the site's blurred heuristic (``model`` "site") or by the frozen player's
    ("reference": its weights and blur; the candidates of both searches scored)."""
    cands = search.candidates(state, Values(state))
    seat = state.current
    rng = random.Random(seed)
    playout = search.playout
    frozen = model == "reference"
    saved_params = dict(search.PARAMS)
    search.PARAMS["horizon"] = math.inf
    try:
        with hard_2026_11.frozen_weights() if frozen else contextlib.nullcontext():
            if frozen:
                theirs = hard_2026_11.candidates(state, Values(state))
                cands += [c for c in theirs if c not in cands]
                playout = hard_2026_11.playout
            rewards: list[list[float]] = [[] for _ in cands]
            played = 0
            while played < moves:
                guess = determinize(view, rng.getrandbits(32))
                playout_seed = rng.getrandbits(32)
                for i, c in enumerate(cands):
                    reward, _, n = playout(rules.apply(guess, c), seat, random.Random(playout_seed))
                    rewards[i].append(reward)
                    played += n + search.OVERHEAD
    finally:
        search.PARAMS.update(saved_params)
    return {
        "candidates": [repr(c) for c in cands],
        "means": [statistics.fmean(r) for r in rewards],
        "playouts": len(rewards[0]),
    }


def decide(state: State, view: dict, seed: int, variant: dict[str, float]) -> str:
    """The site's search with ``variant`` (``moves`` and any ``PARAMS``) on this position;
    ``reference``: the frozen hard player of ``hard_2026_11`` instead; ``medium``: the
    heuristic alone."""
    if "reference" in variant:
        return repr(hard_2026_11.choose(state, view, seed))
    if "medium" in variant:
        return repr(policy.choose(state, Values(state), random.Random(seed)))
    saved_params, saved_moves = dict(search.PARAMS), dict(search.MOVES)
    candidates = search.candidates
    if "role_top" in variant:  # only the heuristic's best few roles searched

        def fewer(state, values):
            found = candidates(state, values)
            return found[: int(variant["role_top"])] if state.phase == "role" else found

        search.candidates = fewer
    try:
        for key, value in variant.items():
            if key == "moves":
                search.MOVES["base"] = int(value)
            elif key != "role_top":
                search.PARAMS[key] = value
        return repr(search.choose(state, view, seed))
    finally:
        search.PARAMS.update(saved_params)
        search.MOVES.update(saved_moves)
        search.candidates = candidates


ORACLE = Path(__file__).parent / "records" / "2026-11-29-puerto-rico-4p-base-decisions-oracle.json"
"""The oracle's means of 48 positions (every 7th decision, 500,000 moves each)."""


def parse_variant(text: str) -> dict[str, float]:
    """``moves=N,param=x,...`` (empty: the site's search as it is), ``reference`` or
    ``medium``."""
    if text in ("reference", "medium"):
        return {text: 1.0}
    return {k: float(v) for k, v in (part.split("=") for part in text.split(",") if part)}


def build(count: int, every: int, moves: int, model: str, out: Path) -> list[dict]:
    """The oracle's means of ``count`` positions, written to ``out`` as they come."""
    table = []
    for k, (deal, move) in enumerate(positions(count, every)):
        state, view = replay(deal, move)
        table.append({"deal": deal, "move": move, **oracle(state, view, moves, k, model)})
        out.write_text(json.dumps(table, indent=1))
        print(f"position {k}: deal {deal}, move {move}, {state.phase}", file=sys.stderr)
    return table


STAGES = {"rounds 1-5": (1, 5), "6-9": (6, 9), "10-": (10, 99)}
"""The game's stages the regret is also given for (round numbers, both included)."""


def by_stage(found: list[tuple[int, float]], form: str) -> str:
    """The mean of ``(round, value)`` pairs in each of the ``STAGES`` that has any, and
    how many: "rounds 1-5 <mean> (n), ..." with the mean formatted by ``form``."""
    parts = []
    for name, (lo, hi) in STAGES.items():
        values = [v for n, v in found if lo <= n <= hi]
        if values:
            parts.append(f"{name} {statistics.fmean(values):{form}} ({len(values)})")
    return ", ".join(parts)


def regret(table: list[dict], variant: dict[str, float], seeds: int) -> str:
    """The variant's mean regret over the table's positions, each decided with ``seeds``
    seeds, and how often it chose the oracle's best; then the mean regret by the game's
    ``STAGES``. A choice the oracle did not score (the frozen player's heuristic ranks its
    candidates otherwise) is counted apart."""
    regrets: list[tuple[int, float]] = []
    best, unscored = [], 0
    for row in table:
        state, view = replay(row["deal"], row["move"])
        top = max(row["means"])
        for s in range(seeds):
            chosen = decide(state, view, 1000 * s + row["move"], variant)
            if chosen not in row["candidates"]:
                unscored += 1
                continue
            mean = row["means"][row["candidates"].index(chosen)]
            regrets.append((state.round, top - mean))
            best.append(mean == top)
    values = [r for _, r in regrets]
    error = statistics.stdev(values) / math.sqrt(len(values))
    return (
        f"regret {statistics.fmean(values):.4f} ± {error:.4f}"
        f" (reward; {by_stage(regrets, '.4f')}),"
        f" the oracle's best {statistics.fmean(best):.1%} of {len(values)} decisions"
        + (f"; {unscored} choices not scored" if unscored else "")
    )


def pairing(table: list[dict], playouts: int) -> str:
    """How alike the paired playouts of the oracle's two best candidates are (the same
    determinization and playout seed, as the search plays them): the correlation of their
    rewards over ``playouts`` pairs, its mean by the game's ``STAGES``. Near 0 the pairing
    does not narrow the error of their difference."""
    found: list[tuple[int, float]] = []
    for k, row in enumerate(table):
        state, view = replay(row["deal"], row["move"])
        cands = search.candidates(state, Values(state))
        first, second = sorted(range(len(cands)), key=lambda i: -row["means"][i])[:2]
        rng = random.Random(k)
        pairs = []
        for _ in range(playouts):
            guess = determinize(view, rng.getrandbits(32))
            seed = rng.getrandbits(32)
            pairs.append(
                [
                    search.playout(
                        rules.apply(guess, cands[i]), state.current, random.Random(seed)
                    )[0]
                    for i in (first, second)
                ]
            )
        with contextlib.suppress(statistics.StatisticsError):  # a constant reward: no spread
            found.append((state.round, statistics.correlation(*zip(*pairs, strict=True))))
    return by_stage(found, "+.2f")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=Path, default=ORACLE, help="the oracle's means")
    parser.add_argument("--build", type=Path, help="build a new oracle, write it here")
    parser.add_argument("--positions", type=int, default=48)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--oracle", type=int, default=500_000, help="moves a position")
    parser.add_argument("--model", choices=("site", "reference"), default="site")
    parser.add_argument("--variant", action="append", help="moves=N,param=x (default: the site's)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument(
        "--pairing", type=int, metavar="N", help="only the correlation of N paired playouts"
    )
    args = parser.parse_args()
    if args.build:
        table = build(args.positions, args.every, args.oracle, args.model, args.build)
    else:
        table = json.loads(args.load.read_text())
    if args.pairing:
        print(f"correlation of paired playouts: {pairing(table, args.pairing)}")
        return
    for text in args.variant or [""]:
        name = text or "the site's search"
        print(f"{name}: {regret(table, parse_variant(text), args.seeds)}")


if __name__ == "__main__":
    main()
