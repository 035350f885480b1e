"""A game rebuilt from its initial state by replaying every stored move: what the tests check
``Game.state`` and the kept positions against, since no page replays a game whole."""

from games.history import replay_steps, stored_moves
from games.models import Game


def replayed(game: Game, until: int | None = None):
    """The engine's state after every move up to version ``until`` (all of them: the last)."""
    rules = game.rules
    state = rules.from_json(Game.objects.values_list("initial_state", flat=True).get(pk=game.pk))
    for after, _events in replay_steps(rules, state, stored_moves(game, until=until)):
        state = after
    return state
