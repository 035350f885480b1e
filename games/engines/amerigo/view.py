"""What one seat may see, the state as it shows it (for the board), and a complete state
agreeing with it (for bots).

Hidden from every seat: what is inside the cube tower, the order of the face-down progress
markers and goods markers, the values of the face-down pirate markers and of the sixth
pirate, and the random seed. (The count per colour inside the tower follows from the cubes in
sight, as at the table; the view leaves the counting to the reader.)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .data import COLOURS, CUBES_PER_COLOUR, PIRATES, PROGRESS_MARKERS
from .rules import apply, goods_markers
from .state import State


def player_view(state: State, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may know it (``None``: a spectator)."""
    data = state.to_json()
    del data["rng"]
    del data["tower"]
    data["progress_stack"] = len(data["progress_stack"])
    data["goods_stacks"] = [len(stack) for stack in data["goods_stacks"]]
    pirates = data["pirates"]
    pirates["face_down"] = len(pirates["face_down"])
    del pirates["unseen"]
    data["seat"] = seat
    return data


def masked_state(view: dict[str, Any]) -> State:
    """The state as ``view`` shows it, to ask the rules about what lies open (a seat's
    action points, the pirates' strength). What the view hides is masked, never guessed as
    ``determinize`` guesses it: the tower's counts, each face-down progress marker, goods
    marker and pirate, the sixth pirate and the seed are ``None``. Not for playing on."""
    data = {key: value for key, value in view.items() if key != "seat"}
    data["rng"] = None
    data["tower"] = dict.fromkeys(COLOURS)
    data["progress_stack"] = []
    data["goods_stacks"] = [[] for _ in view["goods_stacks"]]
    data["pirates"] = {"face_up": view["pirates"]["face_up"], "face_down": [], "unseen": None}
    state = State.from_json(data)
    state.progress_stack = [None] * view["progress_stack"]
    state.goods_stacks = [[None] * size for size in view["goods_stacks"]]
    state.pirates_down = [None] * view["pirates"]["face_down"]
    return state


def _unseen(everything: list[Any], seen: list[Any]) -> list[Any]:
    left = Counter(map(repr, seen))
    out = []
    for item in everything:
        if left[repr(item)]:
            left[repr(item)] -= 1
        else:
            out.append(item)
    return out


def determinize(view: dict[str, Any], seed: int) -> State:
    """A full state agreeing with ``view`` on all it shows; hidden parts drawn from ``seed``."""
    rng = random.Random(seed)
    data = {k: v for k, v in view.items() if k != "seat"}
    data["tower"] = {c: CUBES_PER_COLOUR - view["supply"][c] - view["field"][c] for c in COLOURS}
    players = view["players"]
    markers = [m for m, n in PROGRESS_MARKERS.items() for _ in range(n)]
    seen = [m for m in view["progress"] if m is not None] + view["progress_discarded"]
    seen += [m for p in players for m in p["markers"]]
    stack = _unseen(markers, seen)
    rng.shuffle(stack)
    data["progress_stack"] = stack[: view["progress_stack"]]
    goods = goods_markers(view["num_players"])
    seen = [g for g in view["goods"] if g is not None] + view["goods_discarded"]
    seen += [g for p in players for g in p["goods"]]
    rest = _unseen(goods, seen)
    rng.shuffle(rest)
    stacks, at = [], 0
    for size in view["goods_stacks"]:
        stacks.append(rest[at : at + size])
        at += size
    data["goods_stacks"] = stacks
    pirates = _unseen(list(PIRATES), view["pirates"]["face_up"])
    rng.shuffle(pirates)
    down = view["pirates"]["face_down"]
    data["pirates"] = {
        "face_up": list(view["pirates"]["face_up"]),
        "face_down": pirates[:down],
        "unseen": pirates[down],
    }
    data["rng"] = rng.getrandbits(63)
    return State.from_json(data)


HIDDEN = ("rng", "tower", "progress_stack", "goods_stacks", "pirates")
"""The parts of the state's JSON that hold something hidden (the pirates: their face-down
values and the sixth marker)."""


def reveals(state: State, action: dict[str, Any]) -> bool:
    """Whether ``action`` shows something hidden: cubes thrown into the tower (what falls out
    was inside it), a progress or goods marker or a pirate turned face up, any use of the
    random seed. Each changes a hidden part of the state, so that is what is compared; the
    face-up pirates count too, as they move with the face-down ones."""
    before, after = state.to_json(), apply(state, action).to_json()
    return any(before[part] != after[part] for part in HIDDEN)


def known_scores(state: State, seat: int | None) -> list[int | None]:
    """Every seat's VP: the scoring track lies open to all."""
    return [p.vp for p in state.players]


def round_number(state: State) -> int:
    """The round being played (1-5); the fifth once the game is over."""
    return state.round
