"""What one seat may see, and which decisions show it something it did not know."""

from __future__ import annotations

from typing import Any

from .rules import apply
from .scoring import outcome
from .state import State


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may know it (``None``: a spectator).

    Removed: the order of the face-down plantations (only their number is shown), the
    random seed, and, with hidden VP chips until the game is over, the other seats' VP.
    """
    data = state.to_json()
    del data["rng"]
    plantations = data["plantations"]
    plantations["stack"] = len(plantations.pop("stack"))
    for i, pl in enumerate(data["players"]):
        if _vp_hidden(state, seat, i):
            pl["vp"] = None
    data["seat"] = seat
    return data


def _vp_hidden(state: State, viewer: int | None, seat: int) -> bool:
    """Whether ``viewer`` may not know ``seat``'s VP chips (face down until the game ends)."""
    return bool(state.options.get("hidden_vp")) and state.phase != "over" and seat != viewer


def known_scores(state: State, seat: int | None) -> list[int | None]:
    """Each seat's total VP as ``seat`` may know it now: ``None`` for a total that holds VP
    chips lying face down (``hidden_vp``), so a score chart shows nothing it may not."""
    return [
        None if _vp_hidden(state, seat, standing.seat) else standing.score
        for standing in outcome(state)
    ]


def round_number(state: State) -> int:
    """The round being played (1 for the first), or the last one once the game is over (the
    last round's end has already counted the next), for charts over the rounds."""
    return state.round - 1 if state.phase == "over" else state.round


def reveals(state: State, action) -> bool:
    """Whether ``action`` turns hidden information face up, so that taking it back would let
    its seat choose again knowing what it may not know: the hacienda's draw from the
    face-down stack, the plantation row refilled from it at the end of the settler phase,
    or a reshuffle of the discards (which also consumes the secret seed). Each of these, and
    nothing else, changes the stack or the seed, so that is what is compared."""
    after = apply(state, action)
    return after.stack != state.stack or after.rng != state.rng
