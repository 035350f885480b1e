"""Players, a moderator, and finished games of the test-only game "race" for the player pages,
the leaderboards and their API."""

from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.utils import timezone

from games import registry
from moderation.groups import MODERATOR_GROUP, create_moderator_group
from players.models import PROVISIONAL_GAMES, Rating
from tests.players.test_ratings import open_race, play_out
from tests.race import GAME


@pytest.fixture
def race():
    """The race on the shelf: its games make the ratings."""
    registry.register(GAME)
    yield GAME
    registry.unregister(GAME.name)


@pytest.fixture
def people(django_user_model):
    """Without passwords: hashing one costs a good part of a second."""
    return [django_user_model.objects.create_user(n) for n in ("ann", "ben", "cy", "dee")]


@pytest.fixture
def moderator(django_user_model):
    create_moderator_group(apps)
    user = django_user_model.objects.create_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    return user


def finished(creator, *others, seed=1, **arguments):
    """A race played out by ``creator`` and ``others`` (and the AI players asked for)."""
    game = play_out(open_race(creator, *others, **arguments), seed=seed)
    assert game.status == game.Status.FINISHED
    return game


def running(creator, *others, **arguments):
    """A race started, its first move not made (three seats: two people and what is asked)."""
    game = open_race(creator, *others, **arguments)
    assert game.status == game.Status.RUNNING
    return game


def rate(ladder, user=None, value=1500, games=PROVISIONAL_GAMES, days_ago=1, level=""):
    """A rating as the ratings leave it: of ``user``, or of the AI ``level``."""
    return Rating.objects.create(
        ladder=ladder,
        user=user,
        ai_level=level,
        mu=25,
        sigma=3,
        value=value,
        games=games,
        wins=1,
        last_game_at=timezone.now() - timedelta(days=days_ago),
    )
