"""The hard players' search (``halving``): its final choice among the searched candidates
(``pick``), fed the playout results directly: rounding never makes it fail, and it keeps the
heuristic's favourite unless another candidate beats it clearly; and the budget, counted in
playouts, with the wall-time cap only as a safety net."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from games.bots import halving

Z = 0.5


def pick(results: list[list[float]], finalists: list[int] | None = None) -> int:
    """The index ``halving.pick`` takes, every candidate a finalist unless said otherwise."""
    n = len(results)
    alive = list(range(n)) if finalists is None else finalists
    return halving.pick(halving.Found(list(range(n)), results, results, alive), Z)


def test_five_candidates_with_seven_equal_playouts_each_keep_the_favourite():
    results = [[0.14737682624881265] * 7 for _ in range(5)]
    assert pick(results) == 0


def test_equal_playouts_in_unequal_numbers_keep_the_favourite():
    """Sequential halving gives the favourite more playouts than the candidates it dropped:
    here summing the equal rewards rounds differently per count, and their variance (zero)
    came out below zero."""
    results = [[0.0421] * count for count in (4, 4, 3, 3, 3)]
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
    assert pick(results, [0, 1]) == 0
    assert pick(results, [0, 1, 2]) == 2  # had it stayed, it would be taken


def fake_batch(means: list[float], log: list[list[int]]):
    """Playouts whose rewards cycle round each candidate's mean; ``log`` records each batch."""

    def batch(alive: list[int]) -> list[tuple[float, float, float]]:
        log.append(list(alive))
        wobble = 0.1 if len(log) % 2 else -0.1
        return [(means[i] + wobble, means[i] + wobble, 1) for i in alive]

    return batch


@given(k=st.integers(min_value=2, max_value=9), simulations=st.integers(min_value=1, max_value=300))
def test_the_search_plays_its_budget_of_playouts_and_no_more(k, simulations):
    """At least one batch; never more playouts than the budget, nor fewer than it less a
    batch and a stage's rounding."""
    log: list[list[int]] = []
    halving.search(list(range(k)), set(), fake_batch([0.5] * k, log), simulations)
    used = sum(len(b) for b in log)
    assert log[0] == list(range(k))
    assert used <= max(simulations, k)
    assert used > simulations - 2 * k - simulations // 3 or used == len(log[0])


def test_halving_keeps_the_favourite_and_the_kept_and_drops_the_worst():
    log: list[list[int]] = []
    means = [0.1, 0.9, 0.8, 0.2, 0.7, 0.0, 0.6]
    found = halving.search(list("abcdefg"), {5}, fake_batch(means, log), 280)
    assert {0, 1, 5} <= set(found.alive)
    assert 3 not in found.alive and 6 not in found.alive
    assert len(found.rewards[1]) > len(found.rewards[3])
    assert halving.pick(found, Z) == "b"


def test_the_wall_time_cap_stops_the_search_within_it(monkeypatch):
    """On a clock that moves on 10 ms with every batch: the search stops before a batch would
    end past the cap, and not a batch earlier."""
    clock = [100.0]
    monkeypatch.setattr(halving, "time", type("Clock", (), {"perf_counter": lambda: clock[0]}))
    log: list[list[int]] = []
    inner = fake_batch([0.5] * 4, log)

    def slow(alive: list[int]) -> list[tuple[float, float, float]]:
        clock[0] += 0.01
        return inner(alive)

    halving.search(list(range(4)), set(), slow, 10_000, cap=0.3)
    used = clock[0] - 100.0
    assert 0.3 - 0.01 <= used <= 0.3 + 1e-9
