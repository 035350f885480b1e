"""The profile page; the chosen time zone and language take effect on the site's pages."""

import pytest
from django.contrib.auth import get_user_model

from tests.accounts.conftest import log_in

pytestmark = pytest.mark.django_db
User = get_user_model()

SETTINGS = {
    "display_name": "Anna the Builder",
    "time_zone": "Asia/Tokyo",
    "language": "de",
    "turn_email": "digest",
    "game_over_email": "on",
}


def test_the_profile_page_needs_a_login(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/profile/")


def test_the_profile_form_shows_every_setting(client, member):
    log_in(client, "anna")
    html = client.get("/accounts/profile/").content.decode()
    europe = html[html.index('<optgroup label="Europe">') :]
    assert europe.index('<option value="Europe/Berlin">Berlin</option>') < europe.index(
        "</optgroup>"
    )
    assert (
        '<option value="America/Argentina/Buenos_Aires">Argentina / Buenos Aires</option>' in html
    )
    assert '<option value="UTC" selected>UTC</option>' in html
    assert '<option value="de">Deutsch</option>' in html
    for name in ("display_name", "turn_email", "reminder_email", "game_over_email"):
        assert f'name="{name}"' in html
    assert html.count('type="radio" name="turn_email"') == 3


def test_saving_the_profile_takes_effect_on_the_next_page(client, member):
    log_in(client, "anna")
    assert 'lang="en"' in client.get("/").content.decode()

    response = client.post("/accounts/profile/", SETTINGS)

    assert response["Location"] == "/accounts/profile/"
    member.refresh_from_db()
    assert member.display_name == "Anna the Builder"
    assert member.time_zone == "Asia/Tokyo"
    assert member.language == "de"
    assert member.turn_email == User.TurnEmail.DIGEST
    assert member.reminder_email is False  # an unticked box
    assert member.game_over_email is True

    page = client.get("/accounts/profile/").content.decode()
    assert 'lang="de"' in page
    assert "Dein Profil ist gespeichert." in page  # the message, in German
    assert "Meine Partien" in page and "Abmelden" in page  # the site's nav
    assert "Zeitzone" in page and "Anzeigename" in page  # the form
    assert "JST" in page  # the local time, in Tokyo
    home = client.get("/").content.decode()
    assert "Anna the Builder" in home and "Abmelden" in home
    assert "E-Mail" in client.get("/accounts/email/").content.decode()  # allauth's own pages


def test_a_bad_time_zone_is_refused_and_nothing_changes(client, member):
    log_in(client, "anna")
    response = client.post("/accounts/profile/", {**SETTINGS, "time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    member.refresh_from_db()
    assert member.time_zone == "UTC" and member.language == "en"


def test_visitors_get_the_language_their_browser_asks_for(client):
    german = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Anmelden" in german and 'lang="de"' in german
    english = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sign Up" in english or "Sign up" in english


@pytest.mark.parametrize(
    "sent, stored", [("Europe/Berlin", "Europe/Berlin"), ("Mars/Olympus_Mons", "UTC"), ("", "UTC")]
)
def test_sign_up_stores_the_time_zone_the_browser_sent_if_it_is_one(client, sent, stored):
    client.post(
        "/accounts/signup/",
        {
            "username": "anna",
            "email": "anna@example.org",
            "password1": "correct-horse-battery-9",
            "password2": "correct-horse-battery-9",
            "time_zone": sent,
        },
    )
    assert User.objects.get(username="anna").time_zone == stored
