"""AI players for Amerigo: ``random`` (uniform over the legal actions) and ``easy`` (one step
of look-ahead on a sample of the actions, scored by a rough value of the seat's position).

Like the Puerto Rico players they see only their seat's view: ``choose_action`` hands them
a determinized state.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines import amerigo as am
from games.engines.amerigo.data import GOODS

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


def play_random(state: Any, view: dict, legal: list, seed: int, **limits: Any) -> Any:
    return legal[random.Random(seed).randrange(len(legal))]


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


BOTS = {"random": play_random, "easy": play_easy}
