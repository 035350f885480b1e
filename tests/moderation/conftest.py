"""Players, moderators and games for the moderation tests."""

import pytest
from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth.models import Group
from django.urls import reverse

from games import services
from games.models import Game
from moderation.groups import MODERATOR_GROUP, create_moderator_group

PASSWORD = "correct-horse-battery-9"


def person(model, name: str, **extra):
    """A user who may log in (a verified address, as allauth wants)."""
    user = model.objects.create_user(name, f"{name}@example.org", PASSWORD, **extra)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def players(django_user_model):
    return [person(django_user_model, name) for name in ("anna", "bob", "chris")]


@pytest.fixture
def moderator(django_user_model):
    """Staff with the moderator group and nothing else. (A transactional test empties the
    database, the migration's group too: it is made again here, the migration's way.)"""
    create_moderator_group(apps)
    user = person(django_user_model, "mod", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    return user


@pytest.fixture
def staff(django_user_model):
    """Staff without the moderator group."""
    return person(django_user_model, "staffer", is_staff=True)


def running_game(creator, *others) -> Game:
    game = services.create_game(creator, engine="puerto_rico", num_players=1 + len(others))
    for user in others:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def holder(game: Game, users):
    """The person whose turn it is."""
    seat = Game.objects.get(pk=game.pk).seat_to_act()
    return next(u for u in users if u.pk == seat.user_id)


def admin_action(client, model: str, action: str, objects, **fields):
    """Choose ``action`` for ``objects`` on the admin list of ``model`` (``games_seat``…) and
    confirm it on the reason page with ``fields``."""
    url = reverse(f"admin:{model}_changelist")
    data = {"action": action, "_selected_action": [o.pk for o in objects], "apply": "1", **fields}
    return client.post(url, data)
