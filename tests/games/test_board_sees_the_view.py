"""A game's board is drawn from what its viewer may see: the platform hands the UI the seat's
``player_view`` (and, to the seat to act, its legal actions), never the state. A marker planted
in each hidden part of a state reaches neither the data a UI is handed nor any page of a seat
or a spectator, in either game, while the moderator's page shows it. The rules a board asks
about the open table (``masked_state``) answer as the whole state does, and the draft's choices
on the board are the engine's."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from games import services
from games.engines import puerto_rico as pr
from games.engines.amerigo.view import masked_state as amerigo_masked_state
from games.engines.puerto_rico import draft
from games.engines.puerto_rico.view import masked_state as puerto_rico_masked_state
from games.models import Game
from games.registry import get_engine, get_game
from moderation.groups import MODERATOR_GROUP, create_moderator_group
from tests.games.test_board_ui import offered, section

NAMES = ["Anna", "Bob", "Chris"]
SEED = 918273645546372
"""Planted as the secret seed of either game."""
VP = 719301
"""Puerto Rico: Bob's VP chips, face down (``hidden_vp``)."""
AMERIGO = {
    "tower": 8317245,
    "progress": "marker_planted_in_the_stack",
    "good": "good_planted_in_the_stack",
    "cost": 9929391,
    "pirate": 6161727,
    "sixth_pirate": 6262838,
}
"""Amerigo: inside the tower, the face-down stacks and pirates, the sixth pirate."""


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def plant(engine: str, state):
    """``state`` with a marker in every hidden part."""
    if engine == "puerto_rico":
        state.players[1].vp = VP
    else:
        state.tower[0] = AMERIGO["tower"]
        state.progress_stack[0] = AMERIGO["progress"]
        state.goods_stacks[0][0] = [AMERIGO["good"], AMERIGO["cost"]]
        state.pirates_down[0] = AMERIGO["pirate"]
        state.pirates_unseen = AMERIGO["sixth_pirate"]
    state.rng = SEED
    return state


def planted(engine: str):
    """A three-player game's first state (VP chips face down) with the markers planted."""
    return plant(engine, get_engine(engine).new_game(3, 4))


def markers(engine: str, seat: int | None) -> list[str]:
    """The markers ``seat`` may not know: Bob knows his own VP."""
    if engine == "puerto_rico":
        return [str(SEED)] + ([] if seat == 1 else [str(VP)])
    return [str(SEED), *map(str, AMERIGO.values())]


def board(engine: str, state, seat: int | None, names: list[str] = NAMES) -> dict:
    """The board context of ``seat`` (None: a spectator), as the platform asks for it."""
    return get_game(engine).seat_board_context(state, seat, names)


def drawn(engine: str, context: dict) -> str:
    context = {**context, "move_url": "/m", "version": 1, "game": None, "seat": None}
    return render_to_string(get_game(engine).template, context, request=RequestFactory().get("/"))


ENGINES = ["puerto_rico", "amerigo"]
SEATS = [0, 1, 2, None]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_ui_is_handed_the_seats_view_and_its_own_legal_actions_never_the_state(engine):
    state = planted(engine)
    rules = get_engine(engine)
    handed = []
    spec = get_game(engine)
    spy = dataclasses.replace(
        spec, board_context=lambda *args: handed.append(args) or spec.board_context(*args)
    )
    for seat in SEATS:
        for may_act in (True, False):
            spy.seat_board_context(state, seat, NAMES, may_act=may_act)
            view, names, legal, posted = handed.pop()
            assert view == rules.player_view(state, seat) and names == NAMES and posted is None
            acts = may_act and seat == rules.current_player(state)
            assert legal == (rules.legal_actions(state) if acts else None)
            data = json.dumps([view, [rules.action_to_json(a) for a in legal or ()]])
            assert not [marker for marker in markers(engine, seat) if marker in data]


@pytest.mark.parametrize("engine", ENGINES)
def test_no_hidden_marker_reaches_the_board_of_a_seat_or_a_spectator(engine):
    state = planted(engine)
    for seat in SEATS:
        html = drawn(engine, board(engine, state, seat))
        assert not [marker for marker in markers(engine, seat) if marker in html]
    if engine == "puerto_rico":
        # The markers are drawn where they may be: Bob sees his own VP.
        assert str(VP) in drawn(engine, board(engine, state, 1))


def test_the_moderators_board_shows_every_seats_vp_chips():
    state = planted("puerto_rico")
    html = drawn("puerto_rico", get_game("puerto_rico").moderator_board_context(state, NAMES))
    assert str(VP) in html and "<form" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ENGINES)
def test_the_pages_of_players_and_spectators_hide_the_markers_the_moderators_shows(
    engine, django_user_model
):
    users = [django_user_model.objects.create_user(n, password="pw") for n in NAMES]
    game = services.create_game(users[0], num_players=3, engine=engine)
    for user in users[1:]:
        services.join_game(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    rules = get_engine(engine)
    game.initial_state = game.state = rules.to_json(plant(engine, game.engine_state()))
    game.save()

    pages = [reverse("games:game", args=[game.pk]), reverse("games:board", args=[game.pk])]
    pages.append(reverse("games:replay", args=[game.pk]))
    for user in users:
        client = Client()
        client.force_login(user)
        seat = game.seat_of(user).position
        for page in pages:
            html = client.get(page).content.decode()
            assert not [marker for marker in markers(engine, seat) if marker in html], page
    spectator = Client().get(pages[0]).content.decode()
    assert NAMES[0] in spectator
    assert not [marker for marker in markers(engine, None) if marker in spectator]

    create_moderator_group(apps)
    moderator = django_user_model.objects.create_user("mod", password="pw", is_staff=True)
    moderator.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    client = Client()
    client.force_login(moderator)
    html = client.get(reverse("admin:games_game_board", args=[game.pk])).content.decode()
    assert all(marker in html for marker in markers(engine, None))


# The rules asked about the open table -----------------------------------------------------

GAMES = [
    ("puerto_rico", 2, {"edition": "both"}),
    ("puerto_rico", 3, {"edition": "nobles"}),
    ("puerto_rico", 4, {"edition": "new_buildings"}),
    ("puerto_rico", 5, {}),
    ("amerigo", 2, {}),
    ("amerigo", 4, {}),
]
MASKED = {"puerto_rico": puerto_rico_masked_state, "amerigo": amerigo_masked_state}


@pytest.mark.parametrize("engine", ENGINES)
def test_the_masked_state_masks_what_is_hidden_and_guesses_nothing(engine):
    state = planted(engine)
    rules = get_engine(engine)
    for seat in SEATS:
        masked = MASKED[engine](rules.player_view(state, seat))
        assert masked.rng is None
        if engine == "puerto_rico":
            assert masked.stack == [None] * len(state.stack)
            known = [p.vp if i == seat else None for i, p in enumerate(state.players)]
            assert [p.vp for p in masked.players] == known
            assert masked.face_up == state.face_up and masked.buildings == state.buildings
        else:
            assert masked.tower == [None] * len(state.tower)
            assert masked.progress_stack == [None] * len(state.progress_stack)
            assert masked.goods_stacks == [[None] * len(s) for s in state.goods_stacks]
            assert masked.pirates_down == [None] * len(state.pirates_down)
            assert masked.pirates_unseen is None
            assert masked.pirates_up == state.pirates_up and masked.field == state.field


def random_states(engine: str, players: int, options: dict, seed: int):
    """The states of one game of random legal moves."""
    rules = get_engine(engine)
    rng = random.Random(seed)
    state = rules.new_game(players, seed, options)
    while not rules.is_over(state):
        yield state
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    yield state


def same_actions(one, other) -> bool:
    """Puerto Rico's mayor lists its placements on demand: their number and ends are compared."""
    if len(one) != len(other):
        return False
    if type(one) is list:
        return one == other
    return not one or (one[0] == other[0] and one[-1] == other[-1])


@pytest.mark.parametrize(("engine", "players", "options"), GAMES)
def test_the_seat_to_act_has_the_same_legal_actions_in_its_masked_state(engine, players, options):
    """The masked state keeps all the rules need: the seat to act, knowing what it knows, has
    the legal actions of the whole state, so the board may describe the decision from it."""
    rules = get_engine(engine)
    for state in random_states(engine, players, options, seed=players):
        seat = rules.current_player(state)
        masked = MASKED[engine](rules.player_view(state, seat))
        assert same_actions(rules.legal_actions(masked), rules.legal_actions(state))
        assert rules.round_number(masked) == rules.round_number(state)
        if rules.is_over(state):
            assert rules.outcome(masked) == rules.outcome(state)


@pytest.mark.parametrize(
    ("players", "options"), [(a, b) for e, a, b in GAMES if e == "puerto_rico"]
)
def test_a_spectator_reads_the_decision_the_seat_to_act_reads(players, options):
    names = ["Anna", "Bob", "Chris", "David", "Emil"][:players]
    for k, state in enumerate(random_states("puerto_rico", players, options, seed=players)):
        if k % 7 or pr.is_over(state):
            continue
        seat = state.current
        mine = board("puerto_rico", state, seat, names)["pr"]["decision"]
        seen = board("puerto_rico", state, None, names)["pr"]["decision"]
        assert mine.startswith("Your turn: ")
        assert seen == mine.replace("Your turn: ", f"{names[seat]} is deciding: ")


# The draft --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_draft_on_the_board_offers_what_the_engine_does(players):
    """At every pick of a random draft the seat to act is offered exactly the legal picks,
    the candidates listed are those on offer (a refusal beside each the seat may not pick),
    and the board draws the free spaces; no one else is offered a pick."""
    names = ["Anna", "Bob", "Chris", "David", "Emil"][:players]
    state = pr.new_game(players, players, {"edition": "new_buildings"})
    rng = random.Random(players)
    while state.phase == "draft":
        legal = pr.legal_actions(state)
        html = drawn("puerto_rico", board("puerto_rico", state, state.current, names))
        assert Counter(offered(html)) == Counter(legal)
        candidates = re.findall(r'<li class="pr-candidate.*?</li>', html, re.S)
        assert len(candidates) == len(draft.on_offer(state))
        refused = [c for c in candidates if "pr-candidate-refusal" in c]
        assert len(refused) == len(draft.on_offer(state)) - len(legal)
        assert html.count('class="pr-building is-space"') == sum(draft.free_spaces(state).values())
        other = (state.current + 1) % players
        waiting = drawn("puerto_rico", board("puerto_rico", state, other, names))
        assert offered(section(waiting, "pr-draft pr-choices")) == []
        # The church first, so the last space of cost 5 waits for the Office or Trading post.
        state = pr.apply(state, rng.choice(legal) if state.drafted else pr.Draft("church"))
