"""The hard players' search, the same for every game: sequential halving over a few candidate
moves with a budget counted in the playouts' work, so a move depends on its seed only, never on
the machine's load. A wall-time cap is only a safety net, far above what the default budget
takes on an idle machine.

A game supplies its candidates (its heuristic's favourite first) and ``batch``: one playout
for each live candidate on one determinization of the seat's view, as ``(reward, win, cost)``
triples: ``reward`` is what the search maximises, ``win`` the seat's chance to win (what
``Estimate.win`` reports), ``cost`` what the playout spent of the budget (1 where the budget
is a number of playouts; the moves it played where it is a number of moves, so that short
playouts near the game's end are many).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import Estimate, ranked

CAP = 20.0
"""Seconds a search may take at most, whatever its budget: below the worker's 30 s limit,
and about ten times what the default budgets take on an idle machine."""


@dataclass
class Found:
    """The candidates and each one's playouts (rewards and wins); ``alive`` are the
    candidates still searched at the last stage."""

    candidates: list[Any]
    rewards: list[list[float]]
    wins: list[list[float]]
    alive: list[int]


def search(
    candidates: list[Any],
    kept: set[int],
    batch: Callable[[list[int]], list[tuple[float, float, float]]],
    budget: float,
    cap: float | None = None,
) -> Found:
    """Spend ``budget`` (the playouts' cost, as ``batch`` reports it) over ``candidates``:
    each stage gets an equal share, played in batches over the live candidates, then drops
    the worse half (never the favourite, index 0, nor those in ``kept``). The first batch is
    always played; no batch is started that would pass the budget, were it to cost as much
    as the last, or end past ``cap`` seconds on the wall clock."""
    start = time.perf_counter()
    end = start + (cap or CAP)
    k = len(candidates)
    found = Found(candidates, [[] for _ in candidates], [[] for _ in candidates], list(range(k)))
    if k == 1:
        return found
    kept = kept | {0}
    stages = max(1, math.ceil(math.log2(k)))
    used = 0.0
    longest = 0.0
    for stage in range(1, stages + 1):
        while True:
            began = time.perf_counter()
            cost = 0.0
            for i, (reward, win, spent) in zip(found.alive, batch(found.alive), strict=True):
                found.rewards[i].append(reward)
                found.wins[i].append(win)
                cost += spent
            used += cost
            now = time.perf_counter()
            longest = max(longest, now - began)
            if used + cost > budget or now + longest > end:
                return found
            if used + cost > budget * stage / stages:
                break
        if len(found.alive) > 2:
            order = sorted(found.alive, key=lambda i: -statistics.fmean(found.rewards[i]))
            found.alive = order[: (len(order) + 1) // 2]
            found.alive += [i for i in sorted(kept) if i not in found.alive]
    return found


def pick(found: Found, z: float) -> Any:
    """The best-scoring finalist (a candidate still searched at the last stage) if it beats
    the favourite (0) by ``z`` standard errors of their difference, else the favourite. A
    candidate dropped early had too few playouts to be trusted.

    A finalist was searched in every batch the favourite was, on the same determinization
    and playout seed: their playouts pair up, and the error is that of the paired
    differences. Where the playouts stay alike (Puerto Rico's last rounds) it is far smaller
    than the spread of either; where whole games part at once (its first nine rounds with
    four players) it is about that of unpaired playouts (``docs/benchmarks.md``)."""
    results = found.rewards
    means = [statistics.fmean(r) if r else -math.inf for r in results]
    best = max(sorted(found.alive), key=means.__getitem__)
    differences = [b - a for a, b in zip(results[0], results[best], strict=False)]
    if best == 0 or len(differences) < 2:
        return found.candidates[0]
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    better = statistics.fmean(differences) > z * error
    return found.candidates[best if better else 0]


def estimates(found: Found) -> list[Estimate]:
    """Each candidate's estimate, the likeliest win first; those dropped early come after
    the finalists, whatever their few playouts said."""
    return ranked(
        [
            Estimate(action, statistics.fmean(wins) if wins else None, len(wins), i in found.alive)
            for i, (action, wins) in enumerate(zip(found.candidates, found.wins, strict=True))
        ]
    )
