"""Which decisions show hidden information (``reveals``), which scores a seat may know
(``known_scores``) and the round a chart counts (``round_number``)."""

from __future__ import annotations

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import CORN, INDIGO, QUARRY, SUGAR, ChooseRole, Settle
from games.engines.puerto_rico.actions import HACIENDA, PASS

from .positions import ANNA, BOB, CHRIS, choose, play, player, position

HACIENDA_OWNER = player(doubloons=2, city={"hacienda": 1})


def three(first=None, *, stack=("coffee", "tobacco", "sugar", "indigo"), discards=()):
    return position(
        [first or player(), player(), player()],
        face_up=["corn", "indigo", "sugar", "tobacco"],
        stack=list(stack),
        discards=list(discards),
    )


def test_choosing_a_role_or_a_face_up_tile_reveals_nothing():
    state = three()
    assert not pr.reveals(state, ChooseRole("settler"))
    state = choose(state, "settler")
    assert not pr.reveals(state, Settle(CORN))  # Anna settles first; two others follow
    assert not pr.reveals(state, Settle(QUARRY))


def test_the_hacienda_draws_the_top_tile_face_down_so_it_reveals():
    state = choose(three(HACIENDA_OWNER), "settler")
    assert pr.reveals(state, HACIENDA)
    state = play(state, HACIENDA)  # the tile drawn lies open now; choosing on reveals nothing
    assert not pr.reveals(state, Settle(SUGAR))


def test_the_last_settlers_choice_refills_the_row_from_the_stack_so_it_reveals():
    state = play(choose(three(), "settler"), Settle(CORN), Settle(INDIGO))
    assert state.current == CHRIS
    assert pr.reveals(state, Settle(SUGAR))
    assert pr.reveals(state, PASS)


def test_a_refill_from_an_empty_stack_shuffles_the_discards_and_reveals():
    # The row is discarded, then drawn again from the shuffled discards.
    state = play(choose(three(stack=()), "settler"), PASS, PASS)
    assert pr.reveals(state, PASS)


def test_reveals_leaves_the_state_as_it_was():
    state = choose(three(HACIENDA_OWNER), "settler")
    before = pr.to_json(state)
    pr.reveals(state, HACIENDA)
    assert pr.to_json(state) == before


def test_known_scores_hide_the_other_seats_chips_until_the_end():
    players = [player(vp=3, city={"small_market": 0}), player(vp=5), player()]
    hidden = position(players, options={"hidden_vp": True})
    assert pr.known_scores(hidden, ANNA) == [4, None, None]  # 3 chips + 1 for the market
    assert pr.known_scores(hidden, BOB) == [None, 5, None]
    assert pr.known_scores(hidden, None) == [None, None, None]
    open_ = position(players, options={"hidden_vp": False})
    assert pr.known_scores(open_, None) == [4, 5, 0]


def test_the_round_is_the_one_being_played_and_the_last_once_over():
    state = pr.new_game(3, seed=1)
    assert pr.round_number(state) == 1
    data = pr.to_json(state)
    data["round"], data["phase"], data["current"] = 15, "over", None
    assert pr.round_number(pr.from_json(data)) == 14
