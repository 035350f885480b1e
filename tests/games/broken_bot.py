"""A bot that always fails, as the AI level ``broken``: importing this module adds it to the
bots (a test worker imports it with ``--include``)."""

from games.bots.puerto_rico import BOTS

LEVEL = "broken"


def play(state, view, legal, seed, **limits):
    raise RuntimeError("this bot always fails")


BOTS[LEVEL] = play
