"""The site in English and German: which language a reader gets, the visitors' switch, every
string of the source translated, the email and the error pages in the reader's language.

``english_leaks`` finds English on a German page: the catalogue's English strings whose German
differs, found whole on the page. The browser test that plays a game in German uses it too.
"""

import functools
import gettext
import html.parser
import os
import re
import shutil
import subprocess
import sys
from datetime import timedelta

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import timezone, translation
from django.views import defaults

from games.models import Game, Notification, Seat
from tests.accounts.conftest import (
    PASSWORD,
    fresh_rate_limits,  # noqa: F401 - autouse: fresh limits
    log_in,
    sign_up,
)

CATALOGUE = settings.BASE_DIR / "locale" / "de" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%(?:\(\w+\))?[sd]")
MAKEMESSAGES = ["-e", "html,txt,py", "-i", "tests", "-i", "bench", "--no-obsolete"]
"""How the catalogue is brought up to date (``docs/operations.md``); the tests and the benches
show nobody anything."""


# Helpers ------------------------------------------------------------------------------------


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style", "title")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style", "title") and self.hidden > 0

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(page: str) -> str:
    """The words a reader sees on an HTML page, on one line."""
    parser = _Text()
    parser.feed(page)
    return " ".join(" ".join(parser.parts).split())


@functools.cache
def _translated_phrases() -> tuple[re.Pattern, ...]:
    """The fixed pieces of every English msgid whose German is different, as patterns that
    match them as whole words. Date formats and pieces without a word of three letters are
    left out (a name such as "Indigo" is the same in both languages and never listed)."""
    with (CATALOGUE / "django.mo").open("rb") as mo:
        catalogue = gettext.GNUTranslations(mo)._catalog
    phrases = set()
    for key, german in catalogue.items():
        msgid = key[0] if isinstance(key, tuple) else key
        context, _, msgid = msgid.rpartition("\x04")
        if not msgid or context == "date format" or msgid == german:
            continue
        for piece in PLACEHOLDER.split(msgid):
            piece = " ".join(piece.split()).strip(" ,.:;·()“”")
            if re.search(r"[A-Za-z]{3}", piece) and piece not in german:
                phrases.add(piece)
    return tuple(re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])") for p in sorted(phrases))


def english_leaks(text: str) -> list[str]:
    """English phrases of the catalogue found in ``text`` (a German page's visible text);
    links and paths are not words."""
    text = re.sub(r"\S*/\S*", " ", text)
    return [p.pattern for p in _translated_phrases() if p.search(text)]


def test_english_leaks_finds_english_and_only_english():
    assert english_leaks("Du hast noch keine Partien. Lobby Indigo") == []
    assert english_leaks("Du hast noch keine Partien. You have no games yet.") != []


# Which language ----------------------------------------------------------------------------


@pytest.fixture
def member(django_user_model):
    """A player with a verified address, whose language is English (the default)."""
    from allauth.account.models import EmailAddress

    user = django_user_model.objects.create_user("anna", "anna@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def lang(response) -> str:
    return re.search(r'<html lang="(\w+)"', response.content.decode()).group(1)


@pytest.mark.django_db
def test_a_visitor_gets_the_language_their_browser_asks_for(client):
    assert lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")) == "de"
    assert "Anmelden" in client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()


@pytest.mark.django_db
def test_english_when_the_browser_asks_for_no_language_of_ours(client):
    assert lang(client.get("/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")) == "en"
    assert lang(client.get("/")) == "en"


@pytest.mark.django_db
def test_a_member_gets_their_own_setting_whatever_the_browser_says(client, member):
    member.language = "de"
    member.save()
    log_in(client, "anna")
    page = client.get("/games/mine/", HTTP_ACCEPT_LANGUAGE="en")
    assert lang(page) == "de" and "Meine Partien" in page.content.decode()
    member.language = "en"
    member.save()
    assert lang(client.get("/games/mine/", HTTP_ACCEPT_LANGUAGE="de")) == "en"


@pytest.mark.django_db
def test_a_visitor_switches_language_in_the_top_bar(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'action="/i18n/setlang/"' in page and 'value="de"' in page
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/games/mine/"})
    assert response.status_code == 302 and response.url == "/games/mine/"
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert lang(page) == "de"
    assert 'value="en"' in page.content.decode()  # and back
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "en"


@pytest.mark.django_db
def test_an_unknown_language_from_the_switch_changes_nothing(client):
    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de")) == "de"


@pytest.mark.django_db
def test_a_member_switches_language_in_the_top_bar_and_their_profile_keeps_it(client, member):
    log_in(client, "anna")
    page = client.get("/games/mine/").content.decode()
    assert 'action="/accounts/language/"' in page and 'value="de"' in page
    response = client.post("/accounts/language/", {"language": "de", "next": "/games/mine/"})
    assert response.status_code == 302 and response.url == "/games/mine/"
    member.refresh_from_db()
    assert member.language == "de"  # the email follows too
    assert lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "de"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "posted",
    [
        {"language": "xx", "next": "/"},
        {"language": "de\x00", "next": "/"},
        {"language": "de", "next": "https://evil.example/"},
    ],
)
def test_a_members_switch_changes_nothing_it_should_not(client, member, posted):
    log_in(client, "anna")
    response = client.post("/accounts/language/", posted)
    assert response.status_code == 302 and not response.url.startswith("https://evil")
    member.refresh_from_db()
    assert member.language == ("de" if posted["language"] == "de" else "en")


@pytest.mark.django_db
def test_a_lone_surrogate_in_a_members_switch_changes_nothing(client, member):
    log_in(client, "anna")
    body = "language=%ED%A0%80&next=%2F"  # a lone surrogate, as a browser never sends it
    response = client.post(
        "/accounts/language/", body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.language == "en"


@pytest.mark.django_db
def test_a_new_player_keeps_the_language_they_signed_up_in(client, django_user_model):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
    sign_up(client, username="berta", email="berta@example.org")
    assert django_user_model.objects.get(username="berta").language == "de"
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    sign_up(client, username="carl", email="carl@example.org")
    assert django_user_model.objects.get(username="carl").language == "en"


# Every string translated ---------------------------------------------------------------------


def test_every_string_of_the_site_has_a_german_translation(tmp_path):
    """``makemessages`` in a copy of the project (the tree stays clean), then no entry may be
    untranslated or fuzzy: a string added to a template or to Python without its German
    fails here, and so does one whose English changed since it was translated."""
    from tests.accounts.test_translations import gaps

    copy = tmp_path / "puerto"
    shutil.copytree(
        settings.BASE_DIR,
        copy,
        ignore=shutil.ignore_patterns(".*", "var", "staticfiles", "__pycache__", "*.sqlite3*"),
    )
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "--locale", "de", *MAKEMESSAGES],
        cwd=copy,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "puerto.settings"},
        capture_output=True,
        check=True,
    )
    po = copy / "locale" / "de" / "LC_MESSAGES" / "django.po"
    assert gaps(po) == ""


# Email ---------------------------------------------------------------------------------------


def email_context(kind: str, *, others: bool, won: bool = False) -> dict:
    game = Game(pk=12, on_timeout=Game.OnTimeout.VOTE if others else Game.OnTimeout.AI)
    soon = timezone.now() + timedelta(hours=5)
    names = ["bob", "chris"] if others else []
    return {
        "name": "anna",
        "unsubscribe_url": "https://puerto.example.org/u/x/",
        "settings_url": "https://puerto.example.org/accounts/profile/",
        "game": game,
        "game_url": "https://puerto.example.org/games/12/",
        "others": names,
        "deadline": soon if others else None,
        "absentee": "bob",
        "won": won,
        "winners": [] if won else ["bob", "chris"] if others else ["bob"],
        "scores": [{"name": "anna", "total": 40, "winner": won}, {"name": "bob", "total": 38}],
        "games": [
            {"game": game, "url": "u", "deadline": deadline, "since": soon, "others": names}
            for deadline in ([soon, None] if others else [soon])
        ],
    }


EMAILS = [
    (kind, part, others)
    for kind in Notification.Kind.values
    for part in ("subject.txt", "txt", "html")
    for others in (True, False)
]


@pytest.mark.parametrize(("kind", "part", "others"), EMAILS)
def test_each_email_is_one_template_that_speaks_german_to_a_german_reader(kind, part, others):
    context = email_context(kind, others=others, won=not others)
    with translation.override("de"):
        german = render_to_string(f"email/{kind}.{part}", context)
    with translation.override("en"):
        english = render_to_string(f"email/{kind}.{part}", context)
    text = visible_text(german) if part == "html" else german
    assert english_leaks(text) == []
    assert german != english
    if part != "subject.txt":
        assert "Hallo anna," in german and "Hello anna," in english


def test_the_email_names_winners_and_days_the_german_way():
    context = email_context("game_over", others=True)
    with translation.override("de"):
        subject = render_to_string("email/game_over.subject.txt", context)
        reminder = render_to_string("email/reminder.txt", email_context("reminder", others=True))
    assert subject.strip() == "Partie 12 ist zu Ende: bob und chris haben gewonnen"
    assert re.search(r"Bitte ziehe bis \w+, \d+\. \w+ \d{4}, \d\d:\d\d UTC \(noch ", reminder)


# Error pages, favicon, top bar ---------------------------------------------------------------


@pytest.mark.django_db
def test_error_pages_in_the_readers_language(client):
    response = client.get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    assert "Seite nicht gefunden" in response.content.decode()
    assert "Page not found" in client.get("/no/such/page/").content.decode()
    request = RequestFactory().get("/")
    with translation.override("de"):
        pages = {
            400: defaults.bad_request(request, Exception()),
            403: defaults.permission_denied(request, Exception()),
            500: defaults.server_error(request),
        }
    for status, response in pages.items():
        text = visible_text(response.content.decode())
        assert response.status_code == status
        assert english_leaks(text) == [], text
        assert "Zurück zur Startseite" in text


@pytest.mark.django_db
def test_an_expired_form_is_explained_in_the_readers_language(client, member):
    client.handler.enforce_csrf_checks = True  # no token: what a stale page sends
    response = client.post("/accounts/login/", {"login": "anna"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 403
    assert "Das Formular ist abgelaufen" in response.content.decode()


@pytest.mark.django_db
def test_the_favicon_is_where_browsers_look_for_it(client):
    response = client.get("/favicon.ico", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain and response["Content-Type"] == "image/svg+xml"


@pytest.mark.django_db
def test_the_top_bar_links_the_lobby(client):
    assert 'href="/games/"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_admin_names_our_models_and_fields_in_german(admin_client, admin_user):
    admin_user.language = "de"
    admin_user.save()
    index = visible_text(admin_client.get("/admin/").content.decode())
    assert "E-Mail-Benachrichtigungen" in index and "Partien" in index and "Urlaube" in index
    page = admin_client.get(f"/admin/accounts/user/{admin_user.pk}/change/").content.decode()
    assert "Anzeigename" in page and "Erinnerungs-E-Mail" in page
    game = Game.objects.create(
        engine="puerto_rico", num_players=3
    )  # games are only seen in the admin, not added
    page = visible_text(admin_client.get(f"/admin/games/game/{game.pk}/change/").content.decode())
    assert "Anzahl der Spieler" in page and "Zugzeit" in page
    assert english_leaks(page) == []


@pytest.mark.django_db
def test_bad_vacation_days_are_refused_in_german_and_nothing_changes(client, member):
    member.language = "de"
    member.save()
    log_in(client, "anna")
    for days, error in [
        ("", "Gib die Anzahl der Tage an."),
        ("viele", "Gib die Anzahl der Tage an."),
        ("0", "Ein Urlaub dauert wenigstens ein bisschen."),
        ("nan", "Ein Urlaub dauert wenigstens ein bisschen."),
        ("inf", "In diesem Jahr bleiben dir nur noch 30 Tage Urlaub."),
        ("31", "In diesem Jahr bleiben dir nur noch 30 Tage Urlaub."),
    ]:
        response = client.post("/games/vacation/", {"action": "start", "days": days})
        assert response.status_code == 400, days
        assert error in response.content.decode(), days
    assert not member.vacations.exists()


def test_an_ai_seat_is_named_in_the_readers_language():
    seat = Seat(ai_level=Seat.AI.EASY, colour="green")
    with translation.override("de"):
        assert (seat.name, Seat().name) == ("KI grün", "freier Platz")
    with translation.override("en"):
        assert (seat.name, Seat().name) == ("AI green", "open seat")
