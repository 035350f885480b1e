"""Reports from players, the moderators' queue, hiding chat messages, resolving and dismissing
reports; and who may do it."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.urls import reverse

from games import chat
from games.models import ChatMessage, Game
from games.services import Forbidden, GameError, NotFound
from moderation import services
from moderation.groups import MODERATOR_GROUP, create_moderator_group
from moderation.models import Entry, Report
from tests.games.test_chat import fresh_rate_limits  # noqa: F401
from tests.moderation.conftest import admin_action, running_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


# Users without a password (nothing to hash: these tests log in by session).


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]


@pytest.fixture
def moderator(django_user_model):
    create_moderator_group(apps)
    user = django_user_model.objects.create_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    return user


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staffer", is_staff=True)


@pytest.fixture
def game(players):
    return running_game(*players)


@pytest.fixture
def insult(game, players):
    return chat.post(game.pk, players[2], "you are an idiot")


# Reporting -----------------------------------------------------------------------------------


def test_a_player_reports_a_message_and_is_thanked(client, game, players, insult):
    client.force_login(players[0])
    url = reverse("moderation:report", args=[game.pk]) + f"?message={insult.pk}"
    assert "you are an idiot" in client.get(url).content.decode()
    response = client.post(url, {"reason": "abuse", "text": ""})
    assert response.status_code == 303 and response["Location"] == game.get_absolute_url()
    thanks = [str(m) for m in get_messages(response.wsgi_request)]
    assert thanks == ["Thank you: the moderators will look at your report."]
    report = Report.objects.get()
    assert (report.reporter, report.player, report.message) == (players[0], players[2], insult)
    assert report.subject == f"message:{insult.pk}" and report.version == game.version


def test_a_player_and_a_game_can_be_reported_too(game, players):
    on_player = services.report(players[0], game.pk, "stalling", player_id=players[1].pk)
    on_game = services.report(players[0], game.pk, "cheating", "they play together")
    assert on_player.player == players[1] and on_player.message is None
    assert on_game.player is None and on_game.subject == f"game:{game.pk}"


def test_bad_reports_are_refused_and_change_nothing(client, game, players, insult):
    with pytest.raises(GameError, match="say what happened"):
        services.report(players[0], game.pk, "other", "  ")
    with pytest.raises(GameError, match="choose a reason"):
        services.report(players[0], game.pk, "boredom")
    with pytest.raises(GameError, match="yourself"):
        services.report(players[2], game.pk, "abuse", message_id=insult.pk)
    with pytest.raises(NotFound):
        services.report(players[0], game.pk, "abuse", player_id=players[0].pk + 1000)
    other_game = running_game(players[1], players[2])
    with pytest.raises(NotFound):
        services.report(players[0], other_game.pk, "abuse", message_id=insult.pk)
    client.force_login(players[0])
    url = reverse("moderation:report", args=[game.pk])
    assert client.post(url, {"reason": "other", "text": ""}).status_code == 400
    assert not Report.objects.exists()


def test_reporting_the_same_thing_twice_makes_one_report(game, players, insult):
    first = services.report(players[0], game.pk, "abuse", message_id=insult.pk)
    again = services.report(players[0], game.pk, "other", "still", message_id=insult.pk)
    assert first == again and Report.objects.count() == 1


def test_the_queue_lists_the_most_reported_first_then_the_newest(
    client, game, players, insult, moderator
):
    once = services.report(players[0], game.pk, "stalling", player_id=players[1].pk)
    twice = [
        services.report(reporter, game.pk, "abuse", message_id=insult.pk)
        for reporter in players[:2]
    ]
    newest = services.report(players[1], game.pk, "cheating")
    client.force_login(moderator)
    page = client.get(reverse("admin:moderation_report_changelist")).content.decode()
    rows = [report.pk for report in (twice[1], twice[0], newest, once)]
    links = [page.index(f"/admin/moderation/report/{pk}/change/") for pk in rows]
    assert links == sorted(links)
    board = reverse("admin:games_game_board", args=[game.pk])
    assert f"{board}?v={insult.version}#chat-{insult.pk}" in page  # the chat around it


# Hiding, resolving, dismissing ------------------------------------------------------------------


def test_a_moderator_hides_a_message_and_the_pages_drop_it(
    client, game, players, insult, moderator
):
    version = Game.objects.get(pk=game.pk).chat_version
    entry = services.hide_message(moderator, insult.pk, "insult")
    insult.refresh_from_db()
    assert insult.hidden_at is not None
    assert (entry.action, entry.user, entry.game_id) == ("hide_message", players[2], game.pk)
    assert entry.details["message"] == insult.pk
    assert Game.objects.get(pk=game.pk).chat_version == version + 1  # the polls see it
    client.force_login(players[0])
    assert "you are an idiot" not in client.get(game.get_absolute_url()).content.decode()
    with pytest.raises(GameError, match="hidden already"):
        services.hide_message(moderator, insult.pk, "again")


def test_hiding_needs_a_moderator_and_a_reason(game, players, insult, moderator, staff):
    for who in (players[0], staff):
        with pytest.raises(Forbidden):
            services.hide_message(who, insult.pk, "because")
    with pytest.raises(GameError, match="reason is required"):
        services.hide_message(moderator, insult.pk, " ")
    assert ChatMessage.objects.get(pk=insult.pk).hidden_at is None
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    ("close", "status", "action"),
    [
        (services.resolve_report, "resolved", "resolve_report"),
        (services.dismiss_report, "dismissed", "dismiss_report"),
    ],
)
def test_resolving_or_dismissing_records_what_was_done(
    game, players, insult, moderator, staff, close, status, action
):
    report = services.report(players[0], game.pk, "abuse", message_id=insult.pk)
    with pytest.raises(Forbidden):
        close(staff, report.pk, "no")
    with pytest.raises(GameError, match="reason is required"):
        close(moderator, report.pk, "")
    entry = close(moderator, report.pk, "hid it, suspended the author for a week")
    report.refresh_from_db()
    assert (report.status, report.handled_by, report.resolution) == (
        status,
        moderator,
        "hid it, suspended the author for a week",
    )
    assert (entry.action, entry.user, entry.details) == (action, players[2], {"report": report.pk})
    with pytest.raises(GameError, match="handled already"):
        close(moderator, report.pk, "twice")
    assert Entry.objects.count() == 1


def test_the_queue_actions_hide_and_resolve(client, game, players, insult, moderator):
    report = services.report(players[0], game.pk, "abuse", message_id=insult.pk)
    client.force_login(moderator)
    admin_action(client, "moderation_report", "hide", [report], reason="insult")
    queue = client.get(reverse("admin:moderation_report_changelist")).content.decode()
    assert "you are an idiot” (hidden by a moderator)" in queue
    admin_action(client, "moderation_report", "resolve", [report], reason="hidden")
    insult.refresh_from_db()
    report.refresh_from_db()
    assert insult.hidden_at is not None and report.status == "resolved"
    assert list(Entry.objects.order_by("pk").values_list("action", flat=True)) == [
        "hide_message",
        "resolve_report",
    ]


# The moderator's game view and who sees the queue ------------------------------------------------


def test_the_game_view_shows_the_chat_hidden_marked_and_the_reports(
    client, game, players, insult, moderator
):
    chat.post(game.pk, players[1], "well played")
    services.report(players[0], game.pk, "abuse", "rude", message_id=insult.pk)
    services.hide_message(moderator, insult.pk, "insult")
    client.force_login(moderator)
    page = client.get(reverse("admin:games_game_board", args=[game.pk])).content.decode()
    hidden_row = page[page.index(f'id="chat-{insult.pk}"') :]
    assert 'class="hidden-message"' in hidden_row[:60] and "you are an idiot" in hidden_row
    assert "well played" in page
    assert "abuse in chat: rude" in page


@pytest.mark.parametrize("who", ["player", "staff"])
def test_only_moderators_see_the_queue_the_chat_and_the_game_view(
    client, game, players, insult, staff, who
):
    report = services.report(players[0], game.pk, "abuse", message_id=insult.pk)
    client.force_login(players[1] if who == "player" else staff)
    for url in (
        reverse("admin:moderation_report_changelist"),
        reverse("admin:moderation_report_change", args=[report.pk]),
        reverse("admin:games_chatmessage_changelist"),
        reverse("admin:games_game_board", args=[game.pk]),
    ):
        assert client.get(url).status_code in (302, 403), url
    if who == "staff":
        assert "Reports" not in client.get(reverse("admin:index")).content.decode()
    admin_action(client, "moderation_report", "dismiss", [report], reason="let me")
    admin_action(client, "games_chatmessage", "hide", [insult], reason="let me")
    report.refresh_from_db()
    insult.refresh_from_db()
    assert report.status == "open" and insult.hidden_at is None


def test_a_moderator_sees_them(client, game, players, insult, moderator):
    report = services.report(players[0], game.pk, "abuse", message_id=insult.pk)
    client.force_login(moderator)
    for url in (
        reverse("admin:moderation_report_changelist"),
        reverse("admin:moderation_report_change", args=[report.pk]),
        reverse("admin:games_chatmessage_changelist"),
        reverse("admin:games_game_board", args=[game.pk]),
    ):
        assert client.get(url).status_code == 200, url
