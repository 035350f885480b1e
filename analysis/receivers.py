"""A finished game queues the reviews of its players' decisions."""

from django.dispatch import receiver

from analysis.reviews import queue_reviews
from games.signals import game_finished


@receiver(game_finished)
def review_finished_game(sender, *, game, **kwargs) -> None:
    queue_reviews(game)
