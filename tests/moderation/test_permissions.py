"""The moderator group: made by a migration, enough to moderate and no more; staff who are
not moderators and players see nothing of it."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from games.models import Game
from moderation.groups import MODERATOR_GROUP
from moderation.models import Entry
from tests.moderation.conftest import admin_action, running_game

pytestmark = pytest.mark.postgres


@pytest.mark.django_db
def test_the_migration_makes_the_group_with_just_its_permissions():
    group = Group.objects.get(name=MODERATOR_GROUP)
    assert sorted(group.permissions.values_list("content_type__app_label", "codename")) == [
        ("accounts", "view_user"),
        ("games", "view_game"),
        ("games", "view_move"),
        ("games", "view_seat"),
        ("moderation", "moderate"),
        ("moderation", "view_entry"),
    ]


PAGES = (
    "admin:games_game_changelist",
    "admin:games_seat_changelist",
    "admin:moderation_entry_changelist",
    "admin:accounts_user_changelist",
)


@pytest.mark.django_db
def test_a_moderator_can(client, players, moderator):
    game = running_game(*players)
    client.force_login(moderator)
    for page in PAGES:
        assert client.get(reverse(page)).status_code == 200, page
    assert client.get(reverse("admin:games_game_board", args=[game.pk])).status_code == 200
    assert 'value="cancel"' in client.get(reverse(PAGES[0])).content.decode()
    admin_action(client, "games_game", "cancel", [game], reason="test game")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["player", "staff"])
def test_a_player_or_staff_who_is_no_moderator_cannot(client, players, staff, who):
    game = running_game(*players)
    client.force_login(players[0] if who == "player" else staff)
    for page in PAGES:
        response = client.get(reverse(page))
        # A player is sent to the admin's login, staff without the permission refused.
        assert response.status_code in (302, 403), page
    board = client.get(reverse("admin:games_game_board", args=[game.pk]))
    assert board.status_code in (302, 403)
    if who == "staff":
        assert "Games" not in client.get(reverse("admin:index")).content.decode()
    admin_action(client, "games_game", "cancel", [game], reason="let me")
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    assert not Entry.objects.exists()


@pytest.mark.django_db
def test_a_moderator_finds_the_panel_in_the_header_and_at_its_address(client, players, moderator):
    client.force_login(moderator)
    header = client.get("/games/").content.decode().split("</header>")[0]
    assert f'href="{reverse("moderation")}"' in header
    assert client.get("/moderation/").url == reverse("admin:index")
    client.force_login(players[0])
    assert reverse("moderation") not in client.get("/games/").content.decode()
