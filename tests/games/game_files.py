"""Exported game files written from the engine alone: a whole game in a few milliseconds, for
the tests of replaying and importing."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from pathlib import Path
from typing import Any

from games.registry import get_engine


def game_file(
    seed: int = 5, names=("anna", "bob"), options=None, engine: str = "puerto_rico"
) -> dict[str, Any]:
    """A finished game of random legal moves, as ``docs/export.md`` writes it: a move that was
    the only legal one is forced, as the site plays it for a person; every other move is a
    decision of the seat's person."""
    pr = get_engine(engine)
    state = pr.new_game(len(names), seed, options)
    draw = random.Random(seed)
    moves = []
    while not pr.is_over(state):
        legal = pr.legal_actions(state)
        action = legal[draw.randrange(len(legal))]
        seat, events = pr.current_player(state), []
        state = pr.apply(state, action, log=events)
        moves.append(
            {
                "version": len(moves) + 1,
                "kind": "action",
                "seat": seat,
                "action": pr.action_to_json(action),
                "events": events,
                "forced": len(legal) == 1,
            }
        )
    decisions = Counter(move["seat"] for move in moves if not move["forced"])
    return {
        "format": "puerto-game",
        "format_version": 2,
        "engine": engine,
        "options": dict(options or {}),
        "num_players": len(names),
        "seed": seed,
        "players": [{"seat": i, "name": name, "ai": ""} for i, name in enumerate(names)],
        "moves": moves,
        "chat": [],
        "result": [
            {
                **dataclasses.asdict(place),
                "played_by": "person",
                "person_decisions": decisions[place.seat],
                "ai_decisions": 0,
            }
            for place in pr.outcome(state)
        ],
        "finished_at": None,
    }


def with_an_undo(data: dict, index: int) -> dict:
    """``data`` with the move at ``index`` taken back at once and played again."""
    data = copy.deepcopy(data)
    move = data["moves"][index]
    undo = {
        "version": move["version"] + 1,
        "kind": "undo",
        "seat": move["seat"],
        "action": {"undo": [move["version"]]},
        "events": [{"event": "undo", "seat": move["seat"], "moves": 1}],
        "forced": False,
    }
    again = {**move, "version": move["version"] + 2}
    later = [{**m, "version": m["version"] + 2} for m in data["moves"][index + 1 :]]
    data["moves"] = [*data["moves"][: index + 1], undo, again, *later]
    return data


FORMAT_1 = Path(__file__).parent / "files" / "format-1.json"
"""``game_file(seed=5)`` as the site wrote it before version 2 of the format: its ``result``
is the engine's scores and winners of that time."""
