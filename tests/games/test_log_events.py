"""The log and the refusals in the reader's language: every event kind and every refusal code
reads in English and German, and a refused move or a stored log reaches the page and the API
in the language the reader asked for."""

import re
import string

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games import services
from games.engines.puerto_rico import REFUSALS, IllegalAction
from games.models import Game, Move
from games.registry import get_engine, get_game
from tests.engines.events import EXAMPLES, NOBLE_PAID, UNSEEN

pr = get_engine("puerto_rico")
ui = get_game("puerto_rico")
NAMES = ["Anna", "Bob", "Chris"]

ENGLISH = re.compile(
    r"\b(the|you|your|takes?|ships?|doubloons?|colonists?|plantations?|builds?|sells?|nothing|"
    r"only|owner|supply|barrels?|must|already|chosen|round|emptied|victory|points?|full|"
    r"produces|places|draws|store|game|ends|new|choose|kind|kinds|goods|left|board)\b",
    re.IGNORECASE,
)
"""English words a German sentence of the log would show if a translation were missing."""


def told(language: str, event: dict) -> str:
    with translation.override(language):
        return ui.describe_event(event, NAMES)


def refused(language: str, code: str, params: dict) -> str:
    with translation.override(language):
        return ui.describe_refusal(code, params)


@pytest.mark.parametrize(
    "event",
    [*EXAMPLES, *UNSEEN, NOBLE_PAID],
    ids=[e["event"] for e in EXAMPLES]
    + [f"{e['event']}-unseen" for e in UNSEEN]
    + ["black_market-noble"],
)
def test_every_event_reads_in_english_and_in_german(event):
    english, german = told("en", event), told("de", event)
    seats = [event.get("seat")] + [s["seat"] for s in event.get("shares", [])]
    for seat in (s for s in seats if s is not None):
        assert NAMES[seat] in english and NAMES[seat] in german
    assert "%" not in english + german and "{" not in english + german
    assert german != english
    assert not ENGLISH.findall(german), german


@pytest.mark.parametrize(
    "event, english, german",
    [
        (
            {"event": "sell", "seat": 2, "good": "tobacco", "price": 1},
            "Chris sells 1 tobacco for 1 doubloon",
            "Chris verkauft 1 Tabak für 1 Dublone",
        ),
        (
            {
                "event": "load",
                "seat": 1,
                "good": "sugar",
                "barrels": 6,
                "capacity": 7,
                "vp": 8,
                "harbor": True,
                "captain": True,
            },
            "Bob ships 6 sugar on the 7-ship: 8 victory points (+1 harbor) (+1 captain)",
            "Bob verlädt 6 Zucker auf das 7er-Schiff: 8 Siegpunkte (+1 Hafen) (+1 Kapitän)",
        ),
        (
            {"event": "role", "seat": 0, "role": "craftsman", "doubloons": 2},
            "Anna takes the craftsman (+2 doubloons)",
            "Anna wählt den Aufseher (+2 Dublonen)",
        ),
        (
            {"event": "build", "seat": 1, "building": "small_market", "price": 0, "colonist": True},
            "Bob builds the small market for 0 doubloons (+1 colonist, university)",
            "Bob baut für 0 Dublonen: Kleine Markthalle (+1 Kolonist, Universität)",
        ),
        (
            {
                "event": "colonists_arrive",
                "colonists": 4,
                "shares": [{"seat": 2, "colonists": 2}, {"seat": 0, "colonists": 1}],
            },
            "The colonist ship brings 4 colonists: Chris 2, Anna 1",
            "Das Kolonistenschiff bringt 4 Kolonisten: Chris 2, Anna 1",
        ),
        (
            {"event": "game_ends", "reason": "city"},
            "The game ends after this round: a city's 12th space was filled",
            "Das Spiel endet nach diesem Durchgang: "
            "ein Spieler hat seinen zwölften Bauplatz bebaut",
        ),
    ],
    ids=["sell", "load", "role", "build", "colonists", "end"],
)
def test_events_read_as_the_rulebooks_say(event, english, german):
    assert (told("en", event), told("de", event)) == (english, german)


SAMPLE_PARAMS = {
    "good": "sugar",
    "tile": "coffee",
    "building": "small_market",
    "role": "prospector",
    "phase": "builder",
    "choices": "corn, indigo",
    "field": "good",
    "type": "steal",
    "place": "corn",
}


def sample_params(code: str) -> dict:
    """Parameters for every placeholder of a refusal's English: pieces by name, numbers 2."""
    names = {name for _, name, _, _ in string.Formatter().parse(REFUSALS[code]) if name}
    return {name: SAMPLE_PARAMS.get(name, 2) for name in names}


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_every_refusal_reads_in_english_as_the_engine_says_and_in_german(code):
    params = sample_params(code)
    english = refused("en", code, params)
    assert english == str(IllegalAction(code, **params))
    german = refused("de", code, params)
    assert german != english and "%" not in german
    quoted = re.sub(r"'[^']*'", "", german)  # JSON keys stay as a program sends them
    assert not ENGLISH.findall(quoted), german


def test_a_refusal_names_the_pieces_in_the_readers_language():
    params = {"building": "large_market", "price": 4, "doubloons": 3}
    assert refused("de", "too_expensive", params) == (
        "dieses Gebäude kostet dich 4 Dublonen, du hast 3: Große Markthalle"
    )
    assert refused("de", "trading_house_has_good", {"good": "coffee"}).startswith(
        "im Handelshaus liegt schon Kaffee:"
    )


# Through the site ----------------------------------------------------------------------------


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]


def running_game(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=3)
    for user in users[1:]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def user_to_act(game, users):
    seat = Game.objects.get(pk=game.pk).seat_to_act()
    return next(u for u in users if u.pk == seat.user_id)


@pytest.mark.django_db
def test_a_refused_move_through_the_api_gives_the_german_reason_and_the_code(users):
    """A player who left the language to the browser gets the browser's."""
    game = running_game(users)
    player = user_to_act(game, users)
    player.language = ""
    player.save()
    client = APIClient(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(player)
    before = Game.objects.get(pk=game.pk).state
    response = client.post(
        reverse("api:moves", args=[game.pk]),
        {"action": {"type": "build", "building": "harbor"}, "version": game.version},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "jetzt muss eine Rolle gewählt werden",
        "code": "role_expected",
        "params": {},
    }
    assert Game.objects.get(pk=game.pk).state == before
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_a_refused_move_through_the_form_shows_the_german_reason(users):
    """A player who chose German reads German whatever the browser asks for."""
    game = running_game(users)
    player = user_to_act(game, users)
    player.language = "de"
    player.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(player)
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"version": game.version, "action": '{"type": "choose_role", "role": "prospector"}'},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "im Spiel zu 3 gibt es keine Rollenkarte „Goldsucher“" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.django_db
def test_a_move_stores_events_and_every_reader_gets_the_log_in_their_language(users):
    game = running_game(users)
    player = user_to_act(game, users)
    result = services.submit_move(
        game.pk, {"type": "choose_role", "role": "builder"}, user=player, expected_version=0
    )
    chooser = result.move.seat.position
    assert result.move.log[0] == {
        "event": "role",
        "seat": chooser,
        "role": "builder",
        "doubloons": 0,
    }
    url = reverse("games:log", args=[game.pk])
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(url).content.decode()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    assert f"{player.username} wählt den Baumeister" in german
    assert f"{player.username} takes the builder" in english
    # A player who chose German reads German whatever the browser asks for.
    player.language = "de"
    player.save()
    signed_in = Client(HTTP_ACCEPT_LANGUAGE="en")
    signed_in.force_login(player)
    assert f"{player.username} wählt den Baumeister" in signed_in.get(url).content.decode()
