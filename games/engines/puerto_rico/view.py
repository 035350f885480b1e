"""What one seat may see."""

from __future__ import annotations

from typing import Any

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
    if state.options.get("hidden_vp") and state.phase != "over":
        for i, pl in enumerate(data["players"]):
            if i != seat:
                pl["vp"] = None
    data["seat"] = seat
    return data
