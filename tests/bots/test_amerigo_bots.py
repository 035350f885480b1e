"""The Amerigo AI players: they finish games with legal actions, see only their seat's view,
are reproducible, and bound their work; the Puerto Rico levels are untouched."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from games.bots import LEVELS, amerigo, choose_action, halving
from games.bots.amerigo import BOTS
from games.bots.puerto_rico import BOTS as PUERTO_RICO_BOTS
from games.engines import amerigo as am
from games.engines.amerigo.rules import new_act
from games.engines.amerigo.state import derive_cover

AMERIGO_LEVELS = tuple(BOTS)
SIMULATIONS = 4
"""The hard player searches within a count of playouts here, never the 2 s budget."""


def _game(num_players: int, seed: int, levels: list[str], every: int = 1):
    """Yield (state, view) before each of the bots' decisions, every ``every``-th one; each
    decision must be one of the legal actions, and a seat's shipping action ends with both
    its ships on the water (the first one sets them on the frame)."""
    state = am.new_game(num_players, seed)
    k = 0
    while not am.is_over(state):
        seat = am.current_player(state)
        view = am.player_view(state, seat)
        if k % every == 0:
            yield state, view
        action = choose_action(
            am, view, bots=BOTS, level=levels[seat], seed=seed * 10_000 + k, simulations=SIMULATIONS
        )
        assert action in am.legal_actions(state)
        shipping = state.phase == "act" and state.act["colour"] == "blue"
        state = am.apply(state, action)
        if shipping and action["type"] == "done":
            assert -1 not in state.players[seat].ships, (levels[seat], k)
        k += 1
        assert k < 3000


def test_amerigo_offers_every_level_of_the_site_and_puerto_rico_keeps_its_own():
    site_levels = ("random", "easy", "medium", "hard")
    # LEVELS as the site offers them; a test's own failing bot may have joined Puerto Rico's.
    assert AMERIGO_LEVELS == LEVELS == site_levels and tuple(PUERTO_RICO_BOTS)[:4] == site_levels
    assert BOTS["hard"] is amerigo.play_hard
    with pytest.raises(ValueError):
        choose_action(am, am.player_view(am.new_game(2, 1), 0), bots=BOTS, level="expert", seed=1)


@pytest.mark.parametrize(
    ("num_players", "levels"),
    [
        (2, ["medium", "random"]),
        (3, ["easy", "hard", "random"]),
        (4, ["random", "easy", "medium", "easy"]),
    ],
)
def test_whole_games_at_every_level_finish_with_legal_actions(num_players, levels):
    for _ in _game(num_players, 7, levels, every=50):
        pass


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_amerigo_bots_decide_the_same_whatever_the_hidden_parts(level):
    """Two determinizations of one view differ in all the view hides (what is inside the
    tower, face-down markers and pirates, the seed); a bot handed either decides the same.
    The hard player's playouts cross the end of a turn, where the tower's inside decides
    what comes out: had it played on the state it was handed, the two would part."""
    bot = BOTS[level]
    checked = scrambled = 0
    for state, view in _game(3, 21, ["random"] * 3, every=25):
        one, other = am.determinize(view, 1), am.determinize(view, 2)
        assert am.player_view(one, view["seat"]) == am.player_view(other, view["seat"]) == view
        assert one.rng != other.rng
        scrambled += one.progress_stack != other.progress_stack
        legal = am.legal_actions(one)
        assert legal == am.legal_actions(other) == am.legal_actions(state)
        mine = bot(one, view, legal, 5, simulations=SIMULATIONS)
        assert mine == bot(other, view, legal, 5, simulations=SIMULATIONS)
        assert mine in legal
        checked += 1
    assert checked > 5
    assert scrambled > 2


def test_medium_is_reproducible_given_its_seed():
    moves = [
        [choose_action(am, view, bots=BOTS, level="medium", seed=3) for _ in range(2)]
        for _, view in _game(2, 5, ["random"] * 2, every=40)
    ]
    assert len(moves) > 5
    assert all(first == second for first, second in moves)


def _building(gold: int) -> am.State:
    """Four players; the seat to act builds with 6 AP and ``gold`` gold, a trading post on
    each of the two largest islands, four landscape tiles and village tiles beside it."""
    state = am.new_game(4, 3)
    m = state.map
    seat = am.current_player(state)
    p = state.players[seat]
    for island in sorted(range(len(m.sizes)), key=lambda k: -m.sizes[k])[:2]:
        p.posts.append(next(post for post, _ in m.posts if m.island[post] == island))
    p.landscapes = ["6L", "5L", "4O", "2"]
    p.villages_held = {"V1": 2, "V2": 1, "V3": 1, "V4": 0}
    p.gold = gold
    state.cover = derive_cover(state)
    state.phase = "act"
    state.act = new_act("green", 6)
    return state


@pytest.mark.parametrize("gold", [0, 2, 9])
def test_medium_judges_a_bounded_shortlist_however_many_placements(gold, monkeypatch):
    """The work is counted, not timed: at most the shortlist and ``done`` per AP bought
    (``BUY_AP`` at most), whatever the number of legal placements."""
    state = _building(gold)
    legal = am.legal_actions(state)
    assert len(legal) > 5 * amerigo.BUILD_SHORTLIST
    judged = []
    real = amerigo.worth
    monkeypatch.setattr(amerigo, "worth", lambda *args: judged.append(1) or real(*args))
    action = amerigo.play_medium(state, am.player_view(state, 0), legal, seed=1)
    assert action in legal
    tries = 1 + min(gold, amerigo.BUY_AP)
    assert 0 < len(judged) <= tries * (amerigo.BUILD_SHORTLIST + 1)


def _choices(seed: int, every: int = 7):
    """(state, view) at choose decisions of a four-player game of medium players where the
    hard player has as many options as it searches, or more."""
    for state, view in _game(4, seed, ["medium"] * 4, every=every):
        options = [a for a in am.legal_actions(state) if a["type"] != "cash"]
        if state.phase == "choose" and len(options) >= amerigo.HARD["top"]:
            yield state, view


def test_hard_is_reproducible_given_its_seed_and_decides_legally():
    moves = []
    for k, (state, view) in enumerate(_choices(5)):
        if k == 6:
            break
        pair = [
            choose_action(am, view, bots=BOTS, level="hard", seed=3, simulations=8)
            for _ in range(2)
        ]
        assert pair[0] == pair[1]
        assert pair[0] in am.legal_actions(state)
        moves.append(pair[0])
    assert len(moves) == 6


@pytest.mark.parametrize("simulations", [1, 2, 5, 9])
def test_hard_plays_out_its_simulations(simulations, monkeypatch):
    """Counted, not timed: a first batch (one playout per option searched) always, then
    batches while they fit the count."""
    counts = []
    played = []
    real = amerigo._playout
    monkeypatch.setattr(amerigo, "_playout", lambda *a: played.append(1) or real(*a))
    for k, (state, view) in enumerate(_choices(9)):
        if k == 3:
            break
        legal = am.legal_actions(state)
        before = len(played)
        action = amerigo.play_hard(state, view, legal, 1, simulations=simulations)
        assert action in legal
        counts.append(len(played) - before)
    width = amerigo.HARD["top"]
    most = max(simulations, width)
    assert all(most - width < count <= most for count in counts)


def test_hard_plays_its_playouts_whatever_the_clock(monkeypatch):
    """Called as the site calls it (no budget, no simulations): its default playouts on a
    clock that crawls (1 s a playout, as on a loaded machine) as on a fast one; the same
    move. The wall-time cap is far off here."""
    monkeypatch.setattr(amerigo, "SIMULATIONS", 8)
    state, view = next(_choices(9))
    legal = am.legal_actions(state)
    real = amerigo._playout
    moves, counts = [], []
    for tick in (0.0, 1.0):
        clock = [0.0]
        played = []

        def playout(*args, tick=tick, clock=clock, played=played):
            clock[0] += tick
            played.append(1)
            return real(*args)

        monkeypatch.setattr(amerigo, "_playout", playout)
        monkeypatch.setattr(halving, "time", SimpleNamespace(perf_counter=lambda c=clock: c[0]))
        moves.append(amerigo.play_hard(state, view, legal, 1))
        counts.append(len(played))
    assert moves[0] == moves[1]
    assert counts[0] == counts[1]
    assert 8 - amerigo.HARD["top"] < counts[0] <= 8


def test_the_fitted_evaluation_weighs_every_part_of_the_estimate_at_every_player_count():
    """Weights fitted before a part was added, removed or moved would weigh the wrong parts."""
    assert amerigo.FITTED["terms"] == list(amerigo.TERMS)
    for n in am.PLAYER_COUNTS:
        fitted = amerigo.FITTED[str(n)]
        assert len(fitted["a"]) == len(fitted["b"]) == len(amerigo.TERMS)


def _medium_game(num_players: int, seed: int) -> am.State:
    """A game of medium players, played to its end."""
    state = am.new_game(num_players, seed)
    while not am.is_over(state):
        state = am.apply(state, amerigo.play_medium(state, {}, am.legal_actions(state), 1))
    return state


@pytest.mark.parametrize("num_players", am.PLAYER_COUNTS)
def test_at_the_games_end_the_fitted_estimate_is_the_score(num_players):
    state = _medium_game(num_players, 4)
    scores = [p.vp for p in state.players]
    assert [amerigo.estimate(state, s, state) for s in range(num_players)] == scores
    assert len(set(scores)) > 1
