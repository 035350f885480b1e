"""Players, games and moves for the reliability tests: real logins, the real move form and API."""

import json
import uuid

from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Seat
from games.registry import get_engine
from tests.replayed import replayed

PASSWORD = "correct-horse-battery-9"


def player(django_user_model, name: str):
    """A player with a verified address, who can log in on the site."""
    user = django_user_model.objects.create_user(name, f"{name}@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def log_in(client: Client, name: str, password: str = PASSWORD):
    return client.post(reverse("account_login"), {"login": name, "password": password})


def signed_in(name: str) -> Client:
    """A browser that logged in through the login form."""
    client = Client()
    response = log_in(client, name)
    assert response.status_code == 302, response.content.decode()[:500]
    return client


def game_against_ai(user, ai_seats: int = 2, level: str = Seat.AI.MEDIUM) -> Game:
    """A running game of ``user`` and AI players, waiting for ``user``: the AI turns before
    theirs are played here, without Celery."""
    game = services.create_game(
        user, engine="puerto_rico", num_players=ai_seats + 1, ai_seats=ai_seats, ai_level=level
    )
    return play_ai_until_a_person_acts(game.pk)


def play_ai_until_a_person_acts(game_id: int) -> Game:
    game = Game.objects.get(pk=game_id)
    while game.status == Game.Status.RUNNING and game.seat_to_act().is_ai:
        services.play_ai_turn(game.pk, game.version)
        game = Game.objects.get(pk=game_id)
    return game


def a_move_handing_to_ai(game: Game) -> dict:
    """A legal move of the person to act after which an AI seat is to act (so the move queues
    an AI turn after commit); any legal move if there is none such."""
    rules = get_engine(game.engine)
    state = rules.from_json(game.state)
    ai_positions = {s.position for s in game.seats.all() if s.is_ai}
    legal = rules.legal_actions(state)
    for action in legal:
        if rules.current_player(rules.apply(state, action)) in ai_positions:
            return rules.action_to_json(action)
    return rules.action_to_json(legal[0])


def move_by_form(client: Client, game: Game, action: dict, key: str = ""):
    data = {"version": game.version, "action": json.dumps(action), "key": key or uuid.uuid4().hex}
    return client.post(reverse("games:move", args=[game.pk]), data)


def move_by_api(client: Client, game: Game, action: dict, key: str = ""):
    body = {"version": game.version, "action": action, "key": key or uuid.uuid4().hex}
    return client.post(
        reverse("api:moves", args=[game.pk]), json.dumps(body), content_type="application/json"
    )


def replay_matches(game: Game) -> bool:
    """Every stored move once, in order, and the state they rebuild is the stored state."""
    game.refresh_from_db()
    versions = list(game.moves.order_by("version").values_list("version", flat=True))
    rebuilt = get_engine(game.engine).to_json(replayed(game))
    return versions == list(range(1, game.version + 1)) and rebuilt == game.state
