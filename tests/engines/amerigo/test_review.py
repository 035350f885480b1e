"""Rules the review of the engine against the German rulebook found broken, each named after
the rule (the rulebook's line quoted in the docstring)."""

from __future__ import annotations

import random

import pytest

from games.engines import amerigo as am
from games.engines.amerigo.data import CHESTS, PROGRESS_TRACK_END
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


def test_gold_raises_the_ap_beliebig_even_with_the_disc_at_a_tracks_end():
    """Gold: "Durch Abgabe von Gold kann jeder Spieler die Anzahl seiner Aktionspunkte
    beliebig erhöhen. Jeder zusätzliche Aktionspunkt kostet 1 Gold." No limit: an AP is for
    sale even when the disc stands at the track's end and cannot use it."""
    # 9 cannons and 3 black AP: all 3 reach the end, none left over.
    state = position(field={"black": 3}, p0={"cannons": 9, "gold": 2})
    state = play(state, {"type": "choose", "colour": "black"}, {"type": "advance", "steps": 3})
    assert state.players[0].cannons == 12
    assert "buy_ap" in _types(state)
    state = play(state, {"type": "buy_ap"}, {"type": "buy_ap"})
    assert (state.players[0].gold, state.act["ap"] - state.act["spent"]) == (0, 2)
    assert "advance" not in _types(state)  # the track has no room for them


def test_an_ap_bought_at_a_tracks_end_lapses_and_the_end_pays_2_gold():
    """Gold: "Sollte eine Zählscheibe auf einer der drei Leisten Kanonen, Fortschritt oder
    Sonderaktion ans Ende anlangen, ohne dass alle zur Verfügung stehenden Aktionspunkte
    genutzt werden konnten, so erhält der Spieler 2 Gold, unabhängig davon, wie viele
    Aktionspunkte er verfallen lassen muss." An AP bought for 1 gold with the disc at the end
    is one that cannot be used: the end pays 2 gold for it, 1 gold more than it cost."""
    state = position(field={"black": 1}, p0={"cannons": 11, "gold": 1})
    state = play(state, {"type": "choose", "colour": "black"}, {"type": "advance", "steps": 1})
    state = play(state, {"type": "buy_ap"})
    assert state.players[0].gold == 0
    state = play(state, {"type": "done"})
    assert (state.players[0].cannons, state.players[0].gold) == (12, 2)
    # Without the bought AP, every AP was used: no gold for the end.
    state = position(field={"black": 1}, p0={"cannons": 11, "gold": 1})
    state = play(state, {"type": "choose", "colour": "black"}, {"type": "advance", "steps": 1})
    state = play(state, {"type": "done"})
    assert (state.players[0].cannons, state.players[0].gold) == (12, 1)


@pytest.mark.parametrize("colour", ["brown", "white"])
def test_ap_are_for_sale_at_the_end_of_the_progress_and_special_action_tracks(colour):
    """ "beliebig erhöhen" holds on all three tracks of the 2 gold rule, the disc already at
    the end when the action is chosen ("2 Gold erhält auch der Spieler, dessen Zählscheibe
    bereits das Ende einer Leiste erreicht hat und er diese Aktion erneut wählt")."""
    state = position(field={colour: 2}, p0={"gold": 3, "progress": PROGRESS_TRACK_END})
    state.order_track = [[s for s in stack if s != 0] for stack in state.order_track]
    state.order_track[-1].append(0)
    state = play(state, {"type": "choose", "colour": colour}, {"type": "buy_ap"})
    assert (state.act["ap"], state.players[0].gold) == (3, 2)
    state = play(state, {"type": "done"})
    assert state.players[0].gold == 4


def test_the_first_shipping_action_sets_both_ships_on_the_frame_before_it_ends():
    """Shipping: "Wer zum ersten Mal diese Aktion wählt, setzt zunächst seine Schiffe auf
    beliebige Felder im Außenrahmen ein." Both ships, in that action: a ship still off the
    board when it ended could be set on any frame field in a later one, a voyage for free."""
    state = position(field={"blue": 2})
    state = play(state, {"type": "choose", "colour": "blue"})
    first, second = state.map.frame[0], state.map.frame[-1]
    for ship, field in ((0, first), (1, second)):
        assert "done" not in _types(state)
        before = am.to_json(state)
        with pytest.raises(am.IllegalAction) as refused:
            am.apply(state, {"type": "done"})
        assert refused.value.code == "place_ships_first"
        assert am.to_json(state) == before
        state = play(state, {"type": "place_ship", "ship": ship, "field": field})
    assert "done" in _types(state)
    state = play(state, {"type": "done"})
    assert state.players[0].ships == [first, second]


def test_no_seat_ends_a_shipping_action_with_a_ship_off_the_board():
    """Along random games of hasty players (each ends an action as soon as it may, every
    other time): once a seat's shipping action is over, both its ships are on the water,
    whatever else it did in that action (sailing, buying AP, the +8 AP marker)."""
    done = {"type": "done"}
    for n, seed in ((2, 3), (3, 8), (4, 21)):
        rng = random.Random(seed)
        state = am.new_game(n, seed)
        shipped = set()
        ended = 0
        while not am.is_over(state):
            seat = am.current_player(state)
            shipping = state.phase == "act" and state.act["colour"] == "blue"
            legal = am.legal_actions(state)
            hasty = done in legal and rng.random() < 0.5
            state = am.apply(state, done if hasty else rng.choice(legal))
            if shipping and (am.current_player(state) != seat or state.phase != "act"):
                shipped.add(seat)
                ended += 1
            for s in shipped:
                assert -1 not in state.players[s].ships, (n, seed, s)
        assert ended > 3
