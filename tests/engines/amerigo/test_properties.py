"""Property tests: random games from random seeds (bounded, derandomized examples).

Along each game: the components are conserved (cubes, tiles, markers, pirates, raw
materials), the tracks stay on their tracks, every offered action is accepted and a refused
one changes nothing, the same seed and actions give the same game, the JSON round trip keeps
everything, and no seat's view shows the tower's inside, the face-down markers or the unseen
pirate. Plain pytest: no database.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import amerigo as am
from games.engines.amerigo.data import (
    CANNON_MAX,
    COLOURS,
    CUBES_PER_COLOUR,
    GOLD_MAX,
    LANDSCAPES,
    ONE_TIME_MARKERS,
    PIRATES,
    PROGRESS_MARKERS,
    VILLAGES,
)
from games.engines.amerigo.rules import goods_markers
from games.engines.amerigo.state import derive_cover

PROPERTY = settings(
    max_examples=6, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PLAYERS = st.sampled_from(am.PLAYER_COUNTS)
MAX_DECISIONS = 5000


def random_game(n: int, seed: int, every: int = 1):
    """Yield (state, action) along a game played by uniform random choice."""
    rng = random.Random(seed)
    state = am.new_game(n, seed)
    for step in range(MAX_DECISIONS):
        if am.is_over(state):
            return
        legal = am.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        if step % every == 0:
            yield state, action
        state = am.apply(state, action)
    raise AssertionError("the game did not end")


def check_conservation(s) -> None:
    for k, _ in enumerate(COLOURS):
        assert s.tower[k] + s.supply[k] + s.field[k] == CUBES_PER_COLOUR
    built = Counter(b["tile"] for b in s.built)
    held = Counter(t for p in s.players for t in p.landscapes)
    for tile, count in LANDSCAPES.items():
        assert s.landscapes[tile] + held[tile] + built[tile] == count
    for seat, p in enumerate(s.players):
        mine = Counter(b["tile"] for b in s.built if b["seat"] == seat)
        for tile, (_, count) in VILLAGES.items():
            assert p.villages[tile] + p.villages_held[tile] + mine[tile] == count
        assert 0 <= p.gold <= GOLD_MAX and 0 <= p.cannons <= CANNON_MAX and p.vp >= 0
        assert len(p.posts) <= 12
        assert not Counter(p.used) - Counter(m for m in p.markers if m in ONE_TIME_MARKERS)
    markers = [m for m in s.progress if m is not None] + s.progress_stack + s.progress_discarded
    markers += [m for p in s.players for m in p.markers]
    assert Counter(markers) == Counter(PROGRESS_MARKERS)
    goods = [g for g in s.goods if g is not None] + s.goods_discarded
    goods += [g for stack in s.goods_stacks for g in stack]
    goods += [g for p in s.players for g in p.goods]
    assert sorted(map(tuple, goods)) == sorted(map(tuple, goods_markers(s.num_players)))
    assert sorted([*s.pirates_up, *s.pirates_down, s.pirates_unseen]) == sorted(PIRATES)
    assert len(s.raw_left) + sum(sum(p.raw) for p in s.players) == len(s.map.raw)
    assert s.cover == derive_cover(s)


@PROPERTY
@given(PLAYERS, SEEDS)
def test_components_are_conserved(n, seed):
    for state, _ in random_game(n, seed, every=7):
        check_conservation(state)


def _refused(state, action) -> None:
    before = am.to_json(state)
    try:
        am.apply(state, action)
    except am.IllegalAction as refusal:
        assert refusal.code in am.REFUSALS
    else:
        raise AssertionError(f"{action} was accepted but not offered")
    assert am.to_json(state) == before


@PROPERTY
@given(PLAYERS, SEEDS)
def test_offered_actions_are_accepted_and_others_refused(n, seed):
    rng = random.Random(seed)
    for state, _ in random_game(n, seed, every=5):
        legal = am.legal_actions(state)
        for action in rng.sample(legal, min(3, len(legal))):
            am.apply(state, action)
        probes = [{"type": "choose", "colour": c} for c in COLOURS] + [
            {"type": "advance", "steps": 99},
            {"type": "buy", "slot": 99},
            {"type": "done"},
        ]
        for probe in probes:
            if probe not in legal:
                _refused(state, probe)


@PROPERTY
@given(PLAYERS, SEEDS)
def test_same_seed_same_game_and_json_round_trip(n, seed):
    first = [(am.to_json(s), a) for s, a in random_game(n, seed, every=11)]
    again = [(am.to_json(s), a) for s, a in random_game(n, seed, every=11)]
    assert first == again
    for data, action in first:
        text = json.loads(json.dumps(data))
        state = am.from_json(text)
        assert am.to_json(state) == data
        assert am.legal_actions(state) == am.legal_actions(am.from_json(data))
        assert am.action_from_json(json.loads(json.dumps(am.action_to_json(action)))) == action


HIDDEN = ("tower", "rng")


@PROPERTY
@given(PLAYERS, SEEDS)
def test_no_view_shows_the_tower_the_face_down_markers_or_the_unseen_pirate(n, seed):
    for state, _ in random_game(n, seed, every=13):
        for seat in [None, *range(n)]:
            view = am.player_view(state, seat)
            assert not set(HIDDEN) & set(view)
            assert view["pirates"]["face_down"] == len(state.pirates_down)
            assert "unseen" not in view["pirates"]
            assert view["progress_stack"] == len(state.progress_stack)
            assert view["goods_stacks"] == [len(stack) for stack in state.goods_stacks]
            guess = am.determinize(view, seed)
            assert am.player_view(guess, seat) == view
            assert am.legal_actions(guess) == am.legal_actions(state)
            assert guess.tower == state.tower
