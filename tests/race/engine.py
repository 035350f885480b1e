"""Race to 21: a few lines of rules with hidden hands, a game that lives only in the tests.

Each player holds a hand of cards (1 to 6) the others do not see, drawn from a face-down deck.
On their turn a player either plays a card from their hand, adding its value to their score
(never past the target), or draws a card (a hand holds at most three): a draw shows hidden
information. With neither possible they pass; the game ends when a player reaches the target
exactly, or when every player passed in a row. Pure Python, as every engine.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from games.engines.protocol import SeatOutcome, placements
from games.engines.text import BAD_TEXT, holds_bad_text

NAME = "race"
PLAYER_COUNTS = (2, 3)
OPTIONS = (
    {
        "name": "target",
        "label": "Target",
        "help": "The score to reach exactly.",
        "type": "choice",
        "default": 21,
        "choices": (21, 31),
    },
)
CARDS = [value for value in range(1, 7) for _ in range(4)]
HAND = 3
REFUSALS = {
    "malformed": "that is not an action of this game",
    "bad_text": BAD_TEXT,
    "not_legal": "{action} is not possible now",
    "game_over": "the game is over",
}


class IllegalAction(ValueError):
    def __init__(self, code: str, **params: Any) -> None:
        self.code, self.params = code, params
        super().__init__(REFUSALS[code].format(**params))


def new_game(num_players: int, seed: int, options: dict | None = None) -> dict:
    if num_players not in PLAYER_COUNTS:
        raise ValueError(f"{num_players} players cannot race")
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    hands = [[deck.pop(), deck.pop()] for _ in range(num_players)]
    target = (options or {}).get("target", 21)
    return {"target": target, "deck": deck, "hands": hands, "played": [], "round": 1,
            "scores": [0] * num_players, "turn": 0, "passes": 0, "over": False}  # fmt: skip


def legal_actions(state: dict) -> list[dict]:
    if state["over"]:
        return []
    seat = state["turn"]
    hand, room = state["hands"][seat], state["target"] - state["scores"][seat]
    actions = [{"type": "play", "card": c} for c in sorted(set(hand)) if c <= room]
    if len(hand) < HAND and state["deck"]:
        actions.append({"type": "draw"})
    return actions or [{"type": "pass"}]


def apply(state: dict, action: dict, *, log: list | None = None, inplace: bool = False) -> dict:
    if state["over"]:
        raise IllegalAction("game_over")
    if action not in legal_actions(state):
        raise IllegalAction("not_legal", action=action["type"])
    state = state if inplace else copy.deepcopy(state)
    seat, events = state["turn"], log if log is not None else []
    state["passes"] = state["passes"] + 1 if action["type"] == "pass" else 0
    if action["type"] == "play":
        state["hands"][seat].remove(action["card"])
        state["played"].append(action["card"])
        state["scores"][seat] += action["card"]
        events.append({"event": "play", "seat": seat, "card": action["card"]})
        state["over"] = state["scores"][seat] == state["target"]
    elif action["type"] == "draw":
        state["hands"][seat].append(state["deck"].pop())
        events.append({"event": "draw", "seat": seat})
    else:
        events.append({"event": "pass", "seat": seat})
        state["over"] = state["passes"] == len(state["scores"])
    state["turn"] = (seat + 1) % len(state["scores"])
    state["round"] += state["turn"] == 0 and not state["over"]
    return state


def current_player(state: dict) -> int | None:
    return None if state["over"] else state["turn"]


def is_over(state: dict) -> bool:
    return state["over"]


def outcome(state: dict) -> tuple[SeatOutcome, ...]:
    """The higher score places higher; equal scores share a place."""
    scores = state["scores"]
    return tuple(
        SeatOutcome(seat, placement, scores[seat], {"cards": scores[seat]}, {})
        for seat, placement in enumerate(placements(scores))
    )


def player_view(state: dict, seat: int | None) -> dict:
    """Everything but the deck's order and the others' hands."""
    public = {k: copy.deepcopy(v) for k, v in state.items() if k not in ("deck", "hands")}
    return {**public, "seat": seat, "deck_size": len(state["deck"]),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "hand": list(state["hands"][seat]) if seat is not None else None}  # fmt: skip


def reveals(state: dict, action: dict) -> bool:
    return action["type"] == "draw"


def known_scores(state: dict, seat: int | None) -> list[int | None]:
    return list(state["scores"])


def round_number(state: dict) -> int:
    return state["round"]


def determinize(view: dict, seed: int) -> dict:
    """The others' hands and the deck dealt from the cards the viewer has not seen."""
    unseen = list(CARDS)
    for card in view["played"] + (view["hand"] or []):
        unseen.remove(card)
    random.Random(seed).shuffle(unseen)
    hands = [view["hand"] if s == view["seat"] else [unseen.pop() for _ in range(size)]
             for s, size in enumerate(view["hand_sizes"])]  # fmt: skip
    state = {k: copy.deepcopy(v) for k, v in view.items() if k in new_game(2, 0)}
    return {**state, "hands": hands, "deck": unseen}


def to_json(state: dict) -> dict:
    return copy.deepcopy(state)


def from_json(data: dict) -> dict:
    return copy.deepcopy(data)


def action_to_json(action: dict) -> dict:
    return dict(action)


def action_from_json(data: Any) -> dict:
    if holds_bad_text(data):
        raise IllegalAction("bad_text")
    if not isinstance(data, dict) or data.get("type") not in ("play", "draw", "pass"):
        raise IllegalAction("malformed")
    if data["type"] != "play":
        return {"type": data["type"]}
    card = data.get("card")
    if type(card) is not int or not 1 <= card <= 6:
        raise IllegalAction("malformed")
    return {"type": "play", "card": card}
