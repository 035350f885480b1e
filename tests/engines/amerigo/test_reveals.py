"""Which Amerigo decisions show hidden information: cubes thrown into the tower show what
falls out, a new round turns markers and a pirate face up; choosing a colour shows nothing."""

import random

from games.engines import amerigo as am


def test_throwing_cubes_reveals_and_choosing_a_colour_does_not():
    state, draw = am.new_game(3, seed=4), random.Random(1)
    thrown = chosen = 0
    while not am.is_over(state):
        legal = am.legal_actions(state)
        action = legal[draw.randrange(len(legal))]
        before = am.to_json(state)
        reveals = am.reveals(state, action)
        assert am.to_json(state) == before  # asking changes nothing
        events = []
        state = am.apply(state, action, log=events)
        kinds = {event["event"] for event in events}
        if "throw" in kinds:
            assert reveals, (action, kinds)
            thrown += 1
        if kinds == {"choose"}:
            assert not reveals, action
            chosen += 1
    assert thrown and chosen


def test_every_score_is_known_and_the_round_is_the_one_played():
    state = am.new_game(2, seed=3)
    assert am.known_scores(state, None) == [p.vp for p in state.players]
    assert am.round_number(state) == 1
