"""Every game on the shelf works through the whole platform: the lobby offers it with its
own player counts, a game of it is created, moves go through ``services.submit_move``, and
its game page, board and API document render for every seat.

A new game in ``PUERTO_GAMES`` is covered here without a line more; what fails names the part
of the platform it still lacks.
"""

import random
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import services
from games.bots import LEVELS
from games.forms import NewGameForm
from games.models import Game, Move
from games.registry import get_engine, get_game, shelf

pytestmark = pytest.mark.django_db

MOVES = 12
"""Moves played in each engine's game: enough to leave the first decision behind."""


ENGINES = [game.name for game in shelf()]


@pytest.mark.parametrize("engine", ENGINES)
def test_every_game_is_declared_whole(engine):
    spec = get_game(engine)
    assert str(spec.title) and engine == spec.engine.NAME
    assert set(spec.option_texts) <= {option["name"] for option in spec.engine.OPTIONS}
    assert set(LEVELS) <= set(spec.bots)  # a test's failing bot may have joined


@pytest.mark.parametrize("engine", ENGINES)
def test_the_lobby_offers_every_engine_with_its_player_counts(client, users, engine):
    client.force_login(users[0])
    page = client.get(reverse("games:lobby"), {"game": engine}).content.decode()
    assert f'name="game" value="{engine}"' in page
    for other in ENGINES:
        assert str(get_game(other).title) in page
    counts = get_engine(engine).PLAYER_COUNTS
    form = NewGameForm(engine=engine)
    assert [n for n, _ in form.fields["num_players"].choices] == list(counts)

    answer = client.post(reverse("games:lobby"), {"game": engine, "num_players": str(min(counts))})
    game = Game.objects.get(creator=users[0])
    assert answer.status_code == 302 and answer.url == game.get_absolute_url()
    assert game.engine == engine and game.num_players == min(counts)


def test_an_unknown_game_in_the_lobby_changes_nothing(client, users):
    client.force_login(users[0])
    answer = client.post(reverse("games:lobby"), {"game": "chess", "num_players": "2"})
    assert answer.status_code == 303 and not Game.objects.exists()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_game_of_every_engine_is_played_through_the_platform(client, users, engine):
    rules = get_engine(engine)
    n = min(rules.PLAYER_COUNTS)
    game = services.create_game(users[0], engine=engine, num_players=n)
    for user in users[1:n]:
        services.join_game(game.pk, user)
    by_seat = {s.position: s.user for s in Game.objects.get(pk=game.pk).seats.all()}
    for _ in range(MOVES):
        game = Game.objects.get(pk=game.pk)
        state = game.engine_state()
        action = rules.action_to_json(rules.legal_actions(state)[0])
        services.submit_move(
            game.pk, action, user=by_seat[game.current_position], expected_version=game.version
        )
    game = Game.objects.get(pk=game.pk)
    assert game.version >= MOVES and Move.objects.filter(game=game).count() == game.version
    title = str(get_game(engine).title)
    for position, user in by_seat.items():
        client.force_login(user)
        page = client.get(game.get_absolute_url())
        assert page.status_code == 200
        html = page.content.decode()
        assert title in html and 'id="board"' in html
        status = re.search(r'<small id="game-status">(.*?)</small>', html, re.S).group(1)
        assert "· ·" not in " ".join(status.split())  # a game without options names none
        if position == game.current_position:
            assert 'name="action"' in html or 'name="kind"' in html
        assert client.get(reverse("games:board", args=[game.pk])).status_code == 200
        assert client.get(reverse("games:log", args=[game.pk])).status_code == 200
        api = APIClient()
        api.force_login(user)
        document = api.get(reverse("api:game", args=[game.pk])).json()
        assert document["engine"] == engine and document["you"] == position
        assert document["view"]["seat"] == position
        assert (document["legal_actions"] is not None) == (position == game.current_position)
    client.force_login(by_seat[0])
    mine = client.get(reverse("games:mine")).content.decode()
    assert title in mine


@pytest.mark.parametrize("engine", ENGINES)
def test_every_part_of_an_engines_outcome_has_a_label_in_its_ui(engine):
    """The final table labels each part, piece of a split part and tie-break by the UI's
    ``outcome_parts``: whatever the end of a game of each of the engine's choices holds."""
    rules, labels = get_engine(engine), get_game(engine).outcome_parts
    choices = [{}] + [
        {option["name"]: choice}
        for option in rules.OPTIONS
        if option["type"] == "choice"
        for choice in option["choices"]
    ]
    names = set()
    for seed, options in enumerate(choices):
        state = rules.new_game(max(rules.PLAYER_COUNTS), seed, options)
        draw = random.Random(seed)
        while not rules.is_over(state):
            legal = rules.legal_actions(state)
            state = rules.apply(state, legal[draw.randrange(len(legal))], inplace=True)
        for place in rules.outcome(state):
            names |= set(place.parts) | set(place.tiebreak)
            names |= {k for part in place.parts.values() if isinstance(part, dict) for k in part}
    assert names <= set(labels)
