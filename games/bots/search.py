"""The hard player: determinized Monte Carlo search over the hidden information.

Each batch draws a determinization of the seat's view (face-down plantation order, unknown
VP, random seed), and for every live candidate applies it and plays on for about a round
(``rollout``: the heuristic with blur for every seat's decisions, a fitted cheap policy for
the roles), then scores each seat's chance to win from the evaluation of where the playout
stopped (the result itself at the game's end). Candidates (the heuristic's best few) share a
determinization and a playout seed in each batch, and are split by sequential halving
(``halving``). The heuristic's own favourite is kept unless another candidate beats it
clearly: a noisy argmax would throw away what the heuristic knows.

The budget is a number of playouts (``SIMULATIONS`` unless given), so a move depends on its
seed only; ``budget`` (seconds) caps the wall time as a safety net.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.puerto_rico import rules
from games.engines.puerto_rico.actions import Action, ChooseRole
from games.engines.puerto_rico.common import roles_per_round
from games.engines.puerto_rico.data import ROLES
from games.engines.puerto_rico.determinize import determinize
from games.engines.puerto_rico.state import State

from . import Estimate, halving, policy, rollout
from .knowledge import Values

SIMULATIONS = 1000
"""Playouts a move by default (the site's hard player): at most about 2 s of CPU a move on
the project's machine (``docs/benchmarks.md``)."""
PARAMS = {"noise": 0.45, "top": 4, "z": 0.5, "horizon": 1.0}
"""The blur (VP) of the playouts' heuristic, the candidates searched outside the role phase,
the standard errors by which a candidate must beat the favourite, and the rounds a playout
plays before it is evaluated."""

_CHOOSE_ROLE = {role: ChooseRole(role) for role in ROLES}


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


def _roles_so_far(state: State) -> int:
    return state.round * roles_per_round(state.num_players) + state.roles_chosen


def playout(state: State, seat: int, rng: random.Random) -> float:
    """Play on in place for ``PARAMS["horizon"]`` rounds (to the next role choice after
    them, or the end); the seat's chance to win there."""
    noise = PARAMS["noise"]
    stop = _roles_so_far(state) + PARAMS["horizon"] * roles_per_round(state.num_players)
    values = Values(state)
    while state.phase != "over":
        if state.phase == "role":
            if _roles_so_far(state) >= stop:
                break
            values = Values(state)
            action = (
                policy.guest_move(state, values) or _CHOOSE_ROLE[rollout.choose_role(state, rng)]
            )
        else:
            action = policy.choose(state, values, rng, noise)
        rules.apply(state, action, inplace=True)
    return rollout.win_chances(state)[seat]


def _search(
    state: State,
    view: dict[str, Any],
    seed: int,
    budget: float | None,
    simulations: int | None,
    include: Action | None = None,
) -> halving.Found:
    """Search the heuristic's candidates (and ``include``, which like the favourite is never
    dropped) with ``simulations`` playouts in all (default ``SIMULATIONS``)."""
    cands = candidates(state, Values(state))
    kept = set()
    if include is not None:
        if include not in cands:
            cands.append(include)
        kept.add(cands.index(include))
    seat = state.current
    rng = random.Random(seed)

    def batch(alive: list[int]) -> list[tuple[float, float]]:
        """One playout per live candidate, all on one determinization and playout seed."""
        guess = determinize(view, rng.getrandbits(32))
        playout_seed = rng.getrandbits(32)
        out = []
        for i in alive:
            win = playout(rules.apply(guess, cands[i]), seat, random.Random(playout_seed))
            out.append((win, win))
        return out

    return halving.search(cands, kept, batch, simulations or SIMULATIONS, budget)


def choose(
    state: State,
    view: dict[str, Any],
    seed: int,
    *,
    budget: float | None = None,
    simulations: int | None = None,
) -> Action:
    """The searched action: the heuristic's favourite unless another beats it clearly."""
    return halving.pick(_search(state, view, seed, budget, simulations), PARAMS["z"])


def analyse(
    state: State,
    view: dict[str, Any],
    seed: int,
    *,
    budget: float | None = None,
    simulations: int | None = None,
    include: Action | None = None,
) -> list[Estimate]:
    """What the search makes of each candidate (and of ``include``), the likeliest win first;
    those dropped early come after the finalists, whatever their few playouts said. A
    playout's win is the seat's chance to win where it stopped."""
    return halving.estimates(_search(state, view, seed, budget, simulations, include))
