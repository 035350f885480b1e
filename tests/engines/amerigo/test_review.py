"""Rules the review of the engine against the German rulebook found broken, each named after
the rule (the rulebook's line quoted in the docstring)."""

from __future__ import annotations

import random

import pytest

from games.engines import amerigo as am
from games.engines.amerigo.data import CHESTS
from games.engines.amerigo.islands import generate

from .positions import play, position


def test_five_treasure_chests_so_at_most_five_large_islands():
    """Material: "5 Schatztruhen - für die Großinseln"; setup: "Inseln mit 20 oder mehr
    Landfeldern sind Großinseln und erhalten zur Kennzeichnung eine Schatztruhe". No landscape
    has more large islands than there are chests."""
    assert CHESTS == 5
    for num_players in am.PLAYER_COUNTS:
        for seed in range(12):
            m = generate(num_players, random.Random(seed))
            assert sum(m.large(k) for k in range(len(m.sizes))) <= CHESTS, (num_players, seed)


def _types(state) -> set[str]:
    return {a["type"] for a in am.legal_actions(state)}


def test_track_end_2_gold_only_for_action_points_that_could_not_be_used():
    """Gold: "Sollte eine Zählscheibe ... ans Ende anlangen, ohne dass alle zur Verfügung stehenden
    Aktionspunkte genutzt werden konnten, so erhält der Spieler 2 Gold": an AP bought for 1
    gold that the track has no room for would turn 1 gold into 2; it is not for sale."""
    # 11 cannons and 1 black AP: the AP reaches the end, a bought one could not be used.
    state = position(field={"black": 1}, p0={"cannons": 11, "gold": 1})
    state = play(state, {"type": "choose", "colour": "black"})
    assert "buy_ap" not in _types(state)
    state = play(state, {"type": "advance", "steps": 1})
    assert "buy_ap" not in _types(state)
    with pytest.raises(am.IllegalAction) as refused:
        am.apply(state, {"type": "buy_ap"})
    assert refused.value.code == "not_allowed"
    state = play(state, {"type": "done"})
    assert (state.players[0].cannons, state.players[0].gold) == (12, 1)
    # With room left on the track, AP are for sale (the rulebook's progress example).
    state = position(field={"brown": 2}, p0={"progress": 3, "gold": 1})
    state = play(state, {"type": "choose", "colour": "brown"})
    assert "buy_ap" in _types(state)
