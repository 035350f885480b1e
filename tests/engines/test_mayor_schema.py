"""The mayor's ``legal_schema``: a client that builds placements from it alone (the circles
of each island kind and building, the pieces of each variant, "fill what you can, the rest
waits in San Juan") finds exactly the engine's legal placements, with and without nobles."""

from __future__ import annotations

import itertools
import random

import pytest

from games.engines import puerto_rico as pr

MOST = 4_000
"""Positions with more placements than this are left out: the brute force below is slow."""


def mayor_positions(edition: str, seeds: range):
    for seed in seeds:
        rng = random.Random(seed)
        state = pr.new_game(3 + seed % 3, seed, {"edition": edition})
        while not pr.is_over(state):
            if state.phase == "mayor" and len(pr.legal_actions(state)) <= MOST:
                yield state
            legal = pr.legal_actions(state)
            state = pr.apply(state, legal[rng.randrange(len(legal))])


def splits(total: int, caps: list[int]):
    """Every way to put ``total`` pieces on groups of ``caps`` circles."""
    for counts in itertools.product(*(range(c + 1) for c in caps)):
        if sum(counts) == total:
            yield counts


def grouped(names: list[str], counts, islands: int) -> dict:
    """Counts by group as a placement's JSON has them: island kinds, then buildings."""
    pairs = list(zip(names, counts, strict=True))
    return {
        "island": {name: n for name, n in pairs[:islands] if n},
        "city": {name: n for name, n in pairs[islands:] if n},
    }


def built_from(schema: dict) -> set[str]:
    """Every placement a client builds from the schema, as the action's canonical JSON."""
    names = [*schema["island"], *schema["city"]]
    caps = [*schema["island"].values(), *schema["city"].values()]
    islands = len(schema["island"])
    out = set()
    for v in schema["variants"]:
        placed = min(v["colonists"] + v["nobles"], sum(caps))
        for counts in splits(placed, caps):
            # With nobles, each group's pieces are split into nobles and colonists.
            for nobles in itertools.product(*(range(n + 1) for n in counts)):
                if sum(nobles) > v["nobles"] or placed - sum(nobles) > v["colonists"]:
                    continue
                if not schema["nobles"] and any(nobles):
                    continue
                colonists = [n - m for n, m in zip(counts, nobles, strict=True)]
                action = {"type": "arrange", **grouped(names, colonists, islands)}
                action["privilege"] = v["privilege"]
                if schema["nobles"] and (any(nobles) or v["take_noble"]):
                    action["nobles"] = grouped(names, nobles, islands)
                    action["take_noble"] = v["take_noble"]
                out.add(repr(pr.action_to_json(pr.action_from_json(action))))
    return out


@pytest.mark.parametrize("edition", ["base", "nobles"])
def test_placements_built_from_the_schema_are_the_engines_legal_ones(edition):
    seen = 0
    for state in itertools.islice(mayor_positions(edition, range(6)), 40):
        schema = pr.legal_schema(state)
        legal = {repr(pr.action_to_json(a)) for a in pr.legal_actions(state)}
        assert built_from(schema) == legal
        seen += 1
    assert seen >= 20


def test_only_the_mayor_phase_has_a_schema():
    state = pr.new_game(4, 1)
    assert state.phase == "role" and pr.legal_schema(state) is None
