"""One way to write a date and a time on every page and in every email, in each language
(``puerto/formats``), and how long ago something happened said in words, never "0 minutes"."""

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import formats, timezone, translation

from games import services
from games.models import Game

BERLIN = ZoneInfo("Europe/Berlin")
MOMENT = datetime(2026, 11, 29, 13, 22, tzinfo=UTC)


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "Sun 29 Nov 2026, 14:22 CET"), ("de", "So, 29. Nov 2026, 14:22 CET")],
)
def test_a_date_and_time_is_written_one_way_in_each_language(language, written):
    with translation.override(language), timezone.override(BERLIN):
        assert formats.date_format(timezone.localtime(MOMENT), "DATETIME_FORMAT") == written


@pytest.fixture
def game_of(django_user_model):
    """``make(language, **changes)``: a running game of three people in Berlin who read
    ``language``, changed so; and a client of one who waits for another's move."""

    def make(language: str, **changes) -> tuple[Game, Client]:
        people = [
            django_user_model.objects.create_user(
                name, password="pw", time_zone="Europe/Berlin", language=language
            )
            for name in ("anna", "bob", "chris")
        ]
        game = services.create_game(
            people[0], engine="puerto_rico", num_players=3, move_time=timedelta(days=1)
        )
        for person in people[1:]:
            services.join_game(game.pk, person)
        Game.objects.filter(pk=game.pk).update(**changes)
        game = Game.objects.with_seats().get(pk=game.pk)
        client = Client()
        client.force_login(next(p for p in people if p != game.seat_to_act().user))
        return game, client

    return make


@pytest.mark.django_db
def test_the_game_page_writes_the_deadline_as_every_page_does(game_of):
    game, client = game_of("en", deadline=MOMENT)
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Sun 29 Nov 2026, 14:22 CET" in page


@pytest.mark.django_db
def test_a_turn_that_just_began_is_not_said_to_have_begun_0_minutes_ago(game_of):
    game, client = game_of("en", turn_started_at=timezone.now())
    page = client.get(game.get_absolute_url()).content.decode()
    assert "0 minutes" not in page
    assert re.search(r"Waiting for \w+: the turn began (now|a second ago|\d+\sseconds ago)\.", page)


@pytest.mark.django_db
def test_a_turn_two_days_old_reads_as_german_says_it(game_of):
    game, client = game_of("de", turn_started_at=timezone.now() - timedelta(days=2, minutes=1))
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Zugbeginn: 2\xa0Tage her" in page
