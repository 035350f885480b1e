"""A bot account against a person in a rated game, in Chromium: anna opens a rated 2-player
game of Puerto Rico that takes bots in the lobby, a bot (the example bot's client of
``docs/bot.py``, in a thread, with its token only) joins it through the API and plays its
turns from its event stream while anna plays hers by clicks, to the end. The bot wins; it
reads its new rating through the API, the board shows its badge beside its name, anna's page
the game, her rating and her rank (first: the bot is ranked apart), and the leaderboard lists
anna among the persons and the bot on the bots' table.

The game starts from a position a few decisions before its end (the 12th city space is
built this round, three role choices are left), written into the running game as
``test_rated_game.py`` does."""

import random
import threading
import urllib.error
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Page, expect

from accounts import tokens
from accounts.services import become_bot
from games import services
from games.models import Game, Move
from games.registry import get_engine
from players.models import Rating, RatingChange
from tests.browser.test_play import (  # noqa: F401 - fixtures
    anna,
    board_version,
    make_user,
    open_page,
    take_turn,
)
from tests.browser.test_two_players import ROLES
from tests.engines.positions import choose, play, player, position
from tests.engines.test_edge_cases import ELEVEN_SMALL
from tests.events.test_example_bot import load_bot, requests_served

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pr = get_engine("puerto_rico")
LADDER = "puerto_rico_2p"
PERSON, BOT = 0, 1
"""The engine seats of anna and of the bot."""
GUARD = 60
"""Seconds after which a bot or a page that is still waiting fails the test."""
SHOT = "/tmp/bot-vs-person.png"


def three_roles_left() -> pr.State:
    """The person (seat 0, governor) built the 12th city space this round, so the game ends
    with it; the bot (seat 1) is to choose the fourth of the round's six roles: it chooses,
    then the person, then the bot again, and both decide in the phases those roles start.
    The bot's 30 VP chips win whatever they choose: the person's buildings are worth 20, and
    three roles earn a few points."""
    players = [
        player(
            doubloons=4,
            city=ELEVEN_SMALL,
            island={"corn": (2, 1), "indigo": (1, 1)},
            goods={"corn": 1},
        ),
        player(
            doubloons=3,
            vp=30,
            island={"corn": (1, 1), "sugar": (1, 1)},
            city={"small_sugar_mill": 1},
            goods={"sugar": 1},
        ),
    ]
    state = play(choose(position(players, seat=PERSON), "builder"), pr.Build("office"))
    state = play(state, pr.Pass())  # the bot builds nothing
    state = choose(state, "prospector")
    state = play(choose(state, "settler"), pr.Pass(), pr.Pass())
    assert state.end_reasons and state.phase == "role" and state.current == BOT
    assert state.roles_chosen == 3
    return state


def seed_seating(*order: str) -> int:
    """A seed whose seating (``services.seating`` of the seats in the order they were taken)
    puts the players in ``order`` (anna took the first seat, the bot the second)."""
    for seed in range(1, 100):
        if services.seating(seed, ["anna", "robo"]) == list(order):
            return seed
    raise AssertionError("no seed seats them so")


@dataclass
class Bot:
    """What the bot's thread and the test tell each other: ``joined`` once the bot's join
    was answered, ``ready`` once the test has set the position; ``out``: the join's answer
    (``joined``), the finished game (``end``), the moves it made (``moves``) or ``error``."""

    joined: threading.Event = field(default_factory=threading.Event)
    ready: threading.Event = field(default_factory=threading.Event)
    out: dict = field(default_factory=dict)


def bot_plays(site: str, token: str, game_id: int, bot: Bot) -> None:
    """The bot: join the game through the API, wait until the position is set, then play
    each ``turn`` of its event stream with a random legal action until ``finished``."""
    client, out = load_bot(), bot.out
    puerto, rng, moves = client.Puerto(site, token), random.Random(5), 0
    try:
        try:
            out["joined"] = puerto.call("POST", f"/api/games/{game_id}/join/", {})
        finally:
            bot.joined.set()
        if not bot.ready.wait(GUARD):
            return
        for kind, game in puerto.events():
            if game.get("id") != game_id:
                continue
            if kind == "turn":
                move = {"action": client.choose(game, rng), "version": game["version"]}
                try:
                    puerto.call("POST", f"/api/games/{game_id}/moves/", move)
                    moves += 1
                except urllib.error.HTTPError as refusal:
                    if refusal.code != 409:
                        raise
            elif kind in ("finished", "cancelled"):
                out["end"], out["moves"] = game, moves
                out["me"] = puerto.call("GET", "/api/players/robo/")  # its new rating
                return
    except urllib.error.HTTPError as refusal:  # the answer's body says why
        out["error"] = f"{refusal}: {refusal.read().decode()[:300]}"
    except Exception as error:  # the test's thread reports it
        out["error"] = repr(error)


def play_until_the_end(page: Page) -> list[tuple[str, str]]:
    """anna's decisions, made on the page whenever it asks for one, until the final score."""
    made = []
    asks = page.locator("#pr-choices-title, #outcome-title")
    for _ in range(30):
        # The bot's moves reach the page through its one-second poll.
        expect(asks).to_be_visible(timeout=GUARD * 1000)
        if page.locator("#outcome-title").count():
            return made
        made.append(take_turn(page, ROLES))
    raise AssertionError(f"the game did not end: {made}")


def test_a_bot_plays_a_rated_game_through_the_api_against_a_person_in_the_browser(
    open_page,  # noqa: F811
    anna,  # noqa: F811
    django_user_model,
    live_server,
    settings,
):
    settings.EVENTS_POLL_SECONDS = 0.05
    settings.EVENTS_KEEPALIVE_SECONDS = 0.1  # the server soon sees that the bot has left
    robo = make_user(django_user_model, "robo")
    become_bot(robo)
    _, token = tokens.create(robo, "bot", ["play", "create"])
    state = three_roles_left()

    page = open_page(anna, viewport={"width": 1280, "height": 900})
    page.goto("/games/")
    page.locator("#id_num_players").select_option("2")
    page.get_by_label("Rated game").check()
    page.get_by_label("Bot accounts may join").check()
    page.get_by_role("button", name="Open the game").click()
    expect(page.locator("#game-status")).to_be_visible()
    game = Game.objects.get()
    assert game.rated and game.bots_allowed and game.status == Game.Status.OPEN
    Game.objects.filter(pk=game.pk).update(seed=seed_seating("anna", "robo"))

    bot = Bot()
    out = bot.out
    with requests_served() as served:
        thread = threading.Thread(
            target=bot_plays, args=(live_server.url, token, game.pk, bot), daemon=True
        )
        thread.start()
        assert bot.joined.wait(GUARD) and "error" not in out, out
        # The waiting room polls its seats: it turns into the board once the bot has joined.
        expect(page.locator("#board")).to_be_visible(timeout=GUARD * 1000)
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING and game.version == 0
        assert game.seats.get(position=BOT).user == robo
        Game.objects.filter(pk=game.pk).update(
            state=pr.to_json(state), current_position=state.current
        )
        bot.ready.set()
        page.goto(game.get_absolute_url())  # the position was written behind the page's back
        made = play_until_the_end(page)
        thread.join(timeout=GUARD)
        assert not thread.is_alive(), "the bot did not finish its game"
        served.wait_for_all()  # its stream too: the server saw the bot leave
    assert "error" not in out, out
    assert out["joined"]["id"] == game.pk

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert out["end"]["id"] == game.pk
    # The bot's chips won it, as the finished event told the bot.
    placements = {row["seat"]: row["placement"] for row in out["end"]["result"]}
    assert placements == {BOT: 1, PERSON: 2}
    assert board_version(page) == game.version
    # Both decided: the bot at least its two role choices, anna at least her one.
    bot_seat, person_seat = game.seats.get(user=robo), game.seats.get(user=anna)
    assert Move.objects.filter(game=game, seat=bot_seat, actor=robo).count() == out["moves"] >= 2
    assert Move.objects.filter(game=game, seat=person_seat, actor=anna).count() == len(made) >= 1
    assert [kind for kind, _ in made].count("role") == 1

    # The bot's badge beside its name on the board, and not beside anna's.
    expect(page.locator(f"#pr-player-{BOT}-name")).to_contain_text("robo")
    expect(page.locator(f"#pr-player-{BOT}-name .bot-badge")).to_be_visible()
    expect(page.locator(f"#pr-player-{PERSON}-name")).to_contain_text("anna")
    expect(page.locator(f"#pr-player-{PERSON}-name .bot-badge")).to_have_count(0)

    # Rated on the 2-player ladder: the bot by its account, ranked apart from persons.
    assert RatingChange.objects.filter(game=game).count() == 2
    person_rating = Rating.objects.get(user=anna, ladder=LADDER)
    bot_rating = Rating.objects.get(user=robo, ladder=LADDER)
    assert (person_rating.games, person_rating.wins) == (1, 0)
    assert (bot_rating.games, bot_rating.wins) == (1, 1)
    assert bot_rating.value > person_rating.value
    assert not Rating.objects.exclude(ladder=LADDER).exists()
    ratings = page.locator(".outcome tbody tr").filter(has_text="robo").locator(".outcome-rating")
    expect(ratings).to_contain_text(str(bot_rating.value))
    # The bot reads its rating through the API: first of the bots, the only one.
    (mine,) = out["me"]["ratings"]
    assert (mine["ladder"], mine["value"], mine["games"], mine["wins"]) == (
        LADDER,
        bot_rating.value,
        1,
        1,
    )
    assert mine["rank"] == 1

    tab = open_page(anna, context=page.context)
    tab.goto(f"/players/{anna.username}/")
    card = tab.locator(f"section.rating:has(#rating-{LADDER})")
    expect(card.locator(".rating-value")).to_have_text(str(person_rating.value))
    # First among the persons, as on the leaderboard: the bot that beat her is ranked apart.
    expect(card.locator("dd a")).to_have_text("1")
    expect(tab.locator(f'main a[href="{game.get_absolute_url()}"]').first).to_be_visible()

    tab.goto(f"/players/ratings/{LADDER}/")
    persons = tab.locator("section").filter(has=tab.locator("#persons-title"))
    expect(persons.locator("tbody tr")).to_have_count(1)
    expect(persons.locator("tbody tr")).to_contain_text("anna")
    expect(persons).not_to_contain_text("robo")
    bots = tab.locator("section").filter(has=tab.locator("#bots-title"))
    row = bots.locator("tbody tr").filter(has_text="robo")
    expect(row).to_have_count(1)
    expect(row.locator(".bot-badge")).to_be_visible()
    expect(row.locator("td.num").first).to_contain_text(str(bot_rating.value))

    page.bring_to_front()
    page.screenshot(path=SHOT, full_page=True)
