"""Following a player: their new games and results on the follower's "following" page."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from players.models import Follow


class CannotFollow(ValueError):
    """A follow the site refuses, with the reason in the reader's language."""


def set_following(follower, followed, on: bool) -> None:
    """Follow ``followed`` (``on``) or stop; doing it twice changes nothing."""
    if follower.pk == followed.pk:
        raise CannotFollow(gettext("You cannot follow yourself."))
    if not on:
        Follow.objects.filter(follower=follower, followed=followed).delete()
        return
    try:
        with transaction.atomic():  # a second click may create the same row first
            Follow.objects.get_or_create(follower=follower, followed=followed)
    except IntegrityError:
        pass
