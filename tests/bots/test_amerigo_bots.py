"""The Amerigo AI players: they finish games, see only their seat's view, and are
reproducible; the Puerto Rico levels are untouched."""

from __future__ import annotations

import pytest

from games.bots import BOTS, GAME_BOTS, LEVELS, choose_action
from games.engines import amerigo as am

AMERIGO_LEVELS = tuple(GAME_BOTS["amerigo"])


def _game(num_players: int, seed: int, levels: list[str], every: int = 1):
    """Yield (state, view) before each of the bots' decisions, every ``every``-th one."""
    state = am.new_game(num_players, seed)
    k = 0
    while not am.is_over(state):
        seat = am.current_player(state)
        view = am.player_view(state, seat)
        if k % every == 0:
            yield state, view
        action = choose_action(am, view, level=levels[seat], seed=seed * 10_000 + k)
        state = am.apply(state, action)
        k += 1
        assert k < 3000


def test_amerigo_levels_are_random_and_easy_and_puerto_rico_keeps_its_own():
    assert AMERIGO_LEVELS == ("random", "easy")
    assert LEVELS == tuple(BOTS) == ("random", "easy", "medium", "hard")
    with pytest.raises(ValueError):
        choose_action(am, am.player_view(am.new_game(2, 1), 0), level="hard", seed=1)


@pytest.mark.parametrize("num_players", am.PLAYER_COUNTS)
def test_whole_games_between_random_and_easy_finish(num_players):
    levels = ["easy", "random", "easy", "random"][:num_players]
    for _ in _game(num_players, 7, levels, every=50):
        pass


@pytest.mark.parametrize("level", AMERIGO_LEVELS)
def test_amerigo_bots_never_read_hidden_information(level):
    """A twin with another tower inside, other face-down markers and pirates, another seed:
    the same view, so the same action."""
    checked = 0
    for state, view in _game(3, 21, ["random"] * 3, every=25):
        twin = am.determinize(view, 99)
        assert am.player_view(twin, view["seat"]) == view
        mine = choose_action(am, view, level=level, seed=5)
        theirs = choose_action(am, am.player_view(twin, view["seat"]), level=level, seed=5)
        assert mine == theirs
        assert mine in am.legal_actions(state)
        checked += 1
    assert checked > 5
