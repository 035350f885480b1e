"""The cube tower as a model: cubes stay inside the physical tower and come out later.

Each cube thrown in comes out at once with probability 2/3; each cube already inside comes
out with probability 1/3 (a published model of such towers; about 5 cubes stay inside). What
is inside is hidden from every seat.
"""

from __future__ import annotations

import random

from .data import COLOURS

NEW_OUT = 2 / 3
INSIDE_OUT = 1 / 3


def throw(inside: list[int], thrown: list[int], rng: random.Random) -> list[int]:
    """Throw ``thrown`` (a count per colour) into the tower holding ``inside`` (changed in
    place); return the counts per colour that land in the tray. Draws go colour by colour,
    first the cubes inside, then the new ones, so a seed always gives the same throw."""
    out = [0] * len(COLOURS)
    for k in range(len(COLOURS)):
        stay = 0
        for _ in range(inside[k]):
            if rng.random() < INSIDE_OUT:
                out[k] += 1
            else:
                stay += 1
        for _ in range(thrown[k]):
            if rng.random() < NEW_OUT:
                out[k] += 1
            else:
                stay += 1
        inside[k] = stay
    return out
