"""Short playouts for the hard player's search (``search.PARAMS``, off by default: they were
measured weaker than whole games): a cheap role policy to play them and an evaluation of
where they stop, each seat's chance to win; and the final result, which whole playouts use.
Both are linear in a few features read off the table, with weights fitted on games between
the heuristic players (``bench/fit_hard.py`` writes ``weights.json``): the heuristic's role
scores cost most of a playout, and a game played to its end costs fifteen rounds.

Features read only what lies open on the table (and the VP a determinization gave each seat).
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

from games.engines.puerto_rico.common import uses_nobles
from games.engines.puerto_rico.craftsman import capacity
from games.engines.puerto_rico.data import (
    ALL_GOODS,
    BUILDINGS,
    CITY_SPACES,
    ISLAND_SPACES,
    QUARRY,
    TRADING_HOUSE_SPACES,
)
from games.engines.puerto_rico.powers import HOOKS, SCORING, SELL_SAME_KIND, has
from games.engines.puerto_rico.state import Player, State
from games.engines.puerto_rico.trader import sale_price

from .knowledge import LARGE, rounds_left

WEIGHTS = json.loads(Path(__file__).with_name("weights.json").read_text())
"""Fitted by ``bench/fit_hard.py``: ``evaluation`` and ``roles`` per player count (as a
string; a count not fitted uses the nearest one)."""

EVALUATION_FEATURES = (
    "doubloons",
    "barrels",
    "production",
    "kinds",
    "quarries",
    "colonists",
    "empty_circles",
    "free_city",
    "free_island",
    "empty_large",
)
"""What a seat has beyond its score that will still bring VP: each weighed by ``a + b * r``
(``r`` the rounds left) in the evaluation."""

_SCORING = tuple((h.building, h.fn) for h in HOOKS[SCORING])
_SELL_SAME_KIND = HOOKS[SELL_SAME_KIND]
_VP = {name: b.vp for name, b in BUILDINGS.items()}


def _fitted(kind: str, num_players: int) -> dict:
    fitted = WEIGHTS[kind]
    return fitted[min(fitted, key=lambda n: abs(int(n) - num_players))]


def score(pl: Player, nobles: bool) -> int:
    """The seat's score if the game ended now (``scoring.outcome`` without its table)."""
    city = pl.city
    points = pl.vp + sum(map(_VP.__getitem__, city))
    points += sum(fn(pl) for b, fn in _SCORING if city.get(b))
    return points + pl.nobles() if nobles else points


def scores(state: State) -> list[int]:
    """Every seat's ``score``."""
    nobles = uses_nobles(state)
    return [score(pl, nobles) for pl in state.players]


def evaluation_features(pl: Player) -> list[float]:
    """The ``EVALUATION_FEATURES`` of one seat."""
    made = capacity(pl)
    city = pl.city
    return [
        pl.doubloons,
        sum(pl.goods),
        sum(made),
        sum(1 for g in ALL_GOODS if made[g]),
        pl.worked[QUARRY],
        pl.colonists(),
        pl.empty_building_circles(),
        CITY_SPACES - pl.city_spaces_used(),
        ISLAND_SPACES - pl.island_filled(),
        sum(1 for b in LARGE if b in city and not city[b]),
    ]


def expected_scores(state: State) -> list[float]:
    """Each seat's final score as the evaluation expects it: its score now and what its
    board will still bring over the rounds left."""
    fitted = _fitted("evaluation", state.num_players)
    a, b = fitted["a"], fitted["b"]
    r = rounds_left(state)
    weights = [x + y * r for x, y in zip(a, b, strict=True)]
    nobles = uses_nobles(state)
    return [
        score(pl, nobles)
        + sum(w * f for w, f in zip(weights, evaluation_features(pl), strict=True))
        for pl in state.players
    ]


def win_chances(state: State) -> list[float]:
    """Each seat's chance to win from here: a softmax of the expected scores, the wider the
    more rounds are left. At the end of the game the result itself (a tie for the win
    shared)."""
    if state.phase == "over":
        table = [
            (points, pl.doubloons + sum(pl.goods))
            for points, pl in zip(scores(state), state.players, strict=True)
        ]
        best = max(table)
        firsts = table.count(best)
        return [1 / firsts if s == best else 0.0 for s in table]
    fitted = _fitted("evaluation", state.num_players)
    width = fitted["t0"] + fitted["t1"] * rounds_left(state)
    expected = expected_scores(state)
    top = max(expected)
    exps = [math.exp((e - top) / width) for e in expected]
    total = sum(exps)
    return [e / total for e in exps]


# The role policy ----------------------------------------------------------------------------

ROLE_FEATURES = ("bias", "doubloons_on_card", "mine", "best_rival")
"""A role's features for the seat choosing: the doubloons on its card, and how much the role
gives the seat and its best-placed rival by a one-number measure of the role's own (free
island spaces, colonists to place, doubloons, production, sale price, barrels to ship)."""


def _sale(state: State, seat: int) -> int:
    """The best price the seat gets for a barrel at the trading house now (0: none)."""
    house = state.trading_house
    if len(house) >= TRADING_HOUSE_SPACES:
        return 0
    pl = state.players[seat]
    office = has(pl, _SELL_SAME_KIND)
    return max(
        (
            sale_price(state, seat, g)
            for g in ALL_GOODS
            if pl.goods[g] and (office or g not in house)
        ),
        default=0,
    )


def _gains(state: State, seat: int) -> dict[str, float]:
    """What each role gives ``seat``, by its one-number measure."""
    pl = state.players[seat]
    jobs = pl.empty_building_circles() + sum(pl.tiles) - sum(pl.worked) - pl.san_juan
    return {
        "settler": min(3, ISLAND_SPACES - pl.island_filled()),
        "mayor": max(0, min(jobs, state.colonist_ship // state.num_players + 1)),
        "builder": pl.doubloons,
        "craftsman": sum(capacity(pl)),
        "trader": _sale(state, seat),
        "captain": sum(pl.goods),
        "prospector": 0,
    }


def role_features(state: State) -> dict[str, list[float]]:
    """The ``ROLE_FEATURES`` of each role the seat to act may choose."""
    me = state.current
    gains = [_gains(state, seat) for seat in range(state.num_players)]
    out: dict[str, list[float]] = {}
    for role, doubloons, taken_by in state.roles:
        if taken_by is None and role not in out:
            rival = max(g[role] for seat, g in enumerate(gains) if seat != me)
            out[role] = [1.0, doubloons, gains[me][role], rival]
    return out


def choose_role(state: State, rng: random.Random) -> str:
    """A role drawn with the fitted chances that the heuristic player takes it."""
    fitted = _fitted("roles", state.num_players)
    roles = role_features(state)
    logits = [
        sum(w * f for w, f in zip(fitted[role], features, strict=True))
        for role, features in roles.items()
    ]
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    pick = rng.random() * sum(exps)
    for role, e in zip(roles, exps, strict=True):
        pick -= e
        if pick <= 0:
            return role
    return role
