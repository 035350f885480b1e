"""The hard Puerto Rico player as it was on 2026-11-27 (commit af282d9), frozen as a fixed
reference for ``bench_ai.py`` (level ``hard-2026-11``): whole-game playouts by the noisy
heuristic. It ran on a 2 s time budget: a median of 141 playouts a move on an idle machine,
fewer where playouts are long (the first rounds), more where they are short. Here its clock
counts the moves played in playouts instead of seconds (``REFERENCE_MOVES``, those 2 s), so
its games are the same on any machine and its budget is spread over a game as the 2 s were.
(Until 2026-11-29 it played 140 playouts at every decision: about 1.7 times its 2 s in the
first rounds, an eighth or less in the last.)

Each simulation draws a new determinization of the seat's view (face-down plantation order,
unknown VP, random seed), applies a candidate action and plays the game out with the noisy
heuristic for every seat, and scores the end. Candidates (the heuristic's best few) share a
determinization and a playout seed in each batch, and are split by sequential halving. The
heuristic's own favourite is kept unless another candidate beats it clearly: a search this
short is noisy, and a noisy argmax would throw away what the heuristic knows.

The heuristic's weights are frozen too (``hard_2026_11.json``, the hand-set ones of that day):
they stand in for the site's weights, which are fitted anew, while this player decides.
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.bots import knowledge, policy
from games.bots.knowledge import Values
from games.engines.puerto_rico import rules
from games.engines.puerto_rico.actions import Action
from games.engines.puerto_rico.determinize import determinize
from games.engines.puerto_rico.scoring import outcome
from games.engines.puerto_rico.state import State

REFERENCE_MOVES = 20_000
"""Its 2 s on an idle machine, in moves played in playouts: a median of 141 playouts a
decision (the figure of the day) times the median playout's cost in moves at this player's
decisions (140, set-up included, over its 375 searched decisions in three four-player games
against the site's hard player and two of its own kind, at 140 playouts a decision)."""
OVERHEAD = 10
"""What a playout's set-up (its determinization, the candidate's move) costs, in moves."""
PARAMS = {"noise": 0.45, "top": 4, "z": 0.5, "margin_cap": 10.0}
WEIGHTS = json.loads(Path(__file__).with_name("hard_2026_11.json").read_text())
"""The heuristic's weights of 2026-11-27."""


@contextmanager
def frozen_weights() -> Iterator[None]:
    """The heuristic's weights of that day in place of the site's, while the block runs."""
    site = dict(knowledge.W)
    knowledge.W.update(WEIGHTS)
    try:
        yield
    finally:
        knowledge.W.update(site)


def candidates(state: State, values: Values) -> list[Action]:
    """The actions worth searching, the heuristic's favourite first."""
    if state.phase == "mayor":
        return [policy.arrange(state, values)]
    move = policy.guest_move(state, values)
    if move is not None:
        return [move]
    scored = policy.scored_actions(state, values)
    scored.sort(key=lambda sa: -sa[0])
    return [a for _, a in scored[: PARAMS["top"] if state.phase != "role" else None]]


def playout(state: State, seat: int, rng: random.Random) -> tuple[float, float, int]:
    """Play to the end with the noisy heuristic. Returns the seat's reward in [0, 1] (half
    for the win, a tie for it counting half, and half for the margin over the best rival),
    its win (1, its share of a tie for the win, or 0) and the moves played."""
    noise = PARAMS["noise"]
    values = Values(state)
    moves = 0
    while state.phase != "over":
        if state.phase == "role":
            values = Values(state)
        rules.apply(state, policy.choose(state, values, rng, noise), inplace=True)
        moves += 1
    table = outcome(state)
    mine = table[seat]
    rival = max(s.score for s in table if s.seat != seat)
    firsts = sum(s.placement == 1 for s in table)
    won = 0.0 if mine.placement > 1 else 1.0 if firsts == 1 else 0.5
    cap = PARAMS["margin_cap"]
    margin = max(-cap, min(cap, mine.score - rival))
    return 0.5 * won + 0.25 + 0.25 * margin / cap, won and 1 / firsts, moves


@dataclass
class _Search:
    """The candidates and each one's playouts (rewards and wins); ``alive`` are the
    candidates still searched at the last stage."""

    candidates: list[Action]
    rewards: list[list[float]]
    wins: list[list[float]]
    alive: list[int]


def _search(state: State, view: dict[str, Any], seed: int, moves: int) -> _Search:
    """Search the heuristic's candidates with a budget of ``moves`` played in playouts (each
    with ``OVERHEAD`` for its set-up), spent as the 2 s were: the playouts sized after the
    first batch, no batch started that would pass the budget were it as long as the longest
    so far."""
    cands = candidates(state, Values(state))
    k = len(cands)
    found = _Search(cands, [[] for _ in cands], [[] for _ in cands], list(range(k)))
    if k == 1:
        return found
    seat = state.current
    rng = random.Random(seed)
    played = 0
    longest = 0

    def batch() -> None:
        """One playout per live candidate, all on one determinization and playout seed."""
        nonlocal longest, played
        began = played
        guess = determinize(view, rng.getrandbits(32))
        playout_seed = rng.getrandbits(32)
        for i in found.alive:
            reward, win, n = playout(
                rules.apply(guess, cands[i]), seat, random.Random(playout_seed)
            )
            found.rewards[i].append(reward)
            found.wins[i].append(win)
            played += n + OVERHEAD
        longest = max(longest, played - began)

    batch()
    limit = int(moves / played * k)

    def budget_left() -> bool:
        """Room for another batch as long as the longest so far: the move ends in budget."""
        return played + longest < moves

    # Sequential halving: each stage gives the live candidates an equal share of the
    # playouts, then drops the worse half (never the favourite).
    stages = max(1, math.ceil(math.log2(k)))
    used = k
    while used + len(found.alive) <= limit and budget_left():
        for _ in range(max(1, limit // (stages * len(found.alive)) - 1)):
            batch()
            used += len(found.alive)
            if used + len(found.alive) > limit or not budget_left():
                break
        if len(found.alive) > 2:
            ranked = sorted(found.alive, key=lambda i: -statistics.mean(found.rewards[i]))
            found.alive = ranked[: (len(ranked) + 1) // 2]
            if 0 not in found.alive:
                found.alive.append(0)
    return found


def choose(
    state: State,
    view: dict[str, Any],
    seed: int,
    moves: int = REFERENCE_MOVES,
) -> Action:
    """The searched action: the heuristic's favourite unless another beats it clearly."""
    with frozen_weights():
        found = _search(state, view, seed, moves)
    if len(found.candidates) == 1:
        return found.candidates[0]
    return found.candidates[_pick(found.rewards, found.alive)]


def _pick(results: list[list[float]], finalists: list[int]) -> int:
    """The best-scoring finalist (a candidate still in the search at its last stage) if it
    beats the heuristic's favourite (0) by ``z`` standard errors of the difference, else the
    favourite. A candidate dropped early had too few playouts to be trusted: a lucky pair of
    them must not outrank those that kept winning. The variance is pooled over all playouts:
    a candidate's own handful of them says little about its spread.

    Means are exact (equal playouts give equal means whatever their number) and the variance
    sums each playout's squared deviation: a sum of squares less the squared sum cancels to
    slightly below zero when every playout scores the same."""
    means = [statistics.mean(r) for r in results]
    n = sum(len(r) for r in results)
    best = max(sorted(finalists), key=means.__getitem__)
    if best == 0 or n <= len(results):
        return 0
    deviations = math.fsum(
        (x - mean) ** 2 for r, mean in zip(results, means, strict=True) for x in r
    )
    pooled = deviations / (n - len(results))
    error = math.sqrt(pooled * (1 / len(results[0]) + 1 / len(results[best])))
    return best if means[best] - means[0] > PARAMS["z"] * error else 0
