"""The hard player's final choice among its searched candidates (``search._pick``), fed the
playout results directly: rounding never makes it fail, and it keeps the heuristic's favourite
unless another candidate beats it clearly."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from games.bots import search


def pick(results: list[list[float]]) -> int:
    """``search._pick`` when every candidate reached the last stage."""
    return search._pick(results, list(range(len(results))))


def loss_by(vp: int) -> float:
    """A playout's reward for losing by ``vp`` victory points, as ``search.playout`` scores it."""
    return 0.25 + 0.25 * -vp / search.PARAMS["margin_cap"]


def test_five_candidates_with_seven_equal_playouts_each_keep_the_favourite():
    results = [[0.14737682624881265] * 7 for _ in range(5)]
    assert pick(results) == 0


def test_equal_playouts_in_unequal_numbers_keep_the_favourite():
    """Sequential halving gives the favourite more playouts than the candidates it dropped:
    here summing the equal rewards rounds differently per count, and their variance (zero)
    came out below zero."""
    results = [[loss_by(6)] * count for count in (4, 4, 3, 3, 3)]
    assert pick(results) == 0


@given(
    reward=st.floats(min_value=0.0, max_value=1.0),
    counts=st.lists(st.integers(min_value=1, max_value=60), min_size=2, max_size=8),
)
@example(reward=0.14737682624881265, counts=[7, 7, 7, 7, 7])
@example(reward=0.1, counts=[4, 3])
def test_when_every_playout_scores_the_same_the_favourite_stays(reward, counts):
    assert pick([[reward] * count for count in counts]) == 0


def test_a_candidate_clearly_better_than_the_favourite_is_taken():
    results = [[0.25] * 6, [0.5, 0.25, 0.5, 0.25, 0.5, 0.25], [0.75] * 6]
    assert pick(results) == 2


def test_a_candidate_better_only_within_the_noise_is_not_taken():
    results = [[0.0, 1.0, 0.0, 1.0, 0.5, 0.5], [1.0, 0.0, 1.0, 0.0, 1.0, 0.5]]
    assert pick(results) == 0


def test_a_candidate_dropped_after_two_lucky_playouts_does_not_outrank_the_finalists():
    """Sequential halving dropped candidate 2 after two playouts; the finalists then played
    on. Two lucky wins must not beat the favourite's steady record."""
    results = [[0.5, 0.25, 0.5, 0.5, 0.25, 0.5], [0.25] * 6, [1.0, 1.0], [0.0, 0.25]]
    assert search._pick(results, [0, 1]) == 0
    assert search._pick(results, [0, 1, 2]) == 2  # had it stayed, it would be taken
