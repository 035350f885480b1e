"""The archive (finished games, searchable) and the games to watch (running ones), as pages
and in the API; the new-game form's "rated" and "anyone may watch"."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services, transfer
from games.models import Game
from tests.games.game_files import game_file
from tests.games.listing import finished_game, running_game
from tests.games.test_chat import fresh_rate_limits  # noqa: F401 - every test counts its own

pytestmark = pytest.mark.django_db

ARCHIVE = reverse("games:archive")
WATCH = reverse("games:watch")
API_ARCHIVE = reverse("api:archive")
API_WATCH = reverse("api:watch")


@pytest.fixture
def users(django_user_model):
    people = [
        django_user_model.objects.create_user(name)
        for name in ("anna", "bob", "chris", "david", "eve")
    ]
    people[1].display_name = "Captain Roberto"
    people[1].save()
    return people


def client_for(user=None, language: str | None = None) -> Client:
    client = Client()
    if user is not None:
        if language:
            user.language = language
            user.save()
        client.force_login(user)
    return client


def listed(response) -> list[int]:
    """The games a list page shows, in its order (each row's first link)."""
    page = response.content.decode()
    return [int(n) for n in re.findall(r'<p class="game-line"><a href="/games/(\d+)/"', page)]


def api_listed(response) -> list[int]:
    return [row["id"] for row in response.json()["results"]]


def day(n: int) -> datetime:
    return datetime(2026, 5, n, 12, tzinfo=UTC)


# The archive ---------------------------------------------------------------------------------


def test_the_archive_lists_finished_public_games_newest_first_and_the_viewers_own(users):
    anna, bob, chris, david, _ = users
    old = finished_game([anna, bob], finished_at=day(1))
    new = finished_game([chris, david], finished_at=day(3))
    private = finished_game([anna, chris], spectators=False, finished_at=day(2))
    running_game([anna, bob])
    for client in (Client(), client_for(bob)):
        response = client.get(ARCHIVE)
        assert response.status_code == 200
        assert listed(response) == [new.pk, old.pk]
    assert listed(client_for(anna).get(ARCHIVE)) == [new.pk, private.pk, old.pk]
    assert api_listed(client_for(chris).get(API_ARCHIVE)) == [new.pk, private.pk, old.pk]
    assert api_listed(Client().get(API_ARCHIVE)) == [new.pk, old.pk]


def test_each_row_has_the_players_by_place_with_scores_the_kind_and_the_links(users):
    anna, bob, chris, *_ = users
    game = finished_game(
        [anna, bob, chris], scores=[31, 47, 40], rated=True, options={"edition": "nobles"}
    )
    page = client_for(anna).get(ARCHIVE).content.decode()
    row = page[page.index('<ol class="game-list">') :]
    names = re.findall(r'<span class="place">(\d)\.</span> ([^<]+?) <span class="score">(\d+)', row)
    # The scores are by engine seat, drawn at the start: seat 1 scored best, then seat 2.
    seated = game.names()
    assert names == [("1", seated[1], "47"), ("2", seated[2], "40"), ("3", seated[0], "31")]
    assert sorted(seated) == sorted(["Captain Roberto", "anna", "chris"])
    assert "Nobles" in row and "rated" in row and "casual" not in row
    for name in ("game", "replay", "export"):
        assert f'href="{reverse(f"games:{name}", args=[game.pk])}"' in row


def test_filters_by_player_name_or_display_name_game_count_kind_and_dates(users):
    anna, bob, chris, david, eve = users
    a = finished_game([anna, bob], rated=True, finished_at=day(1))
    b = finished_game([chris, david, eve], finished_at=day(5))
    c = finished_game([eve, anna], engine="amerigo", finished_at=day(9))
    cases = {
        "player=ANN": [c.pk, a.pk],
        "player=roberto": [a.pk],  # Bob's display name
        "player=zzz": [],
        "game=amerigo": [c.pk],
        "players=3": [b.pk],
        "kind=rated": [a.pk],
        "kind=casual": [c.pk, b.pk],
        "finished_from=2026-05-05": [c.pk, b.pk],
        "finished_to=2026-05-05": [b.pk, a.pk],
        "finished_from=2026-05-02&finished_to=2026-05-08": [b.pk],
        "player=eve&game=puerto_rico": [b.pk],
    }
    for query, expected in cases.items():
        assert listed(Client().get(f"{ARCHIVE}?{query}")) == expected, query
        assert api_listed(Client().get(f"{API_ARCHIVE}?{query}")) == expected, query


def test_the_edition_is_offered_per_game_and_a_game_without_the_option_has_its_default(users):
    anna, bob, *_ = users
    base = finished_game([anna, bob])  # stored without the option: the base game
    nobles = finished_game([anna, bob], options={"edition": "nobles"})
    both = finished_game([anna, bob], options={"edition": "both"})
    page = Client().get(ARCHIVE).content.decode()
    select = page[
        page.index('name="edition"') : page.index("</select>", page.index('name="edition"'))
    ]
    assert '<optgroup label="Puerto Rico">' in select and "New Buildings and Nobles" in select
    edition = "puerto_rico:edition:"
    assert listed(Client().get(ARCHIVE, {"edition": edition + "base"})) == [base.pk]
    assert listed(Client().get(ARCHIVE, {"edition": edition + "nobles"})) == [nobles.pk]
    assert listed(Client().get(ARCHIVE, {"edition": edition + "both"})) == [both.pk]
    assert listed(Client().get(ARCHIVE, {"edition": edition + "new_buildings"})) == []
    # An edition of another game than the one chosen: a mistake, said on the field.
    response = Client().get(ARCHIVE, {"edition": edition + "nobles", "game": "amerigo"})
    assert response.status_code == 400 and "not one of the chosen game" in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        {"game": "chess"},
        {"edition": "puerto_rico:edition:gold"},
        {"players": "7"},
        {"players": "²"},
        {"kind": "both"},
        {"finished_from": "yesterday"},
        {"finished_to": "2026-02-30"},
        {"finished_from": "2026-05-09", "finished_to": "2026-05-01"},
        {"page": "0"},
        {"page": "x"},
        {"page": "9" * 30},
        {"player": "p" * 151},
    ],
)
def test_a_search_it_cannot_read_is_a_400_with_the_mistake_on_its_field(users, query):
    finished_game(users[:2])
    response = Client().get(ARCHIVE, query)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'class="errorlist' in page and 'role="alert"' in page
    assert listed(response) == []
    api = Client().get(API_ARCHIVE, query)
    assert api.status_code == 400
    assert isinstance(api.json()["error"], str) and set(api.json()["fields"]) <= set(query) | {
        "__all__"
    }


def test_the_archive_says_so_in_german(users):
    finished_game(users[:2], rated=True)
    page = client_for(users[0], "de").get(ARCHIVE).content.decode()
    assert "<h1>Archiv</h1>" in page and "gewertet" in page and "Suchen" in page
    bad = client_for(users[0], "de").get(API_ARCHIVE, {"players": "x"})
    assert bad.status_code == 400 and "Suche" in bad.json()["error"]


def test_imported_games_are_listed_marked_imported(users):
    game, _ = transfer.import_game(game_file(seed=5, names=("Ada", "Lin")), users[4])
    page = Client().get(ARCHIVE, {"player": "ada"})
    assert listed(page) == [game.pk]
    assert 'class="game-kind">imported<' in page.content.decode()
    assert Client().get(API_ARCHIVE).json()["results"][0]["imported"] is True


def many_finished(users, count: int) -> list[Game]:
    start = timezone.now()
    return [
        finished_game(users[:2], finished_at=start - timedelta(minutes=i)) for i in range(count)
    ]


def test_fifty_a_page_and_the_page_links_keep_the_filters(users):
    games = many_finished(users, 51)
    first = Client().get(ARCHIVE, {"player": "anna", "kind": "casual"})
    assert listed(first) == [g.pk for g in games[:50]]
    page = first.content.decode()
    link = re.search(r'<a href="([^"]+)" rel="next">', page).group(1).replace("&amp;", "&")
    assert "player=anna" in link and "kind=casual" in link and "page=2" in link
    assert link.startswith("?")  # the browser keeps the address, here the archive's
    assert listed(Client().get(ARCHIVE + link)) == [games[50].pk]
    # Past the last page: the last.
    assert listed(Client().get(ARCHIVE, {"page": 7})) == [games[50].pk]
    api = Client().get(API_ARCHIVE, {"player": "anna"}).json()
    assert (api["count"], api["page"], api["pages"], api["previous"]) == (51, 1, 2, None)
    assert "player=anna" in api["next"] and "page=2" in api["next"]
    assert api_listed(Client().get(api["next"])) == [games[50].pk]


@pytest.mark.parametrize("url", [ARCHIVE, API_ARCHIVE, WATCH, API_WATCH])
def test_a_page_costs_a_fixed_number_of_queries(users, url, django_assert_max_num_queries):
    client = client_for(users[0])
    finished_game(users[:2])
    running_game(users[:2])
    with django_assert_max_num_queries(7):
        assert client.get(url).status_code == 200
    for _ in range(6):
        finished_game(users[1:4])
        running_game(users[2:5])
    with django_assert_max_num_queries(7) as counted:
        response = client.get(url)
    assert response.status_code == 200
    shown = listed(response) if url in (ARCHIVE, WATCH) else api_listed(response)
    assert len(shown) == 7
    assert len(counted) <= 7


# The games to watch --------------------------------------------------------------------------


def test_watch_lists_running_public_games_the_latest_turn_first(users):
    anna, bob, chris, david, eve = users
    first = running_game([anna, bob], rated=True)
    second = running_game([chris, david])
    running_game([eve, anna], spectators=False)
    finished_game([anna, bob])
    Game.objects.filter(pk=first.pk).update(turn_started_at=timezone.now())
    Game.objects.filter(pk=second.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    for client in (Client(), client_for(eve)):
        assert listed(client.get(WATCH)) == [first.pk, second.pk]
        assert api_listed(client.get(API_WATCH)) == [first.pk, second.pk]
    row = Client().get(API_WATCH).json()["results"][0]
    assert row["rated"] is True and row["url"] == first.get_absolute_url()
    assert [p["name"] for p in row["players"]] == first.names()
    page = Client().get(WATCH).content.decode()
    assert "rated" in page and "Captain Roberto" in page


def test_a_spectator_from_watch_sees_what_any_non_player_sees(users):
    game = running_game(users[:2])
    # Begun days ago, the turn reads the same in both answers; begun now, it could read "now"
    # in the first and "a second ago" in the second.
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(days=3))
    board = reverse("games:board", args=[game.pk])
    assert client_for(users[4]).get(board).content == Client().get(board).content


def test_watch_refuses_a_page_that_is_no_number(users):
    for page in ("x", "²", "0", "-1"):
        assert Client().get(WATCH, {"page": page}).status_code == 400
        answer = Client().get(API_WATCH, {"page": page})
        assert answer.status_code == 400 and "page" in answer.json()["fields"]


# The API's schema ----------------------------------------------------------------------------


def test_the_schema_describes_both_lists_with_their_fields_and_parameters():
    schema = Client().get(reverse("api:schema"), {"format": "json"}).json()
    components = schema["components"]["schemas"]
    archived = components["ArchivedGame"]["properties"]
    assert {"players", "finished_at", "rated", "replay_url", "export_url"} <= set(archived)
    player = components["PlacedPlayer"]["properties"]
    assert player["placement"]["type"] == player["score"]["type"] == "integer"
    page = components["ArchivePage"]["properties"]
    assert page["results"]["items"] == {"$ref": "#/components/schemas/ArchivedGame"}
    assert "WatchedGame" in components and "WatchPage" in components
    archive = schema["paths"]["/api/games/archive/"]["get"]
    parameters = {p["name"]: p["schema"] for p in archive["parameters"]}
    assert {"player", "game", "edition", "players", "kind", "finished_from", "page"} <= set(
        parameters
    )
    assert {"type": "string", "format": "date"} in parameters["finished_from"]["anyOf"]
    assert "puerto_rico:edition:nobles" in parameters["edition"]["anyOf"][0]["enum"]
    assert set(archive["responses"]) == {"200", "400", "403", "406", "429"}  # anyone may read


# The new-game form, the game page, the lists beside it ------------------------------------------


def test_the_lobby_opens_a_rated_game_only_its_players_may_watch(users):
    client = client_for(users[0])
    response = client.post(
        reverse("games:lobby"), {"num_players": 3, "seat_3": "easy", "rated": "on"}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and (game.rated, game.spectators) == (True, False)
    services.join_game(game.pk, users[1])
    page = client.get(game.get_absolute_url()).content.decode()
    status = page[
        page.index('id="game-status"') : page.index("</small>", page.index('id="game-status"'))
    ]
    assert "rated" in status and "players only" in status
    mine = client.get(reverse("games:mine")).content.decode()
    assert "rated" in mine and "players only" in mine


def test_anyone_may_watch_is_on_unless_unchecked(users):
    client = client_for(users[0])
    form = client.get(reverse("games:lobby")).content.decode()
    assert re.search(r'<input type="checkbox" name="spectators"[^>]* checked', form)
    assert re.search(r'<input type="checkbox" name="rated"(?![^>]* checked)[^>]*>', form)
    client.post(reverse("games:lobby"), {"num_players": 2, "spectators": "on"})
    game = Game.objects.get()
    assert (game.rated, game.spectators) == (False, True)
    page = client.get(reverse("games:lobby")).content.decode()
    kind = re.search(r'<span class="game-kind">([^<]*)</span>', page).group(1)
    assert kind == "casual"


@pytest.mark.parametrize("language, words", [("en", "at least two persons"), ("de", "zwei")])
def test_a_rated_game_with_fewer_than_two_persons_is_a_form_error(users, language, words):
    client = client_for(users[0], language)
    data = {"num_players": 3, "seat_2": "easy", "seat_3": "hard", "rated": "on"}
    response = client.post(reverse("games:lobby"), data)
    assert response.status_code == 400 and words in response.content.decode()
    assert not Game.objects.exists()


def test_the_nav_links_watch_and_archive_after_the_lobby(users):
    page = Client().get(reverse("games:lobby"), follow=True).content.decode()
    nav = page[page.index("<nav") : page.index("</nav>")]
    order = [reverse("games:lobby"), WATCH, ARCHIVE]
    assert all(f'href="{url}"' in nav for url in order)
    places = [nav.index(f'href="{url}"') for url in order]
    assert places == sorted(places)
