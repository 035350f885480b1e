"""A finished game changes its players' ratings in its own transaction."""

from django.dispatch import receiver

from games.signals import game_finished
from players.ratings import rate_game


@receiver(game_finished)
def rate_finished_game(sender, *, game, **kwargs) -> None:
    rate_game(game)
