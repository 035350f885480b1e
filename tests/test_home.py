import re

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

HTMX_DIR = settings.BASE_DIR / "static" / "vendor" / "htmx"


def test_home_page_shows_site_name_and_loads_htmx_from_our_static(client):
    response = client.get("/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>puerto</title>" in html
    assert "<main>" in html
    assert '<script src="/static/vendor/htmx/htmx.min.js" defer></script>' in html
    assert 'name="viewport"' in html
    assert all(src.startswith("/static/") for src in re.findall(r'<script[^>]*src="([^"]+)"', html))


def test_home_page_offers_log_in_to_visitors_and_log_out_to_members(client, django_user_model):
    assert 'href="/accounts/login/"' in client.get("/").content.decode()

    client.force_login(django_user_model.objects.create_user("anna", password="x-secret-1"))
    html = client.get("/").content.decode()

    assert 'action="/accounts/logout/"' in html
    assert "anna" in html


def test_vendored_htmx_matches_its_recorded_version():
    recorded = (HTMX_DIR / "VERSION").read_text().strip()
    shipped = re.search(r'version:"([^"]+)"', (HTMX_DIR / "htmx.min.js").read_text())

    assert shipped is not None
    assert shipped.group(1) == recorded


def test_a_players_home_page_lists_the_games_waiting_for_their_move(client, django_user_model):
    from games import services
    from games.models import Game

    anna, bob, chris = (
        django_user_model.objects.create_user(name, password="x-secret-1")
        for name in ("anna", "bob", "chris")
    )
    games = [services.create_game(anna, engine="puerto_rico", num_players=3) for _ in range(2)]
    for game in games:
        services.join_game(game.pk, bob)
        services.join_game(game.pk, chris)
    mine, theirs = games
    Game.objects.filter(pk=mine.pk).update(current_position=mine.seats.get(user=anna).position)
    Game.objects.filter(pk=theirs.pk).update(current_position=theirs.seats.get(user=bob).position)
    client.force_login(anna)

    html = client.get("/").content.decode()

    assert f'href="/games/{mine.pk}/"' in html
    assert re.search(r"with (bob, chris|chris, bob)<", html)
    assert f'href="/games/{theirs.pk}/"' not in html
    assert '<form class="actions" method="get" action="/games/">' in html
    assert "New game</button>" in html

    client.force_login(bob)
    html = client.get("/").content.decode()
    assert f'href="/games/{theirs.pk}/"' in html and f'href="/games/{mine.pk}/"' not in html


def test_a_player_with_no_game_waiting_is_told_so_and_offered_a_new_game(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("anna", password="x-secret-1"))

    html = client.get("/").content.decode()

    assert "No game is waiting for your move." in html
    assert "New game</button>" in html
    assert "Play Puerto Rico and Amerigo by correspondence" not in html
    assert "Play Puerto Rico and Amerigo by correspondence" in Client().get("/").content.decode()
