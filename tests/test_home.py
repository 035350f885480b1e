import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils.http import urlencode

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


def test_a_visitor_sees_each_game_with_its_picture_rules_and_a_game_against_the_ai(client):
    html = client.get("/").content.decode()

    for title, slug, engine, picture in (
        ("Puerto Rico", "puerto-rico", "puerto_rico", "puerto-rico.png"),
        ("Amerigo", "amerigo", "amerigo", "amerigo.png"),
    ):
        assert f"<h3>{title}</h3>" in html
        assert f'src="/static/img/{picture}"' in html
        assert (settings.BASE_DIR / "static" / "img" / picture).is_file()
        assert f'href="/games/rules/{slug}/"' in html
        # Sign-up on the way, then the lobby with the AI in every further seat.
        lobby = f"/games/?game={engine}&against=ai"
        assert f'href="/accounts/signup/?{urlencode({"next": lobby})}"' in html.replace(
            "&amp;", "&"
        )


def test_the_front_page_lists_open_games_to_join_and_no_running_one(client, django_user_model):
    from games import services

    anna = django_user_model.objects.create_user("anna", password="x-secret-1")
    waiting = services.create_game(anna, engine="amerigo", num_players=3)
    running = services.create_game(anna, engine="puerto_rico", num_players=3, ai_seats=2)

    html = client.get("/").content.decode()

    assert f'href="/games/{waiting.pk}/"' in html
    assert re.search(r"<td>1 / 3</td>", html)
    assert f'href="/games/{running.pk}/"' not in html
    assert "No open games right now." not in html


def test_the_lobby_against_the_ai_fills_every_further_seat_with_the_medium_ai(
    client, django_user_model
):
    client.force_login(django_user_model.objects.create_user("anna", password="x-secret-1"))

    against = client.get("/games/?game=amerigo&against=ai").content.decode()
    plain = client.get("/games/?game=amerigo").content.decode()

    medium = re.compile(r'<option value="medium" selected>')
    assert len(medium.findall(against)) == 3  # seats 2 to 4
    assert not medium.findall(plain)
    assert 'href="?game=puerto_rico&amp;against=ai"' in against  # the other game keeps it


def test_play_against_the_ai_signs_up_then_opens_the_lobby_against_the_ai(client, mailoutbox):
    from tests.accounts.conftest import link_in, sign_up

    lobby = "/games/?game=puerto_rico&against=ai"
    client.get(f"/accounts/signup/?{urlencode({'next': lobby})}")
    response = sign_up(client, next=lobby)
    assert response["Location"] == "/accounts/confirm-email/"

    confirmed = client.post(link_in(mailoutbox[0]))

    assert confirmed.status_code == 302
    assert confirmed["Location"] == lobby
    page = client.get(lobby).content.decode()
    assert '<option value="medium" selected>' in page
