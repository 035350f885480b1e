"""A complete state consistent with what one seat sees, for search over hidden information.

``player_view`` hides the face-down plantation order, the random seed, (with hidden VP
chips) the other seats' VP and (New Buildings) the kinds of tiles another seat drew face down
and laid as forests or has just drawn. ``determinize`` fills these in with one plausible
guess: the unseen tiles shuffled, the first of them taken as those forests' kinds and the tile
just drawn, the rest the stack; a fresh seed; and the VP chips given out split evenly among
the seats whose VP is hidden. Everything that lies open on the table is kept as it is, so the
legal actions are those of the real state.
"""

from __future__ import annotations

import random
from typing import Any

from .data import GOODS, SETUPS
from .state import State


def _unseen_tiles(view: dict[str, Any]) -> list[str]:
    """Plantations of the box that are on no island, no forest of a kind the view shows, not
    face up and not discarded."""
    left = dict(zip(GOODS, SETUPS[view["num_players"]].plantations, strict=True))
    for pl in view["players"]:
        for kind, tile in pl["island"].items():
            if kind in left:
                left[kind] -= tile["tiles"]
        for kind, n in pl.get("forest_kinds", {}).items():
            left[kind] -= n
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

    def guess() -> str:
        return stack.pop() if stack else rng.choices(GOODS, weights=box)[0]

    players = [dict(pl) for pl in view["players"]]
    for pl in players:
        kinds = dict(pl.get("forest_kinds", {}))
        secret = dict(pl.get("secret_forest_kinds", {}))
        for _ in range(pl.get("forests", 0) - sum(kinds.values())):
            kind = guess()
            kinds[kind] = kinds.get(kind, 0) + 1
            secret[kind] = secret.get(kind, 0) + 1
        if kinds:
            pl["forest_kinds"] = kinds
        if secret:
            pl["secret_forest_kinds"] = secret
    phase_state = view["phase_state"]
    if phase_state.get("drawn_hidden") and phase_state["drawn"] is None:
        kind = guess()
        drawer = players[view["current"]]
        island = drawer["island"] = dict(drawer["island"])
        tile = island.get(kind, {"tiles": 0, "colonists": 0})
        island[kind] = {**tile, "tiles": tile["tiles"] + 1}
        data["phase_state"] = {**phase_state, "drawn": kind}
    while len(stack) < size:
        stack.append(rng.choices(GOODS, weights=box)[0])
    data["plantations"] = {**view["plantations"], "stack": stack[:size]}
    data["rng"] = rng.getrandbits(63)

    hidden = [pl for pl in players if pl["vp"] is None]
    if hidden:
        given = view["options"]["vp_chips"] - view["vp_chips"]
        known = sum(pl["vp"] for pl in players if pl["vp"] is not None)
        share, extra = divmod(max(0, given - known), len(hidden))
        for i, pl in enumerate(hidden):
            pl["vp"] = share + (1 if i < extra else 0)
    data["players"] = players
    return State.from_json(data)
