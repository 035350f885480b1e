"""The game page's log: the moves since the viewer's own last move unfolded above the board,
grouped by round and by the heading the game's UI gives (Puerto Rico: the role taken), the
automatic moves said so; a spectator sees the latest round; the full log has the rounds too."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games import history, services
from games.models import Game
from games.ui import describe_event
from tests.games.test_board_ui import client_for, holder, log_items, people, section, started


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def play(game: Game, users, until) -> Game:
    """Random legal moves by whoever is to act, until ``until(game)`` holds."""
    chance = random.Random(7)
    for _ in range(400):
        game = Game.objects.get(pk=game.pk)
        if until(game):
            return game
        rules = game.rules
        state = game.engine_state()
        action = chance.choice(list(rules.legal_actions(state)))
        services.submit_move(
            game.pk,
            rules.action_to_json(action),
            user=holder(game, users),
            expected_version=game.version,
        )
    raise AssertionError("never got there")


def told(game: Game, moves) -> list[str]:
    names = game.names()
    return [describe_event(game.engine, event, names) for move in moves for event in move.log]


def since_and_earlier(page: str) -> tuple[list[str], list[str]]:
    """The log's lines since the viewer's last move, and those folded before them; without
    the "(automatic)" marks."""
    log = section(page, "log")
    since, _, earlier = log.partition("<details>")

    def plain(html: str) -> list[str]:
        return [re.sub(r" <small.*", "", line) for line in log_items(html)]

    return plain(since), plain(earlier)


@pytest.mark.django_db
def test_each_player_reads_first_what_the_others_did_since_their_own_last_move(
    django_user_model,
):
    users = people(django_user_model)
    game = started(users)
    first = holder(game, users)
    game = play(
        game, users, lambda g: g.moves.exclude(actor=first).filter(actor__isnull=False).count() >= 3
    )
    moves = list(game.moves.order_by("version"))
    for user in users:
        mine = [m.version for m in moves if m.actor_id == user.pk]
        last = mine[-1] if mine else 0
        page = client_for(user).get(game.get_absolute_url()).content.decode()
        assert "Since your last move" in page
        since, earlier = since_and_earlier(page)
        assert since == told(game, [m for m in moves if m.version > last])
        assert earlier == told(game, [m for m in moves if m.version <= last])
    # The first mover sees the others' moves, by name, unfolded (no <details> around them).
    since, _ = since_and_earlier(client_for(first).get(game.get_absolute_url()).content.decode())
    others = {u.username for u in users} - {first.username}
    assert any(line.split()[0] in others for line in since)


@pytest.mark.django_db
def test_the_mover_who_just_moved_reads_that_nobody_has_moved_since(django_user_model):
    users = people(django_user_model)
    game = started(users)
    mover = holder(game, users)
    services.submit_move(game.pk, {"type": "choose_role", "role": "builder"}, user=mover)
    page = client_for(mover).get(game.get_absolute_url()).content.decode()
    since, earlier = since_and_earlier(page)
    assert since == [] and "Nobody has moved since." in page
    assert f"{mover.username} takes the builder" in earlier


@pytest.mark.django_db
def test_a_spectator_reads_the_latest_round(django_user_model):
    users = people(django_user_model)
    game = play(started(users), users, lambda g: g.positions.filter(new_round=True).exists())
    game = play(
        game, users, lambda g: g.moves.count() >= g.positions.get(new_round=True).version + 2
    )
    changed = game.positions.get(new_round=True).version
    page = Client().get(game.get_absolute_url()).content.decode()
    assert "Latest moves" in page and "Since your last move" not in page
    since, earlier = since_and_earlier(page)
    moves = list(game.moves.order_by("version"))
    assert since == told(game, [m for m in moves if m.version > changed])
    assert earlier == told(game, [m for m in moves if m.version <= changed])


@pytest.mark.django_db
def test_rounds_and_roles_head_the_log_as_the_engine_played_them(django_user_model):
    users = people(django_user_model)
    game = play(started(users), users, lambda g: g.positions.filter(new_round=True).count() >= 2)
    rules = game.rules
    moves = list(history.logged_moves(game))
    entries = history.log_entries(
        game, game.names(), moves, rules.round_number(game.engine_state())
    )
    for entry in entries:  # the round of the state each move was played from
        assert entry.round == rules.round_number(history.state_at(game, entry.version - 1))
    # The move that ended the second round was the last: none is played in the third yet.
    assert entries[0].round == 1 and entries[-1].round == 2
    full = client_for(users[0]).get(reverse("games:log", args=[game.pk])).content.decode()
    log = section(full, "full-log")
    assert [int(n) for n in re.findall(r"Round (\d+)</h2>", log)] == [1, 2]
    # Each role taken heads the lines of its phase, up to the next role.
    roles = [m for m in game.moves.order_by("version") if m.log and m.log[0]["event"] == "role"]
    assert len(roles) >= 6
    blocks = re.findall(r'<p class="log-heading">(.*?)</p>\s*<ol>(.*?)</ol>', log, re.S)
    names = game.names()
    for move, (heading, lines) in zip(roles, blocks, strict=False):
        role, seat = move.log[0]["role"], move.log[0]["seat"]
        assert heading.lower() == f"{role} ({names[seat]})".lower()
        assert log_items(lines)[0].startswith(f"{names[seat]} takes the {role}")
    assert len(blocks) == len(roles)


@pytest.mark.django_db
def test_automatic_moves_are_said_so_on_the_board_and_in_the_full_log(django_user_model):
    users = people(django_user_model)
    game = play(started(users), users, lambda g: g.moves.filter(forced=True).exists())
    forced = game.moves.filter(forced=True).first()
    lines = told(game, [forced])
    client = client_for(users[0])
    for url in (game.get_absolute_url(), reverse("games:log", args=[game.pk])):
        page = client.get(url).content.decode()
        for line in lines:
            assert f'<li>{line} <small class="log-auto">(automatic)</small></li>' in page
    decided = told(game, [game.moves.filter(forced=False).first()])[0]
    assert (
        f"<li>{decided}</li>" in client.get(reverse("games:log", args=[game.pk])).content.decode()
    )


@pytest.mark.django_db
def test_the_log_costs_no_query_more_however_long_the_game(django_user_model):
    users = people(django_user_model)
    game = started(users)
    client = client_for(users[0])
    client.get(game.get_absolute_url())  # the seat's visit is stored once a minute
    with CaptureQueriesContext(connection) as fresh:
        client.get(game.get_absolute_url())
    game = play(
        game,
        users,
        lambda g: (
            g.moves.count() >= 60
            and g.positions.filter(new_round=True).exists()
            and g.moves.filter(forced=False).latest("version").actor_id != users[0].pk
        ),
    )
    # Not the player who just moved: only they pay for the undo's check (``_can_undo``).
    with CaptureQueriesContext(connection) as long:
        page = client.get(game.get_absolute_url()).content.decode()
    assert "Since your last move" in page and page.count('class="log-round"') > 1
    assert len(long) <= len(fresh)
