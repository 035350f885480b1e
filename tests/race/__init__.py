"""Race to 21, a game that lives only in the tests: registered on the shelf by the tests that
play it (``on_the_shelf``), it proves a game plugs into every part of the platform through its
``GameSpec`` alone."""

from __future__ import annotations

import random
from typing import Any

from games.bots import play_random
from games.registry import GameSpec

from . import engine, ui


def play_greedy(state: dict, view: dict, legal: list, seed: int, **limits: Any) -> dict:
    """The highest card that fits, else a draw: what every level above random does."""
    plays = [a for a in legal if a["type"] == "play"]
    if plays and (len(plays) > 1 or random.Random(seed).random() < 0.8):
        return max(plays, key=lambda a: a["card"])
    return legal[-1]


GAME = GameSpec(
    name=engine.NAME,
    title="Race to 21",
    engine=engine,
    bots={"random": play_random, "easy": play_greedy, "medium": play_greedy, "hard": play_greedy},
    template=ui.BOARD,
    board_context=ui.board_context,
    moderator_board_context=ui.moderator_board_context,
    action_from_post=ui.action_from_post,
    describe_event=ui.describe_event,
    describe_refusal=ui.describe_refusal,
    rules_template=ui.RULES,
    rules_context=lambda: {"target": 21},
    option_texts={"target": ("Target", "The score to reach exactly.")},
    outcome_parts={"cards": "Cards played"},
)
