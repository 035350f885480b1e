"""The hard player: determinized Monte Carlo search over the hidden information.

Each batch draws a determinization of the seat's view (face-down plantation order, unknown
VP, random seed), and for every live candidate applies it and plays the game out with the
heuristic, blurred, for every seat; the seat's reward is its win and its margin over the best
rival. Candidates (the heuristic's best few) share a determinization and a playout seed in
each batch, and are split by sequential halving (``halving``). The heuristic's own favourite
is kept unless another candidate beats it clearly: a noisy argmax would throw away what the
heuristic knows.

The site's budget is a number of moves played in playouts (``moves_budget``): about
the same CPU for every decision, so a decision near the game's end, whose playouts are short,
gets many more of them than one at its start. A caller may give a number of playouts instead
(``simulations``). Either way a move depends on its seed only, whatever the machine's load;
``budget`` (seconds) caps the wall time as a safety net.

Playouts may also stop after ``PARAMS["horizon"]`` rounds and be scored by the fitted
evaluation of ``rollout``, their role choices made by its fitted cheap policy
(``PARAMS["fitted_roles"]``): about 40 times as many playouts for the CPU, but measured
weaker than whole games by the heuristic (``docs/benchmarks.md``, 2026-11-27), so both are
off by default.
"""

from __future__ import annotations

import math
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

MOVES = {"base": 40_000, "new_buildings": 21_000, "nobles": 21_000, "both": 21_000}
"""Moves played in playouts a decision by default (the site's hard player), by edition: a
move costs 45 to 90 µs by the machine (more early in a game, whose playouts choose more roles a
move, and with the expansions), so a four-player base-game decision takes a median 1.7 s of CPU
on an idle AMD EPYC, 2.1 s at most, and the expansions' slowest about 2 s. A playout costs
``OVERHEAD`` moves more for its set-up. The base game's budget was 28,000 until 2026-11-29:
against three frozen hard players 40,000 won far more of the same deals (``docs/benchmarks.md``)."""
TWO_PLAYER_MOVES = {"base": 28_000}
"""The budget of two-player games where it differs from ``MOVES``: the two-player base game
met its targets at 28,000 (``docs/benchmarks.md``, 2026-11-29), its decisions about 1 s."""
OVERHEAD = 10
"""At most what a playout's set-up (its determinization, the candidate's move) costs, in moves
played; it also makes a playout that ends at once count."""
PARAMS = {
    "noise": 0.25,
    "top": 4,
    "z": 0.5,
    "horizon": math.inf,
    "fitted_roles": False,
    "margin_cap": 10.0,
}
"""The blur (VP) of the playouts' heuristic, the candidates searched outside the role phase,
the standard errors by which a candidate must beat the favourite, the rounds a playout plays
before it is evaluated (all: to the end), whether its roles are chosen by ``rollout``'s
fitted policy (else by the heuristic), and the margin (VP) at which the reward stops
growing.

The blur is set against the heuristic's weights: blurred by 0.25 VP, a player of the fitted
weights wins 9 % of four-player games against three unblurred ones, by 0.45 VP 4 % (the
hand-set weights, whose scores spread wider, 7 %); with 0.25 the search won more games
(``docs/benchmarks.md``, 2026-11-28)."""

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


def playout(state: State, seat: int, rng: random.Random) -> tuple[float, float, int]:
    """Play on in place for ``PARAMS["horizon"]`` rounds (to the next role choice after
    them, or the end). Returns the seat's reward in [0, 1] (half for its chance to win, a
    quarter for its margin over the best rival, capped at ``margin_cap`` VP), its chance to
    win (at the end the result, a tie for the win shared, else the evaluation's) and the
    moves played."""
    noise = PARAMS["noise"]
    fitted = PARAMS["fitted_roles"]
    stop = _roles_so_far(state) + PARAMS["horizon"] * roles_per_round(state.num_players)
    values = Values(state)
    moves = 0
    while state.phase != "over":
        moves += 1
        if state.phase == "role":
            if _roles_so_far(state) >= stop:
                break
            values = Values(state)
            if fitted:
                action = (
                    policy.guest_move(state, values)
                    or _CHOOSE_ROLE[rollout.choose_role(state, rng)]
                )
                rules.apply(state, action, inplace=True)
                continue
        rules.apply(state, policy.choose(state, values, rng, noise), inplace=True)
    win = rollout.win_chances(state)[seat]
    scores = rollout.expected_scores(state) if state.phase != "over" else rollout.scores(state)
    return reward(scores, seat, win), win, moves


def reward(scores: list[float], seat: int, win: float) -> float:
    """The seat's reward in [0, 1]: half for its chance to win, a quarter plus a quarter for
    its margin over the best rival, capped at ``margin_cap`` VP."""
    cap = PARAMS["margin_cap"]
    rival = max(x for s, x in enumerate(scores) if s != seat)
    margin = max(-cap, min(cap, scores[seat] - rival))
    return 0.5 * win + 0.25 + 0.25 * margin / cap


def moves_budget(state: State) -> int:
    """The moves a decision plays in playouts by default, by edition and player count."""
    edition = state.options["edition"]
    if state.num_players == 2 and edition in TWO_PLAYER_MOVES:
        return TWO_PLAYER_MOVES[edition]
    return MOVES[edition]


def _search(
    state: State,
    view: dict[str, Any],
    seed: int,
    budget: float | None,
    simulations: int | None,
    include: Action | None = None,
) -> halving.Found:
    """Search the heuristic's candidates (and ``include``, which like the favourite is never
    dropped) with ``simulations`` playouts in all (default: ``MOVES`` moves in playouts)."""
    cands = candidates(state, Values(state))
    kept = set()
    if include is not None:
        if include not in cands:
            cands.append(include)
        kept.add(cands.index(include))
    seat = state.current
    rng = random.Random(seed)

    def batch(alive: list[int]) -> list[tuple[float, float, float]]:
        """One playout per live candidate, all on one determinization and playout seed; each
        costs 1 against a budget of playouts, its moves against one of moves."""
        guess = determinize(view, rng.getrandbits(32))
        playout_seed = rng.getrandbits(32)
        out = []
        for i in alive:
            reward, win, moves = playout(
                rules.apply(guess, cands[i]), seat, random.Random(playout_seed)
            )
            out.append((reward, win, 1 if simulations else moves + OVERHEAD))
        return out

    budget_moves = simulations or moves_budget(state)
    return halving.search(cands, kept, batch, budget_moves, budget)


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
