"""A game's history read from the positions kept as it is played: the engine replays at most a
few moves for any page, and what the pages show is what a replay from the start gives."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from django.test import Client
from django.urls import reverse

import games.engines.puerto_rico as pr
import games.engines.puerto_rico.view as pr_view
from games import charts, history, services, transfer
from games.models import Game, Move
from games.registry import get_game
from tests.games.game_files import game_file, with_an_undo
from tests.games.test_chat import fresh_rate_limits  # noqa: F401 - every test counts its own


@pytest.fixture
def users(django_user_model):
    """Five people: the longest games. Without passwords (hashing one is slow): the tests log
    in with ``force_login``."""
    return [
        django_user_model.objects.create_user(name, f"{name}@example.org")
        for name in ("anna", "bob", "chris", "david", "emma")
    ]


@pytest.fixture
def applied(monkeypatch) -> list:
    """Every ``apply`` of the Puerto Rico engine, the platform's and ``reveals``'s own, counted
    (one item per call): the engine work a request costs."""
    calls = []
    original = pr.apply

    def counted(*args, **kwargs):
        calls.append(None)
        return original(*args, **kwargs)

    monkeypatch.setattr(pr, "apply", counted)
    monkeypatch.setattr(pr_view, "apply", counted)
    return calls


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def running_game(users, players: int = 5, options=None) -> Game:
    game = services.create_game(
        users[0], engine="puerto_rico", num_players=players, options=options
    )
    for user in users[1:players]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def person_to_act(game: Game, users):
    return next(u for u in users if u.pk == game.seat_to_act().user_id)


def quiet_choice(state):
    """A decision (more than one legal action) that shows nothing hidden, or None."""
    legal = pr.legal_actions(state)
    if len(legal) == 1:
        return None
    return next((a for a in legal if not pr.reveals(state, a)), None)


def play(game: Game, users, versions: int, rng: random.Random, *, undos: bool = False) -> Game:
    """Random legal decisions of whoever is to act until the game is past ``versions``. With
    ``undos``: a decision that ends a round, and now and then another, is taken back (when
    the rules allow) and the game goes on; a seat goes to an AI player and back just before a
    multiple of ``history.POSITION_EVERY``, so that the version it takes has no move."""
    while game.version < versions and game.status == Game.Status.RUNNING:
        user = person_to_act(game, users)
        state = game.engine_state()
        legal = pr.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        ends_round = pr.round_number(pr.apply(state, action)) != pr.round_number(state)
        services.submit_move(game.pk, pr.action_to_json(action), user=user)
        if undos and (ends_round or rng.random() < 0.1):
            with contextlib.suppress(services.Conflict):  # the rules may refuse it
                services.undo_move(game.pk, user)
        game = Game.objects.get(pk=game.pk)
        if undos and game.version % history.POSITION_EVERY == history.POSITION_EVERY - 1:
            seat = game.seats.exclude(position=game.current_position).first()
            services.seat_to_ai(seat.pk, "random")  # its AI turn is never queued here
            services.seat_back_to_person(seat.pk)
            game = Game.objects.get(pk=game.pk)
    return game


def replayed_states(game: Game) -> tuple[list, list[tuple]]:
    """The initial state and (version, kind, state after) of every move, replayed from the
    start: what the kept history must agree with."""
    rules = game.rules
    initial = rules.from_json(Game.objects.values_list("initial_state", flat=True).get(pk=game.pk))
    moves = history.stored_moves(game)
    steps = history.replay_steps(rules, initial, moves)
    return initial, [
        (v, kind, state) for (v, kind, _, _), (state, _) in zip(moves, steps, strict=True)
    ]


def assert_history_kept(game: Game) -> None:
    """Every kept position holds the state after its version; every undo, every change of
    round and every ``POSITION_EVERY``-th version (a move's or not) has one, so no version is
    as far as that from the last position before it."""
    initial, steps = replayed_states(game)
    after_version, before, changed, undos = {0: initial}, initial, set(), set()
    for version, kind, state in steps:
        after_version[version] = state
        if pr.round_number(state) != pr.round_number(before):
            changed.add(version)
        if kind == Move.Kind.UNDO:
            undos.add(version)
        before = state
    kept = {p.version: p for p in game.positions.all()}
    assert kept, "no position kept"
    for version, position in kept.items():
        latest = max(v for v in after_version if v <= version)
        assert position.state == pr.to_json(after_version[latest]), version
        assert position.new_round == (version in changed), version
    every = set(range(history.POSITION_EVERY, game.version + 1, history.POSITION_EVERY))
    assert undos | changed | every <= set(kept)
    for version in range(game.version + 1):
        assert version < history.POSITION_EVERY or any(
            version - history.POSITION_EVERY < v <= version for v in kept
        ), version


def expected_chart(game: Game, states: list, viewer: int | None, over: bool) -> dict | None:
    """The chart of ``states`` computed the way it was before positions were kept."""
    points = charts.round_scores(game.rules, states, viewer, everything_known=over)
    colours = [s.colour for s in game.seats.all() if s.position is not None]
    return charts.chart(points, game.names(), colours)


@pytest.mark.django_db
def test_the_board_after_my_own_move_replays_only_from_the_position_before_it(users, applied):
    """Whether "Undo" is offered after my move in a long game: the engine replays from the
    kept position before my decision, then my decision and the forced moves after it
    (``reveals`` and ``apply`` each), not the game."""
    game = play(running_game(users), users, 210, random.Random(3))
    while (action := quiet_choice(game.engine_state())) is None:
        game = play(game, users, game.version + 1, random.Random(game.version))
    me, seen = person_to_act(game, users), game.version
    services.submit_move(game.pk, pr.action_to_json(action), user=me)
    moves_made = Game.objects.get(pk=game.pk).version - seen  # mine and the forced ones after it
    bound = history.POSITION_EVERY - 1 + 2 * moves_made
    applied.clear()
    board = client_for(me).get(reverse("games:board", args=[game.pk])).content.decode()
    assert "Undo my last move" in board
    assert len(applied) <= bound < seen // 4
    applied.clear()
    services.undo_move(game.pk, me)
    assert len(applied) <= bound
    assert_history_kept(Game.objects.get(pk=game.pk))


@pytest.mark.django_db
def test_a_finished_games_page_draws_its_chart_without_the_engine(
    users, applied, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the AI's turns, eagerly
        game = services.create_game(
            users[0], engine="puerto_rico", num_players=5, ai_seats=5, ai_level="random", join=False
        )
    game = Game.objects.with_seats().get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.version >= 200
    applied.clear()
    page = client_for().get(game.get_absolute_url())
    assert applied == []
    initial, steps = replayed_states(game)
    states = [initial, *(state for _, _, state in steps)]
    assert page.context["chart"] == expected_chart(game, states, None, over=True)
    assert page.content.decode().count("<polyline") == 5
    assert_history_kept(game)
    applied.clear()
    last = client_for().get(reverse("games:replay", args=[game.pk])).context
    assert last["step"] == game.moves.count() and last["chart"] == page.context["chart"]
    assert len(applied) < history.POSITION_EVERY


@pytest.mark.django_db
def test_undos_and_seat_changes_keep_a_history_that_replays_to_every_step(users, applied):
    """A running game with hidden VP chips, its decisions taken back (those that end a round
    too) and its seats changing hands: each kept position is the replay's, and each replay
    step shows the replay's board, lines and chart of what the viewer may know then."""
    game = play(
        running_game(users, options={"hidden_vp": True}), users, 90, random.Random(5), undos=True
    )
    undone = game.moves.filter(kind=Move.Kind.UNDO)
    back_a_round = game.positions.filter(new_round=True, version__in=undone.values("version"))
    assert back_a_round.exists()  # an undo took back the end of a round
    moved = set(game.moves.values_list("version", flat=True))
    assert any(v % history.POSITION_EVERY == 0 and v not in moved for v in range(game.version))
    assert_history_kept(game)
    initial, steps = replayed_states(game)
    states = [initial, *(state for _, _, state in steps)]
    moves = list(game.moves.order_by("version"))
    viewer, names = game.seats.get(user=users[1]).position, game.names()
    url = reverse("games:replay", args=[game.pk])
    client = client_for(users[1])
    for step in sorted({0, 1, len(moves)} | {moves.index(m) + 1 for m in undone}):
        applied.clear()
        page = client.get(url, {"step": step}).context
        assert len(applied) < history.POSITION_EVERY
        board = get_game("puerto_rico").seat_board_context(
            states[step], viewer, names, may_act=False
        )
        assert page["pr"] == board["pr"]
        assert page["chart"] == expected_chart(game, states[: step + 1], viewer, over=False)
        events = moves[step - 1].log if step else []
        assert page["lines"] == history.told(game, events, names)


@pytest.mark.django_db
def test_an_imported_game_keeps_the_history_its_replay_gives(users, applied):
    game, _ = transfer.import_game(with_an_undo(game_file(seed=5), 4), users[0])
    game = Game.objects.with_seats().get(pk=game.pk)
    assert_history_kept(game)
    initial, steps = replayed_states(game)
    states = [initial, *(state for _, _, state in steps)]
    points = charts.round_scores(pr, states, None, everything_known=True)
    assert game.round_scores == json.loads(json.dumps(points))
    applied.clear()
    assert client_for().get(game.get_absolute_url()).context["chart"] == expected_chart(
        game, states, None, over=True
    )
    assert applied == []
