"""AI players for Amerigo: ``random`` (uniform over the legal actions), ``easy`` (one step
of look-ahead on a sample of the actions, scored by a rough value of the seat's position),
``medium`` (every option played out greedily to the end of its action and judged by an
estimate of the final scoring), ``hard`` (medium's best few options played out by medium
players for every seat to the end of the third turn after its own, judged against the
best rival).

Like the Puerto Rico players they see only their seat's view: ``choose_action`` hands them
a determinized state.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from games.bots import Bot, Estimate, halving, play_random
from games.engines import amerigo as am
from games.engines.amerigo.data import (
    CHEST_GOLD,
    COLOURS,
    COMPLETION_TABLE,
    GOLD_MAX,
    GOODS,
    MARKER_GOLD,
    ORDER_TRACK,
    ROUNDS,
    SHAPES,
    TIME_VALUE,
    VILLAGES,
)
from games.engines.amerigo.rules import pirate_strength

SAMPLE = 40
"""At most this many actions are looked at (building may offer thousands of placements)."""
NOISE = 1.0
"""Blur (VP) on the easy player's values: it often misjudges close choices."""


def value(state: am.State, seat: int) -> float:
    """Rough VP worth of ``seat``'s position: VP, gold, cannons against the pirates, goods
    products, tracks, tiles and posts."""
    p = state.players[seat]
    pirates = sum(state.pirates_up)
    goods = sum(
        p.raw[k] * (1 + sum(1 for g in p.goods if g[0] == kind)) for k, kind in enumerate(GOODS)
    )
    tiles = sum(len(t) for t in p.landscapes) * 0.5 + sum(p.villages_held.values()) * 0.8
    return (
        p.vp
        + 0.8 * p.gold
        + 3 * p.chests
        + 0.7 * min(p.cannons, pirates + 2)
        + goods
        + am.progress_vp(p.progress)
        + 2.5 * len(p.posts)
        + 1.5 * len(p.markers)
        + tiles
    )


def _best_step(state: am.State, seat: int, legal: list, rng: random.Random) -> Any:
    """The sampled action whose result is worth most to ``seat`` (blurred by ``NOISE``)."""
    candidates = legal if len(legal) <= SAMPLE else rng.sample(legal, SAMPLE)
    best, best_value = candidates[0], float("-inf")
    for action in candidates:
        worth = _after(state, seat, action, rng)
        if worth > best_value:
            best, best_value = action, worth
    return best


def _after(state: am.State, seat: int, action: Any, rng: random.Random) -> float:
    """The worth of ``action``; a chosen colour is judged by the turn it leads to, played on
    greedily (one step of look-ahead at a time)."""
    after = am.apply(state, action)
    if action["type"] == "choose":
        while am.current_player(after) == seat and after.phase == "act":
            steps = [a for a in am.legal_actions(after) if a["type"] != "buy_ap"]
            step = max(
                rng.sample(steps, min(len(steps), SAMPLE // 4)),
                key=lambda a: value(am.apply(after, a), seat),
            )
            after = am.apply(after, step, inplace=True)
    return value(after, seat) + rng.uniform(-NOISE, NOISE)


def play_easy(state: am.State, view: dict, legal: list, seed: int, **limits: Any) -> Any:
    return _best_step(state, am.current_player(state), legal, random.Random(seed))


# --- medium ------------------------------------------------------------------------------

BUILD_SHORTLIST = 8
"""Tile placements judged in full (after a cheap first sort by the VP they bring)."""
SAIL_SHORTLIST = 4
"""Voyages without a trading post judged in full (the ones ending nearest a free post)."""
BUY_AP = 3
"""At most this many AP bought before one step, tried each in turn."""
MARKER_WORTH = {
    "ship8": 3.0,
    "leader": 2.0,
    "cube_vp": 3.0,
    "two_landscapes": 2.0,
    "swap_plan_build": 1.5,
    "pirates_plus2": 2.0,
    "half_damage": 1.5,
    "repel_gold": 2.0,
    "post_gold": 2.0,
    "gold_2to1": 1.0,
}
"""Rough VP worth of a progress marker not counted by the final scoring, for a whole game;
AP markers are worth ``AP_MARKER_WORTH``."""
AP_MARKER_WORTH = 3.0
BLACK = COLOURS.index("black")
BUY = {"type": "buy_ap"}
FAR = 13
"""Moves counted as "no free trading-post field in reach" (no voyage reaches that far)."""


_HARBOURS: dict[tuple[str, tuple[int, ...]], dict[int, int]] = {}
"""(landscape, free anchor fields) → water field → moves to the nearest of them."""


def _harbours(state: am.State) -> dict[int, int]:
    """Water field → moves to its nearest anchor field whose trading-post field is free
    (fields ``FAR`` or more moves away left out). One search from all free anchor fields
    at once serves every ship and voyage while the free trading-post fields stay the same."""
    m = state.map
    cover = state.cover
    free = tuple(a for p, a in m.posts if not cover[p])
    key = (m.cells, free)
    distances = _HARBOURS.get(key)
    if distances is None:
        if len(_HARBOURS) > 4096:
            _HARBOURS.clear()
        distances = _HARBOURS[key] = _distances(m, free)
    return distances


def _distances(m: Any, sources: tuple[int, ...]) -> dict[int, int]:
    """Moves over water from the nearest of ``sources`` to each water field (below ``FAR``)."""
    out = dict.fromkeys(sources, 0)
    edge = list(out)
    for step in range(1, FAR):
        nxt = []
        for cell in edge:
            for n in m.neighbours[cell]:
                if n not in out and m.is_water(n):
                    out[n] = step
                    nxt.append(n)
        edge = nxt
    return out


TERMS = (
    "vp",
    "gold",
    "goods",
    "goods_later",
    "tracks",
    "order_later",
    "markers",
    "pirates",
    "islands",
    "landscapes",
    "villages",
    "posts",
    "ships",
)
"""The parts of ``worth``, in the order ``terms`` gives them (the fitted evaluation weighs
each)."""


def worth(state: am.State, seat: int, now: am.State) -> float:
    """The medium player's VP estimate of ``seat``'s position: the sum of its ``terms``."""
    return sum(terms(state, seat, now))


def later_share(now: am.State) -> float:
    """The share of the game still to play: what promises VP later fades towards the end."""
    return (ROUNDS - now.round + 1 - now.turn / len(COLOURS)) / ROUNDS


def terms(state: am.State, seat: int, now: am.State) -> list[float]:
    """The parts (``TERMS``) of the medium player's VP estimate of ``seat``'s position: the
    final scoring as if the game ended now (gold, goods, progress, special-action track, end
    markers), less the pirates' expected damage this round, plus what tiles, posts, ships
    and markers promise for the rounds left.

    ``state`` lies at the end of an action decided in ``now``. The round, the turn and the
    pirates are taken from ``now``: ending the action may throw the next turn's cubes or turn
    the next pirate face up, which a determinized state only guesses."""
    p = state.players[seat]
    if state.phase == "over":
        return [float(p.vp)] + [0.0] * (len(TERMS) - 1)
    later = later_share(now)
    cash = CHEST_GOLD * p.chests + sum(MARKER_GOLD[m] for m in MARKER_GOLD if p.unused(m))
    gold = p.gold + cash  # beyond the track's end gold turns into VP 1 for 1: the same
    goods = [0] * len(GOODS)
    for kind, _cost in p.goods:
        goods[GOODS.index(kind)] += 1
    order = am.order_field(state, seat)
    markers = 0.0
    for m in p.markers:
        if m == "end_7":
            markers += 7
        elif m == "end_posts":
            markers += len(p.posts) + 2 * later
        elif m == "end_gold":
            markers += min(gold, GOLD_MAX)
        elif m.startswith("ap"):
            markers += AP_MARKER_WORTH * later
        elif m not in MARKER_GOLD and p.unused(m):
            markers += MARKER_WORTH.get(m, 1.0) * (later if m not in ("cube_vp", "leader") else 1)
    # Pirates at this round's end (unless it is over): all or nothing, sure once the black
    # turn is past.
    strength = pirate_strength(now, seat)
    if state.round != now.round or p.cannons >= strength:
        pirates = 0.3 * later * max(0, p.cannons - strength)
    else:
        damage = -(-strength // 2) if "half_damage" in p.markers else strength
        pirates = -min(damage, p.vp) * (1.0 if now.turn >= BLACK else 0.6)
    time = TIME_VALUE[now.round]
    cells = state.map.island_cells
    held: dict[int, int] = {}
    for post in p.posts:
        island = state.map.island[post]
        if not state.completed[island]:
            held[island] = held.get(island, 0) + 1
    islands = 0.0
    for island, n in held.items():
        free = sum(1 for c in cells[island] if not state.cover[c])
        chance = 0.8 if free <= 4 else 0.4
        islands += chance * COMPLETION_TABLE[min(n, len(COMPLETION_TABLE) - 1)] * time
    builder = 1.0 if p.posts else 0.5
    landscapes = builder * later * 0.9 * sum(len(SHAPES[t]) for t in p.landscapes)
    villages = (
        builder
        * later
        * sum(n * len(SHAPES[VILLAGES[v][0]]) * 0.7 for v, n in p.villages_held.items())
    )
    ships = 0.0
    on_board = [ship for ship in p.ships if ship >= 0]
    if on_board:
        harbours = _harbours(state)
        for ship in on_board:
            ships += later * max(0.0, 3.0 - 0.25 * harbours.get(ship, FAR))
    return [
        float(p.vp),
        float(gold),
        float(sum(r * (1 + g) for r, g in zip(p.raw, goods, strict=True))),
        later * 0.8 * len(p.goods),
        float(am.progress_vp(p.progress) + ORDER_TRACK[order][1]),
        later * 0.3 * order,
        markers,
        pirates,
        islands,
        landscapes,
        villages,
        later * 2.0 * min(len(p.posts), 6),
        ships,
    ]


FITTED = json.loads(Path(__file__).with_name("amerigo_weights.json").read_text())
"""Weights of ``terms`` fitted by ``bench/fit_amerigo.py``, per player count: ``a + b *
later`` each."""


def estimate(state: am.State, seat: int, now: am.State) -> float:
    """The fitted estimate of ``seat``'s final score: its ``terms`` weighed as fitted on
    games between medium players."""
    if state.phase == "over":
        return float(state.players[seat].vp)
    fitted = FITTED[str(len(state.players))]
    later = later_share(now)
    return sum(
        (a + b * later) * t
        for a, b, t in zip(fitted["a"], fitted["b"], terms(state, seat, now), strict=True)
    )


def _cheap(state: am.State, action: dict) -> float:
    """A quick guess at a step's worth, to shortlist placements and voyages without a
    trading post."""
    if action["type"] == "build":
        cells = action["cells"]
        large = state.map.large(state.map.island[cells[0]])
        raw = sum(1 for c in cells if c in state.raw_left)
        return len(cells) * (1.5 if large else 1.0) + 2 * raw
    return -_harbours(state).get(action["to"], FAR)


def _steps(state: am.State) -> list[dict]:
    """The steps worth judging now: no AP bought, no cash, shortlisted placements and
    voyages."""
    legal = am.legal_actions(state)
    keep, builds, sails = [], [], []
    for a in legal:
        kind = a["type"]
        if kind == "build":
            builds.append(a)
        elif kind == "sail" and not a["post"]:
            sails.append(a)
        elif kind not in ("buy_ap", "cash"):
            keep.append(a)
    for pool, size in ((builds, BUILD_SHORTLIST), (sails, SAIL_SHORTLIST)):
        if len(pool) > size:
            pool.sort(key=lambda a: -_cheap(state, a))
            pool = pool[:size]
        keep += pool
    return keep


def _best(state: am.State, seat: int) -> tuple[float, dict]:
    """The step whose result ``worth`` rates highest (the first of equals)."""
    best, best_worth = None, float("-inf")
    for a in _steps(state):
        w = worth(am.apply(state, a), seat, state)
        if w > best_worth:
            best, best_worth = a, w
    return best_worth, best


def _step(state: am.State, seat: int) -> dict:
    """The next step of the seat's action; buying AP first when a bought AP (1 gold) makes
    the best step worth more than it costs."""
    best_worth, best = _best(state, seat)
    bought = state
    for _ in range(BUY_AP):
        if BUY not in am.legal_actions(bought):
            break
        bought = am.apply(bought, BUY)
        w, _a = _best(bought, seat)
        if w > best_worth + 0.1:
            return BUY
    return best


def _finish(state: am.State, seat: int) -> am.State:
    """Play the seat's action under way to its end, step by step as ``_step`` would."""
    while am.current_player(state) == seat and state.phase == "act":
        state = am.apply(state, _step(state, seat), inplace=True)
    return state


def play_medium(state: am.State, view: dict, legal: list, seed: int, **limits: Any) -> Any:
    """In ``choose``: the option whose action, played out greedily, ends worth most; while
    acting: the greedy step."""
    seat = am.current_player(state)
    if state.phase == "act":
        return _step(state, seat)
    best, best_worth = None, float("-inf")
    for a in legal:
        if a["type"] == "cash":
            continue
        w = worth(_finish(am.apply(state, a), seat), seat, state)
        if w > best_worth:
            best, best_worth = a, w
    return best


# --- hard --------------------------------------------------------------------------------

SIMULATIONS = 6
"""Playouts a move by default (the site's hard player): one for each of the three options
searched, then one more for the two best; at most about 2.1 s of CPU a move on the project's
machine (``docs/benchmarks.md``). The playouts of one option differ little (their paired
differences' standard error is mostly below 1 VP, the options' differences several VP), so
a longer look buys more than more playouts. The budget is counted in playouts, so a move
depends on its seed only, and ``budget`` (seconds) caps the wall time as a safety net."""
HARD = {"top": 3, "turns": 4, "rival": 1.0, "z": 0.0, "fitted": 1.0}
"""The options searched (medium's best few), how many turn ends a playout passes after the
seat's action (4: to the end of the third turn after this one), the weight of the best
rival's worth in a playout's score, and the standard errors by which a searched option must
beat medium's favourite (0: any lead), and whether a playout's end is judged by the fitted
``estimate`` (1) or by medium's hand-set ``worth`` (0: 50 % of 100 games against three
medium players, against 57 % fitted). Playing to the end of the next turn only (2) won
about 37 % against three medium players, the end of the turn under way (1) 27.5 %; scoring
the seat's worth alone gained little over medium in trial games."""


def _medium_turn(state: am.State) -> am.State:
    """The state after the seat to choose plays its whole action as the medium player."""
    seat = am.current_player(state)
    best, best_worth = state, float("-inf")
    for a in am.legal_actions(state):
        if a["type"] == "cash":
            continue
        after = _finish(am.apply(state, a), seat)
        w = worth(after, seat, state)
        if w > best_worth:
            best, best_worth = after, w
    return best


def _margin(state: am.State, seat: int) -> float:
    """The seat's estimated final score less the best rival's (weighted by
    ``HARD["rival"]``)."""
    judge = estimate if HARD["fitted"] else worth
    mine = judge(state, seat, state)
    rival = max(judge(state, s, state) for s in range(len(state.players)) if s != seat)
    return mine - HARD["rival"] * rival


def _playout(state: am.State, seat: int) -> float:
    """From the end of the seat's action, every seat plays as the medium player until the turn
    has changed ``HARD["turns"]`` times (a seat acting last in its turn looks one turn
    further); the seat's margin over its best rival then. Rivals' actions are what the
    medium player misses: a trading-post field or goods marker taken first, the pirates at a
    round's end."""
    turns = 0
    at = (state.round, state.turn)
    while state.phase != "over":
        if (state.round, state.turn) != at:
            turns += 1
            if turns >= HARD["turns"]:
                break
            at = (state.round, state.turn)
        state = _medium_turn(state)
    return _margin(state, seat)


def _search(
    state: am.State,
    view: dict,
    seed: int,
    budget: float | None,
    simulations: int | None,
    include: Any = None,
) -> halving.Found:
    """Medium's best few options (and ``include``), each played out (``_playout``) on the
    same determinizations of the view, split by sequential halving (``halving``) with
    ``simulations`` playouts in all (default ``SIMULATIONS``): a playout's reward is the seat's
    margin over the best rival, its win 1 for a lead (a tie half). While acting the only
    option is medium's step (the playouts finish actions so too)."""
    seat = am.current_player(state)
    if state.phase == "act":
        cands = [_step(state, seat)]
    else:
        scored = []
        for a in am.legal_actions(state):
            if a["type"] != "cash":
                w = worth(_finish(am.apply(state, a), seat), seat, state)
                scored.append((-w, len(scored), a))
        scored.sort(key=lambda t: t[:2])
        cands = [a for _w, _k, a in scored[: HARD["top"]]]
    kept = set()
    if include is not None:
        if include not in cands:
            cands.append(include)
        kept.add(cands.index(include))
    # Every playout runs on a determinization of its own drawing, never on ``state``: what
    # ``state`` holds beyond the view is only a guess too, and one guess would be trusted.
    rng = random.Random(seed)

    def batch(alive: list[int]) -> list[tuple[float, float, float]]:
        guess = am.determinize(view, rng.getrandbits(32))
        out = []
        for i in alive:
            margin = _playout(_finish(am.apply(guess, cands[i]), seat), seat)
            out.append((margin, (margin > 0) + (margin == 0) / 2, 1))
        return out

    return halving.search(cands, kept, batch, simulations or SIMULATIONS, budget)


def play_hard(
    state: am.State,
    view: dict,
    legal: list,
    seed: int,
    *,
    budget: float | None = None,
    simulations: int | None = None,
) -> Any:
    """The searched option (``_search``) with the best mean margin over the best rival."""
    return halving.pick(_search(state, view, seed, budget, simulations), HARD["z"])


def analyse(
    state: am.State,
    view: dict,
    seed: int,
    *,
    budget: float | None = None,
    simulations: int | None = None,
    include: Any = None,
) -> list[Estimate]:
    """What the search makes of each option (and of ``include``): its win is the share of
    playouts after which the seat leads its best rival (a tie counts half). The playouts
    end a turn or two ahead, so in Amerigo this is a lead, not the game's final result."""
    return halving.estimates(_search(state, view, seed, budget, simulations, include))


BOTS: dict[str, Bot] = {
    "random": play_random,
    "easy": play_easy,
    "medium": play_medium,
    "hard": play_hard,
}
"""Every level the site offers."""
