"""Player pages, following players and the leaderboards: what a stranger, the player and a
moderator see of a player's games, following and its list, the leaderboards' order, pages,
filter and AI players apart, and a fixed number of queries however many games there are."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Result, Seat
from games.registry import get_ladder
from players.models import PROVISIONAL_GAMES, Follow, Rating
from players.profiles import FOLLOWED_GAMES
from players.ratings import NEWCOMER
from tests.players.conftest import finished, rate, running
from tests.test_i18n import english_leaks, visible_text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user=None, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def page_of(username: str, viewer=None):
    response = client_for(viewer).get(reverse("players:player", args=[username]))
    assert response.status_code == 200
    return response.content.decode()


def game_links(html: str) -> set[int]:
    """The games a page links to."""
    return {int(n) for n in re.findall(r'href="/games/(\d+)/"', html)}


def text_of(html: str) -> str:
    return visible_text(html)


# The player page ---------------------------------------------------------------------------


def test_the_page_shows_the_rating_per_ladder_its_chart_and_the_record(race, people):
    ann, ben, cy, _ = people
    games = [finished(ann, ben, cy, rated=True, seed=seed) for seed in range(3)]
    rating = Rating.objects.get(user=ann, ladder="race")
    html = page_of("ann")
    text = text_of(html)
    assert f"Rating {rating.value} provisional" in text
    assert f"Rated games {rating.games}" in text and rating.games == 3
    # The chart: the newcomer's rating, then one point per game.
    chart = re.search(r'<figure class="rating-chart">(.*?)</figure>', html, re.S).group(1)
    assert len(re.findall(r"<circle ", chart)) == 4
    assert 'aria-labelledby="rating-race"' in chart
    history = re.search(r"<details>.*?</details>", html, re.S).group(0)
    assert str(NEWCOMER) in history and str(rating.value) in history
    # The record: every finished game, wins as placements say.
    firsts = sum(g.results.get(user=ann).placement == 1 for g in games)
    assert f"Played 3 Won {firsts}" in text
    assert game_links(html) == {g.pk for g in games}
    for game in games:
        assert reverse("games:replay", args=[game.pk]) in html


def test_a_rating_stops_being_provisional_after_enough_games(race, people):
    ann, ben, cy, _ = people
    for seed in range(PROVISIONAL_GAMES):
        finished(ann, ben, cy, rated=True, seed=seed)
    text = text_of(page_of("ann"))
    assert "Rating " in text and "provisional" not in text.replace("Provisional until", "")


def test_the_rank_counts_the_persons_rated_higher_on_the_ladder(race, people):
    ann, ben, cy, dee = people
    ladder = "race"
    for user, value in [(ann, 1600), (ben, 1700), (cy, 1600), (dee, 1500)]:
        Rating.objects.create(ladder=ladder, user=user, mu=25, sigma=8, value=value, games=1)
    Rating.objects.create(ladder=ladder, ai_level="hard", mu=30, sigma=2, value=2000, games=9)
    ranks = {}
    for user in (ann, ben, cy, dee):
        ranks[user.username] = re.search(r"Rank (\d+)", text_of(page_of(user.username))).group(1)
    assert ranks == {"ann": "2", "ben": "1", "cy": "2", "dee": "4"}  # no AI level among them


@pytest.mark.parametrize(
    ("login_ago", "seen_ago", "said"),
    [
        (None, None, "more than a month ago"),
        (timedelta(days=40), None, "more than a month ago"),
        (timedelta(days=3), None, "this week"),
        (timedelta(days=20), timedelta(hours=2), "today"),
        (None, timedelta(days=10), "this month"),
    ],
)
def test_last_seen_is_said_coarsely_from_the_login_and_the_games_seen(
    race, people, login_ago, seen_ago, said
):
    ann, ben, cy, _ = people
    now = timezone.now()
    ann.last_login = now - login_ago if login_ago else None
    ann.save()
    game = running(ann, ben, cy)
    Seat.objects.filter(game=game, user=ann).update(seen_at=now - seen_ago if seen_ago else None)
    assert f"Last seen: {said}" in text_of(page_of("ann"))


def test_favourite_editions_are_the_game_and_edition_played_most(people):
    """Real games with editions: two of Puerto Rico's base game, one of Amerigo."""
    ann, ben, cy, _ = people
    for engine, options in [
        ("puerto_rico", {"edition": "base"}),
        ("puerto_rico", {"edition": "base", "hidden_vp": True}),
        ("puerto_rico", {"edition": "nobles"}),
    ]:
        game = Game.objects.create(
            engine=engine, num_players=3, options=options, status=Game.Status.FINISHED
        )
        game.finished_at = game.started_at = timezone.now()
        game.save()
        for position, user in enumerate((ann, ben, cy)):
            seat = Seat.objects.create(game=game, user=user, position=position)
            Result.objects.create(
                game=game,
                seat=seat,
                position=position,
                user=user,
                played_by="person",
                person_decisions=1,
                ai_decisions=0,
                placement=position + 1,
                score=10,
                parts={},
                tiebreak={},
            )
    html = page_of("ann")
    favourites = text_of(re.search(r'<ul class="favourites">.*?</ul>', html, re.S).group(0))
    base = Game(engine="puerto_rico", options={"edition": "base"}).variant()
    nobles = Game(engine="puerto_rico", options={"edition": "nobles"}).variant()
    assert base != nobles
    assert favourites.index(f"{base} — 2 games") < favourites.index(f"{nobles} — 1 game")
    assert "Played 3 Won 3" in text_of(html)


# Who sees which games ------------------------------------------------------------------------


@pytest.fixture
def anns_games(race, people):
    """Ann's games: finished and running, watchable and not."""
    ann, ben, cy, _ = people
    return {
        "watchable_finished": finished(ann, ben, cy),
        "private_finished": finished(ann, ben, cy, spectators=False, seed=2),
        "watchable_running": running(ann, ben, cy),
        "private_running": running(ann, ben, cy, spectators=False),
    }


def test_a_stranger_sees_only_the_games_anyone_may_watch(anns_games, people):
    dee = people[3]
    watchable = {anns_games["watchable_finished"].pk, anns_games["watchable_running"].pk}
    for stranger in (None, dee, people[1]):  # anonymous, signed in, even a fellow player
        html = page_of("ann", stranger)
        assert game_links(html) == watchable
        assert "Only games that anyone may watch are shown here." in html
        assert "Played 1 " in text_of(html)


def test_the_player_and_a_moderator_see_every_game(anns_games, people, moderator):
    everything = {g.pk for g in anns_games.values()}
    for viewer in (people[0], moderator):
        html = page_of("ann", viewer)
        assert game_links(html) == everything
        assert "Only games that anyone may watch" not in html
        assert "Played 2 " in text_of(html)


def test_a_player_who_hides_their_games_shows_strangers_only_their_ratings(
    anns_games, people, moderator
):
    ann, _, _, dee = people
    finished(ann, people[1], people[2], rated=True, seed=5)
    ann.games_public = False
    ann.save()
    for stranger in (None, dee):
        html = page_of("ann", stranger)
        assert game_links(html) == set()
        assert "ann keeps their games to themselves" in html
        assert "Rated games 1" in text_of(html)  # the ratings stay public
        assert "Played " not in text_of(html)
    for viewer in (ann, moderator):
        assert len(game_links(page_of("ann", viewer))) == 5


def test_an_inactive_or_unknown_account_has_no_page(people):
    ann = people[0]
    ann.is_active = False
    ann.save()
    for name in ("ann", "nobody", "a\x00b", "x" * 300):
        response = client_for().get(reverse("players:player", args=[name]))
        assert response.status_code == 404


def test_the_page_costs_the_same_queries_for_one_game_or_twelve(
    race, people, moderator, django_assert_max_num_queries
):
    ann, ben, cy, _ = people
    finished(ann, ben, cy, rated=True)
    running(ann, ben, cy)
    viewers = [None, ann, ben, moderator]
    url = reverse("players:player", args=["ann"])
    counts = {}
    for viewer in viewers:
        client = client_for(viewer)
        with CaptureQueriesContext(connection) as one:
            assert client.get(url).status_code == 200
        counts[viewer] = len(one)
    for seed in range(11):
        finished(ann, ben, cy, rated=seed % 2 == 0, seed=seed, spectators=seed % 3 != 0)
        running(ann, ben, cy)
    for viewer in viewers:
        client = client_for(viewer)
        with django_assert_max_num_queries(counts[viewer]):
            html = client.get(url).content.decode()
        assert len(game_links(html)) > 10


# Following ------------------------------------------------------------------------------------


def follow(client: Client, username: str, value: str = "1", **extra):
    return client.post(reverse("players:follow", args=[username]), {"follow": value}, **extra)


def test_follow_and_stop_following_with_and_without_htmx(people):
    ann, ben, _, _ = people
    client = client_for(ben)
    response = follow(client, "ann")
    assert response.status_code == 303 and response["Location"] == "/players/ann/"
    assert Follow.objects.filter(follower=ben, followed=ann).count() == 1
    assert "Stop following" in page_of("ann", ben)
    again = follow(client, "ann", **HTMX)  # twice changes nothing
    assert again.status_code == 200 and "Stop following" in again.content.decode()
    assert Follow.objects.filter(follower=ben, followed=ann).count() == 1
    stopped = follow(client, "ann", "0", **HTMX)
    assert stopped.status_code == 200
    assert 'name="follow" value="1"' in stopped.content.decode()
    assert not Follow.objects.exists()
    assert ">Follow</button>" in page_of("ann", ben)


def test_following_needs_a_signed_in_player_and_the_csrf_token(people):
    ben = people[1]
    assert follow(client_for(), "ann").status_code == 403
    assert follow(client_for(ben, enforce_csrf_checks=True), "ann").status_code == 403
    assert client_for(ben).get(reverse("players:follow", args=["ann"])).status_code == 405
    assert not Follow.objects.exists()
    assert "Follow</button>" not in page_of("ann")  # nothing to press for a visitor


@pytest.mark.parametrize("value", ["", "2", "yes", "1\x00", "\u0661", "true"])
def test_a_follow_that_says_neither_yes_nor_no_is_a_400(people, value):
    client = client_for(people[1])
    for extra in ({}, HTMX):
        response = follow(client, "ann", value, **extra)
        assert response.status_code == 400
        assert "Say whether to follow" in response.content.decode()
    assert not Follow.objects.exists()


def test_nobody_follows_themselves_or_an_inactive_account(people):
    ann, ben, _, _ = people
    response = follow(client_for(ann), "ann", **HTMX)
    assert response.status_code == 400 and "cannot follow yourself" in response.content.decode()
    assert "Follow</button>" not in page_of("ann", ann)
    ben.is_active = False
    ben.save()
    assert follow(client_for(ann), "ben").status_code == 404
    assert not Follow.objects.exists()


def news(html: str) -> list[str]:
    """The lines of the following page's list of games, as read."""
    return [text_of(li) for li in re.findall(r"<li>\s*<time.*?</li>", html, re.S)]


def test_the_following_list_shows_new_games_and_results_newest_first(race, people):
    ann, ben, cy, dee = people
    Follow.objects.create(follower=dee, followed=ann)
    Follow.objects.create(follower=dee, followed=ben)
    old = finished(ann, cy, ben)
    newer = running(ann, cy, ben)
    unfollowed = running(cy, dee, dee.__class__.objects.create_user("eve"))
    now = timezone.now()
    Game.objects.filter(pk=old.pk).update(
        started_at=now - timedelta(days=3), finished_at=now - timedelta(days=2)
    )
    Game.objects.filter(pk=newer.pk).update(started_at=now - timedelta(days=1))
    response = client_for(dee).get(reverse("players:following"))
    html = response.content.decode()
    assert game_links(html) == {old.pk, newer.pk}
    assert unfollowed.pk not in game_links(html)
    lines = news(html)
    assert len(lines) == 4  # ann and ben in each game
    assert all(f"Game {newer.pk}" in line and "started" in line for line in lines[:2])
    placement = old.results.get(user=ann).placement
    ann_line = next(line for line in lines[2:] if "ann" in line)
    assert f"Game {old.pk}" in ann_line and "finished" in ann_line
    assert ("1st" if placement == 1 else "2nd" if placement == 2 else "3rd") in ann_line
    assert 'href="/players/ann/"' in html and 'href="/players/ben/"' in html


def test_the_following_list_keeps_to_what_the_follower_may_see(race, people, moderator):
    ann, ben, cy, dee = people
    watchable = finished(ann, ben, cy)
    private = finished(ann, ben, cy, spectators=False, seed=3)
    for follower in (dee, moderator):
        Follow.objects.create(follower=follower, followed=ann)
    assert game_links(client_for(dee).get("/players/following/").content.decode()) == {watchable.pk}
    everything = {watchable.pk, private.pk}
    assert game_links(client_for(moderator).get("/players/following/").content.decode()) == (
        everything
    )
    ann.games_public = False
    ann.save()
    html = client_for(dee).get("/players/following/").content.decode()
    assert game_links(html) == set() and 'href="/players/ann/"' in html
    html = client_for(moderator).get("/players/following/").content.decode()
    assert game_links(html) == everything


def test_the_following_list_needs_a_login_and_says_when_it_is_empty(people):
    response = client_for().get(reverse("players:following"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    html = client_for(people[0]).get(reverse("players:following")).content.decode()
    assert "You follow nobody yet." in html


def test_the_following_list_costs_the_same_queries_for_one_game_or_thirty(
    race, people, django_assert_max_num_queries
):
    ann, ben, cy, dee = people
    Follow.objects.create(follower=dee, followed=ann)
    Follow.objects.create(follower=dee, followed=ben)
    finished(ann, ben, cy)
    client = client_for(dee)
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("players:following"))
    for seed in range(29):
        (finished if seed % 2 else running)(ann, ben, cy, **({"seed": seed} if seed % 2 else {}))
    with django_assert_max_num_queries(len(one)):
        html = client.get(reverse("players:following")).content.decode()
    assert len(news(html)) == FOLLOWED_GAMES  # the latest: two followed players a game


# Leaderboards --------------------------------------------------------------------------------


def board(ladder: str, **params):
    return client_for().get(reverse("players:leaderboard", args=[ladder]), params)


def names_on(html: str) -> list[str]:
    """The persons of a leaderboard, in order."""
    return re.findall(r'<td><a href="/players/([^/]+)/">', html)


@pytest.fixture
def ladder():
    """Puerto Rico's ladder for three to five players: a real one."""
    return get_ladder("puerto_rico")


def test_persons_are_ranked_by_rating_and_the_ai_levels_kept_apart(ladder, people):
    ann, ben, cy, dee = people
    rate(ladder.key, ann, 1600)
    rate(ladder.key, ben, 1700, games=2)
    rate(ladder.key, cy, 1600)
    rate(ladder.key, dee, 1400)
    rate(ladder.key, value=1900, level="hard")
    rate(ladder.key, value=1300, level="easy")
    rate("amerigo", dee, 2500)  # another ladder
    response = board(ladder.key)
    html = response.content.decode()
    assert names_on(html) == ["ben", "ann", "cy", "dee"]
    persons, ai = html.split('id="ai-title"')
    ranks = re.findall(r"<tr>\s*<td>(\d+)</td>", persons)
    assert ranks == ["1", "2", "2", "4"]
    assert persons.count('class="provisional"') == 1  # ben's, with two games
    assert "AI: hard" not in persons and "1900" not in persons
    assert ai.index("AI: hard") < ai.index("AI: easy")
    assert "2500" not in html


def test_the_leaderboard_has_pages_of_fifty(ladder, django_user_model):
    users = django_user_model.objects.bulk_create(
        django_user_model(username=f"p{i:03}") for i in range(51)
    )
    for i, user in enumerate(users):
        rate(ladder.key, user, 2000 - i)
    first = board(ladder.key).content.decode()
    assert names_on(first) == [f"p{i:03}" for i in range(50)]
    assert "Page 1 of 2" in first and 'rel="next"' in first
    second = board(ladder.key, page="2").content.decode()
    assert names_on(second) == ["p050"]
    assert re.search(r"<td>51</td>", second) and 'rel="prev"' in second
    assert board(ladder.key, page="3").status_code == 404


def test_the_active_filter_keeps_players_with_a_recent_rated_game(ladder, people):
    ann, ben, cy, dee = people
    rate(ladder.key, ann, days_ago=10)
    rate(ladder.key, ben, days_ago=60)
    rate(ladder.key, cy, days_ago=200)
    rate(ladder.key, dee, days_ago=400)
    kept = {
        "30": {"ann"},
        "90": {"ann", "ben"},
        "365": {"ann", "ben", "cy"},
        "all": {"ann", "ben", "cy", "dee"},
    }
    for active, names in kept.items():
        assert set(names_on(board(ladder.key, active=active).content.decode())) == names
    assert set(names_on(board(ladder.key).content.decode())) == kept["90"]  # the default


def test_inactive_accounts_leave_the_leaderboard(ladder, people):
    ann, ben, _, _ = people
    rate(ladder.key, ann)
    rate(ladder.key, ben)
    ben.is_active = False
    ben.save()
    assert names_on(board(ladder.key).content.decode()) == ["ann"]


def test_an_unknown_ladder_is_a_404():
    assert board("chess").status_code == 404
    assert board("a\x00").status_code == 404


@pytest.mark.parametrize(
    ("params", "reason"),
    [
        ({"active": "7"}, "'active' must be 30, 90, 365 or all."),
        ({"active": "\x00"}, "'active' must be"),
        ({"active": "\uff19\uff10"}, "'active' must be"),
        ({"page": "0"}, "'page' must be a page number"),
        ({"page": "-1"}, "'page' must be a page number"),
        ({"page": "²"}, "'page' must be a page number"),
        ({"page": "1.5"}, "'page' must be a page number"),
        ({"page": "5" * 5000}, "'page' must be a page number"),
        ({"page": "9" * 30}, "'page' must be a page number"),
        ({"page": "x\x00"}, "'page' must be a page number"),
    ],
)
def test_bad_parameters_are_a_400_that_says_what_is_wrong(ladder, params, reason):
    for url in (reverse("players:leaderboard", args=[ladder.key]), reverse("players:ratings")):
        response = client_for().get(url, params)
        assert response.status_code == 400
        assert reason in response.content.decode().replace("&#x27;", "'")


def test_a_lone_surrogate_in_the_query_is_a_400():
    response = client_for().get(reverse("players:ratings") + "?active=%ED%A0%80")
    assert response.status_code == 400


def test_bad_parameters_are_refused_in_the_readers_language(ladder, people):
    ann = people[0]
    ann.language = "de"
    ann.save()
    response = client_for(ann).get(reverse("players:leaderboard", args=[ladder.key]), {"page": "x"})
    assert response.status_code == 400
    text = text_of(response.content.decode())
    assert "Seite" in text and not english_leaks(text)


def test_the_overview_shows_the_first_ten_of_each_ladder(ladder, django_user_model):
    users = django_user_model.objects.bulk_create(
        django_user_model(username=f"p{i:02}") for i in range(12)
    )
    for i, user in enumerate(users):
        rate(ladder.key, user, 2000 - i)
    rate("amerigo", users[11], 1700)
    rate(ladder.key, value=3000, level="hard")
    html = client_for().get(reverse("players:ratings")).content.decode()
    section = html.split(f'id="ladder-{ladder.key}"')[1].split("</section>")[0]
    assert names_on(section) == [f"p{i:02}" for i in range(10)]
    assert "3000" not in html
    amerigo = html.split('id="ladder-amerigo"')[1].split("</section>")[0]
    assert names_on(amerigo) == ["p11"]


def test_the_leaderboards_cost_a_fixed_number_of_queries(
    ladder, django_user_model, django_assert_max_num_queries
):
    def add(n: int, start: int) -> None:
        users = django_user_model.objects.bulk_create(
            django_user_model(username=f"p{i:03}") for i in range(start, start + n)
        )
        for user in users:
            rate(ladder.key, user, 1500 + user.pk)
            rate("amerigo", user, 1500 - user.pk)

    add(1, 0)
    rate(ladder.key, value=1500, level="easy")
    urls = [reverse("players:ratings"), reverse("players:leaderboard", args=[ladder.key])]
    counts = []
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            client_for().get(url)
        counts.append(len(queries))
    add(80, 1)
    for url, count in zip(urls, counts, strict=True):
        with django_assert_max_num_queries(count):
            assert client_for().get(url).status_code == 200


# The site around them -------------------------------------------------------------------------


def test_the_nav_links_the_leaderboards_right_after_the_lobby(people):
    html = client_for(people[0]).get(reverse("games:mine")).content.decode()
    lobby = html.index(f'href="{reverse("games:lobby")}"')
    players = html.index(f'href="{reverse("players:ratings")}"')
    assert lobby < players and "My games" not in html[lobby:players]


def test_the_pages_are_german_for_a_german_reader(race, people):
    ann, ben, cy, dee = people
    finished(ann, ben, cy, rated=True)
    running(ann, ben, cy)
    Follow.objects.create(follower=dee, followed=ann)
    rate("race", value=1500, level="easy")
    dee.language = "de"
    dee.save()
    client = client_for(dee)
    for url in [
        reverse("players:player", args=["ann"]),
        reverse("players:following"),
        reverse("players:ratings"),
        reverse("players:leaderboard", args=["race"]),
    ]:
        html = client.get(url).content.decode()
        assert '<html lang="de">' in html
        assert english_leaks(text_of(html)) == [], url
