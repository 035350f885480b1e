"""What one seat (or a moderator) may see, the state as that shows it (for the board), and
which decisions show a seat something it did not know."""

from __future__ import annotations

from typing import Any

from .rules import apply
from .scoring import outcome
from .state import State


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may know it (``None``: a spectator).

    Removed: the order of the face-down plantations (only their number is shown), the
    random seed, with hidden VP chips until the game is over the other seats' VP, and what
    only another seat has seen of its island (New Buildings, the forest house): the kinds of
    its forests laid from tiles drawn face down, and a tile it has just drawn and may still
    lay as a forest (``drawn`` is then ``None``, ``drawn_hidden`` true, and the tile is not
    among its island's tiles).
    """
    data = _view(state, seat, [_vp_hidden(state, seat, i) for i in range(state.num_players)])
    for i, pl in enumerate(data["players"]):
        if i != seat:
            _hide_secret_forests(pl)
    if state.drawn_hidden and state.current != seat:
        _hide_drawn(data)
    return data


def moderator_view(state: State) -> dict[str, Any]:
    """``player_view``'s shape for a moderator, who may know what any seat knows: every
    seat's VP chips, face down or not. What no seat knows, the face-down plantations' order
    and the seed, has no place in it (the moderator's page lists the whole state)."""
    return _view(state, None, [False] * state.num_players)


def _view(state: State, seat: int | None, vp_hidden: list[bool]) -> dict[str, Any]:
    data = state.to_json()
    del data["rng"]
    plantations = data["plantations"]
    plantations["stack"] = len(plantations.pop("stack"))
    for pl, hidden in zip(data["players"], vp_hidden, strict=True):
        if hidden:
            pl["vp"] = None
    data["seat"] = seat
    return data


def _hide_secret_forests(pl: dict[str, Any]) -> None:
    """The forests' kinds the others know: those laid from a face-up tile, or shown since."""
    secret = pl.pop("secret_forest_kinds", {})
    if secret:
        kinds = {kind: n - secret.get(kind, 0) for kind, n in pl["forest_kinds"].items()}
        pl["forest_kinds"] = {kind: n for kind, n in kinds.items() if n}
        if not pl["forest_kinds"]:
            del pl["forest_kinds"]


def _hide_drawn(data: dict[str, Any]) -> None:
    """The current seat's tile just drawn face down, not yet on its island for the others.
    No guest stands on it (a guest moved onto it shows it): only its count changes."""
    phase_state = data["phase_state"]
    island = data["players"][data["current"]]["island"]
    kind = phase_state["drawn"]
    phase_state["drawn"] = None
    island[kind] = {**island[kind], "tiles": island[kind]["tiles"] - 1}
    if not island[kind]["tiles"]:
        del island[kind]


def masked_state(view: dict[str, Any]) -> State:
    """The state as ``view`` shows it, to ask the rules about what lies open (a price, the
    draft's free spaces). What the view hides is masked, never guessed as ``determinize``
    guesses it: each face-down plantation is ``None``, so is the seed, so is a VP total lying
    face down. Not for playing on: drawing from its stack draws ``None``."""
    data = {key: value for key, value in view.items() if key != "seat"}
    data["rng"] = None
    data["plantations"] = {**view["plantations"], "stack": []}
    state = State.from_json(data)
    state.stack = [None] * view["plantations"]["stack"]
    return state


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
