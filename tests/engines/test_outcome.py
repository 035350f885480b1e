"""Every engine's ``outcome``: one standing per seat, in seat order, at any moment of a game;
the parts add up to the score; placements follow the rulebook's order, ties sharing one and
the next one skipping. The rulebooks' own tie rules are tested with each engine's examples
(``test_edge_cases``, ``amerigo/test_rulebook_examples``)."""

import dataclasses
import itertools
import json
import random

import pytest

from games.engines import amerigo, puerto_rico
from games.engines.protocol import placements

ENGINES = {"puerto_rico": puerto_rico, "amerigo": amerigo}
"""The engines of the site, as pure Python (no shelf: these tests need no Django)."""


def test_placements_share_ties_and_skip_after_them():
    assert placements([5, 7, 7, 1]) == [3, 1, 1, 4]
    assert placements([(3, 0), (3, 2), (3, 2), (3, 1)]) == [4, 1, 1, 3]
    assert placements([0, 0]) == [1, 1]


def total(parts) -> int:
    return sum(v if isinstance(v, int) else sum(v.values()) for v in parts.values())


def states_of_a_game(engine: str, seed: int):
    """Every tenth state of a random game, and its last."""
    rules = ENGINES[engine]
    state = rules.new_game(min(rules.PLAYER_COUNTS) + 1, seed)
    draw, step = random.Random(seed), 0
    while not rules.is_over(state):
        if step % 10 == 0:
            yield state
        legal = rules.legal_actions(state)
        state = rules.apply(state, legal[draw.randrange(len(legal))])
        step += 1
    yield state


@pytest.mark.parametrize("engine", ENGINES)
def test_the_outcome_is_a_standing_per_seat_whose_parts_add_up(engine):
    rules = ENGINES[engine]
    for state in states_of_a_game(engine, seed=11):
        table = rules.outcome(state)
        assert [s.seat for s in table] == list(range(len(table)))
        for standing in table:
            assert standing.score == total(standing.parts), standing
            # JSON-ready, as the platform stores it.
            assert json.loads(json.dumps(dataclasses.asdict(standing))) == dataclasses.asdict(
                standing
            )
        by_place = sorted(table, key=lambda s: s.placement)
        assert by_place[0].placement == 1
        for better, worse in itertools.pairwise(by_place):
            assert better.score >= worse.score
            if worse.placement != better.placement:  # 1, 1, 3: the shared places are skipped
                assert worse.placement == 1 + sum(s.placement < worse.placement for s in table)
    assert rules.is_over(state)


def test_puerto_rico_seats_share_a_placement_only_when_equal_in_vp_and_doubloons_and_goods():
    pr = puerto_rico
    for state in states_of_a_game("puerto_rico", seed=4):
        table = pr.outcome(state)
        for a in table:
            for b in table:
                same = (a.score, a.tiebreak) == (b.score, b.tiebreak)
                assert (a.placement == b.placement) == same


def test_amerigo_seats_never_share_a_placement():
    am = amerigo
    for state in states_of_a_game("amerigo", seed=4):
        table = am.outcome(state)
        assert sorted(s.placement for s in table) == list(range(1, len(table) + 1))
