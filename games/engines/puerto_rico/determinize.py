"""A complete state consistent with what one seat sees, for search over hidden information.

``player_view`` hides the face-down plantation order, the random seed and (with hidden VP
chips) the other seats' VP. ``determinize`` fills these in with one plausible guess: the
unseen tiles in a shuffled order, a fresh seed, and the VP chips given out split evenly among
the seats whose VP is hidden. Everything that lies open on the table is kept as it is, so the
legal actions are those of the real state.
"""

from __future__ import annotations

import random
from typing import Any

from .data import GOODS, SETUPS
from .state import State


def _unseen_tiles(view: dict[str, Any]) -> list[str]:
    """Plantations of the box that are on no island, not face up and not discarded."""
    left = dict(zip(GOODS, SETUPS[view["num_players"]].plantations, strict=True))
    for pl in view["players"]:
        for kind, tile in pl["island"].items():
            if kind in left:
                left[kind] -= tile["tiles"]
    plantations = view["plantations"]
    for kind in (*plantations["face_up"], *plantations["discards"]):
        left[kind] -= 1
    return [kind for kind in GOODS for _ in range(max(0, left[kind]))]


def determinize(view: dict[str, Any], seed: int) -> State:
    """A full state agreeing with ``view`` (a ``player_view``) on everything it shows.

    The guess is drawn from ``random.Random(seed)``: the same view and seed give the same
    state. A hand-made position whose tiles do not add up to the box still gets a stack of
    the size the view shows, topped up with tiles drawn in the box's proportions.
    """
    rng = random.Random(seed)
    data = {key: value for key, value in view.items() if key != "seat"}
    size = view["plantations"]["stack"]
    stack = _unseen_tiles(view)
    rng.shuffle(stack)
    box = SETUPS[view["num_players"]].plantations
    while len(stack) < size:
        stack.append(rng.choices(GOODS, weights=box)[0])
    data["plantations"] = {**view["plantations"], "stack": stack[:size]}
    data["rng"] = rng.getrandbits(63)

    players = [dict(pl) for pl in view["players"]]
    hidden = [pl for pl in players if pl["vp"] is None]
    if hidden:
        given = view["options"]["vp_chips"] - view["vp_chips"]
        known = sum(pl["vp"] for pl in players if pl["vp"] is not None)
        share, extra = divmod(max(0, given - known), len(hidden))
        for i, pl in enumerate(hidden):
            pl["vp"] = share + (1 if i < extra else 0)
    data["players"] = players
    return State.from_json(data)
