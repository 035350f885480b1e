"""Replaying a game step by step, its score chart, and a finished game exported as a file and
imported again: what each viewer may see, and files that do not replay."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import history, rates, services, transfer
from games.models import Game
from games.registry import get_engine
from games.ui import describe_event
from tests.games.game_files import game_file, with_an_undo
from tests.games.test_chat import fresh_rate_limits  # noqa: F401 - every test counts its own
from tests.replayed import replayed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

pr = get_engine("puerto_rico")
SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "export.schema.json"


@pytest.fixture
def users(django_user_model):
    """People without passwords (hashing one is slow): the tests log in with ``force_login``."""
    return [
        django_user_model.objects.create_user(name, f"{name}@example.org")
        for name in ("anna", "bob", "chris")
    ]


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def states(game: Game) -> list[dict]:
    """The state after each stored move, undos included."""
    initial = pr.from_json(game.initial_state)
    steps = history.replay_steps(pr, initial, history.stored_moves(game))
    return [pr.to_json(initial)] + [pr.to_json(state) for state, _ in steps]


@pytest.fixture
def imported(users) -> Game:
    """A finished two-player game (hidden VP chips), made from an engine-written file."""
    game, _ = transfer.import_game(game_file(seed=5), users[2])
    return game


def test_export_and_import_give_the_same_game_step_by_step(
    users, django_capture_on_commit_callbacks
):
    """A whole game of two random AI players through the site; the file downloaded from the
    finished game imports to the same states at every step, and exports to the same file."""
    with django_capture_on_commit_callbacks(execute=True):  # the AI's turns, eagerly
        game = services.create_game(
            users[0], engine="puerto_rico", num_players=2, ai_seats=2, ai_level="random", join=False
        )
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    download = client_for().get(reverse("games:export", args=[game.pk]))
    assert download["Content-Disposition"] == f'attachment; filename="puerto-game-{game.pk}.json"'
    exported = json.loads(download.content)
    assert exported["chat"] is None  # the chat of this game is for its players
    assert exported["seed"] == game.seed
    answer = client_for(users[1]).post(
        reverse("api:import"), exported, content_type="application/json"
    )
    assert answer.status_code == 201, answer.content
    copy_ = Game.objects.get(pk=answer.json()["id"])
    assert copy_.imported and copy_.status == Game.Status.FINISHED
    assert copy_.state == game.state and transfer.result(copy_) == transfer.result(game)
    assert states(copy_) == states(game)
    assert copy_.names() == game.names()
    again = client_for().get(reverse("api:export", args=[copy_.pk])).json()
    assert again["moves"] == exported["moves"] and again["players"] == exported["players"]


def test_undos_travel_in_the_file_and_replay(users):
    data = with_an_undo(game_file(seed=5), 4)
    game, _ = transfer.import_game(data, users[0])
    assert game.state == pr.to_json(replayed(game))
    steps = states(game)
    assert steps[6] == steps[4] and steps[7] == steps[5]  # taken back, then played again
    assert (
        transfer.export_game(Game.objects.with_seats().get(pk=game.pk), None)["moves"]
        == data["moves"]
    )
    for taken in ([3], 5, "5", [], None):  # not the latest move, or no list of versions
        wrong = copy.deepcopy(data)
        wrong["moves"][5]["action"] = {"undo": taken}
        with pytest.raises(transfer.ImportRefused, match="move 6 does not replay"):
            transfer.import_game(wrong, users[0])
    huge = copy.deepcopy(data)
    huge["moves"][-1]["version"] = 2**31
    with pytest.raises(transfer.ImportRefused, match=f"move {len(huge['moves'])} is malformed"):
        transfer.import_game(huge, users[0])


@pytest.mark.parametrize("edition", ["base", "new_buildings", "nobles", "both"])
def test_a_game_of_every_edition_goes_out_and_comes_back_the_same(users, edition):
    data = game_file(seed=3, options={"edition": edition})
    game, _ = transfer.import_game(data, users[0])
    assert game.options["edition"] == edition
    assert game.state == pr.to_json(replayed(game))
    again = transfer.export_game(Game.objects.with_seats().get(pk=game.pk), None)
    assert again["moves"] == data["moves"] and again["options"]["edition"] == edition


def test_an_amerigo_game_goes_out_and_comes_back_the_same(users):
    data = game_file(seed=2, engine="amerigo")
    game, _ = transfer.import_game(data, users[0])
    assert game.engine == "amerigo"
    assert game.state == get_engine("amerigo").to_json(replayed(game))
    assert (
        transfer.export_game(Game.objects.with_seats().get(pk=game.pk), None)["moves"]
        == data["moves"]
    )


@pytest.mark.parametrize("text", ["a\x00b", "\ud800"], ids=["nul", "surrogate"])
def test_an_amerigo_file_with_bad_text_in_an_action_is_refused_at_that_move(users, text):
    """A NUL character or a lone surrogate in a field the action does not have: the move does
    not replay (the engine refuses it as ``bad_text``), so nothing is stored."""
    broken = game_file(seed=2, engine="amerigo")
    broken["moves"][4]["action"]["note"] = text
    answer = client_for(users[0]).post(
        reverse("api:import"), json.dumps(broken), content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["move"] == broken["moves"][4]["version"]
    assert "NUL characters or lone surrogates" in answer.json()["error"]
    assert not Game.objects.exists()


def test_my_games_offers_the_replay_of_a_finished_game(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=2)
    services.join_game(game.pk, users[1])
    url = reverse("games:replay", args=[game.pk])
    assert url not in client_for(users[0]).get(reverse("games:mine")).content.decode()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert url in client_for(users[0]).get(reverse("games:mine")).content.decode()


def test_a_file_that_does_not_replay_is_refused_with_the_move_that_failed(users):
    data = game_file(seed=5)
    broken = copy.deepcopy(data)
    broken["moves"][9]["action"] = {"type": "choose_role", "role": "no such role"}
    answer = client_for(users[0]).post(
        reverse("api:import"), broken, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["move"] == 10 and "move 10 does not replay" in answer.json()["error"]
    other = copy.deepcopy(data)
    other["moves"][3]["events"] = []  # the events a reader saw must be the replay's
    with pytest.raises(transfer.ImportRefused, match="move 4 does not replay") as refused:
        transfer.import_game(other, users[0])
    assert refused.value.version == 4
    with pytest.raises(transfer.ImportRefused, match="a game puerto does not know"):
        transfer.import_game({**data, "engine": "chess"}, users[0])
    short = copy.deepcopy(data)
    del short["moves"][-1]
    with pytest.raises(transfer.ImportRefused, match="do not finish the game"):
        transfer.import_game(short, users[0])
    assert not Game.objects.exists()


def test_the_import_form_says_why_in_german(users):
    users[0].language = "de"
    users[0].save()
    broken = game_file(seed=5)
    broken["moves"][0]["seat"] = 1 - broken["moves"][0]["seat"]
    upload = SimpleUploadedFile("game.json", json.dumps(broken).encode(), "application/json")
    page = client_for(users[0]).post(reverse("games:import"), {"file": upload})
    assert page.status_code == 400
    assert "Zug 1 lässt sich nicht nachspielen" in page.content.decode()
    not_json = SimpleUploadedFile("game.json", b"\xff{", "application/json")
    page = client_for(users[0]).post(reverse("games:import"), {"file": not_json})
    assert page.status_code == 400 and "Die Datei ist kein JSON." in page.content.decode()
    assert not Game.objects.exists()


def test_the_import_form_makes_a_game_to_replay(users):
    upload = SimpleUploadedFile("game.json", json.dumps(game_file(seed=6)).encode())
    answer = client_for(users[0]).post(reverse("games:import"), {"file": upload})
    game = Game.objects.get()
    assert answer.status_code == 303 and answer.url == reverse("games:replay", args=[game.pk])
    assert game.creator == users[0] and game.names() == ["anna", "bob"]
    mine = client_for(users[0]).get(reverse("games:mine")).content.decode()
    assert f'href="{game.get_absolute_url()}"' in mine  # the importer finds it in My games
    theirs = client_for(users[1]).get(reverse("games:mine")).content.decode()
    assert game.get_absolute_url() not in theirs


def test_stepping_through_a_finished_game_shows_each_steps_board_and_lines(imported):
    url = reverse("games:replay", args=[imported.pk])
    moves = list(imported.moves.order_by("version"))
    last = len(moves)
    for step in (0, 7, last):
        response = client_for().get(url, {"step": step})
        html = response.content.decode()
        assert f"Move {step} of {last}" in html
        board = response.context["pr"]
        expected = replayed(imported, until=step) if step else None
        if expected is not None:
            assert board["round"] == pr.round_number(expected) and board["phase"] == expected.phase
            assert isinstance(board["table"]["stack"], int)  # the face-down stack: only its size
        assert board["choices"] is None
        assert reverse("games:move", args=[imported.pk]) not in html
        events = moves[step - 1].log if step else []
        with translation.override("en"):  # the page's language, whatever ran before
            for event in events:
                assert describe_event("puerto_rico", event, imported.names()) in html
    assert client_for().get(url, {"step": "x"}).context["step"] == last
    assert client_for().get(url, {"step": 10**6}).context["step"] == last


def test_a_running_game_is_replayed_only_by_its_players_from_their_own_seat(users):
    game = services.create_game(
        users[0], engine="puerto_rico", num_players=2, options={"hidden_vp": True}
    )
    services.join_game(game.pk, users[1])
    game = Game.objects.get(pk=game.pk)
    url = reverse("games:replay", args=[game.pk])
    assert client_for(users[2]).get(url).status_code == 403
    assert client_for().get(url).status_code == 403
    seat = game.seats.get(user=users[1])
    response = client_for(users[1]).get(url, {"step": 0})
    assert response.status_code == 200 and response.context["pr"]["viewer"] == seat.position
    lines = response.context["chart"]["lines"]
    assert [line["hidden"] for line in lines] == [i != seat.position for i in range(2)]


def test_the_chart_of_a_finished_game_runs_from_nothing_to_the_final_scores(imported):
    page = client_for().get(imported.get_absolute_url())
    chart = page.context["chart"]
    totals = [row.score for row in imported.results.order_by("position")]
    last_round = pr.round_number(pr.from_json(imported.state))
    assert [r["round"] for r in chart["rounds"]] == list(range(last_round + 1))
    for line, total in zip(chart["lines"], totals, strict=True):
        assert line["values"][0] == 0 and line["values"][-1] == total
        assert line["values"] == sorted(line["values"])  # VP are never lost
    html = page.content.decode()
    assert html.count("<polyline") == 2
    assert reverse("games:replay", args=[imported.pk]) in html
    assert reverse("games:export", args=[imported.pk]) in html


def test_the_replay_charts_the_scores_only_as_they_stood_at_the_step_shown(imported):
    """Stepping through a finished game does not give its result away: the chart ends at the
    step shown, with the scores of that moment."""
    url = reverse("games:replay", args=[imported.pk])
    steps = [pr.from_json(state) for state in states(imported)]
    into_round_3 = next(i for i, state in enumerate(steps) if pr.round_number(state) == 3) + 2
    for step in (3, into_round_3):
        chart = client_for().get(url, {"step": step}).context["chart"]
        now = [place.score for place in pr.outcome(steps[step])]
        assert now != [row.score for row in imported.results.order_by("position")]
        rounds = pr.round_number(steps[step])
        assert [r["round"] for r in chart["rounds"]] == list(range(rounds + 1))
        assert [line["values"][-1] for line in chart["lines"]] == now
        assert max(t["value"] for t in chart["ticks"]) == max([1, *now])
    start = client_for().get(url, {"step": 0}).context["chart"]
    assert [line["values"] for line in start["lines"]] == [[0, 0], [0, 0]]  # round 1 ahead
    final = client_for().get(imported.get_absolute_url()).context["chart"]
    assert client_for().get(url, {"step": len(steps) - 1}).context["chart"] == final


def test_only_a_finished_game_is_exported(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=2)
    assert client_for().get(reverse("games:export", args=[game.pk])).status_code == 404
    assert client_for().get(reverse("api:export", args=[game.pk])).status_code == 409


def test_the_schema_in_the_docs_names_every_field_of_the_file(imported):
    schema = json.loads(
        (Path(__file__).resolve().parents[2] / "docs/export.schema.json").read_text()
    )
    exported = transfer.export_game(Game.objects.with_seats().get(pk=imported.pk), None)
    assert set(exported) == set(schema["required"]) == set(schema["properties"])
    for part in ("players", "moves", "result"):
        items = schema["properties"][part]["items"]
        for entry in exported[part]:
            assert set(entry) == set(items["required"]) == set(items["properties"])
    assert {m["kind"] for m in exported["moves"]} <= set(
        schema["properties"]["moves"]["items"]["properties"]["kind"]["enum"]
    )


# Every field of a file checked; what is stored is what the engine read --------------------------

MISSING = object()
"""A field left out of the file."""
DIGIT_ONE = "\u0661"
"""The Arabic-Indic digit one: a digit to ``str.isdigit``, no number in JSON."""
WRONG = [MISSING, [], {}, None, 1.5, "x", True, -1, "\x00", "\ud800", DIGIT_ONE]
ACCEPTED = {
    "options": [{}],
    "options.hidden_vp": [MISSING, True],
    "options.edition": [MISSING],
    "players.0.name": ["x", DIGIT_ONE],
    "chat": [[], None],
    "chat.0": [MISSING],
    "chat.0.seat": [None],
    "chat.0.text": ["x", "\x00", "\ud800", DIGIT_ONE],
    "result.0.parts.bonuses": [{}],
    "finished_at": [None],
}
"""What of ``WRONG`` a field may hold: an option left to its default, a name of one letter, a
chat of any text (an import does not keep it) or none at all (``docs/export.md``)."""
FIELDS = [
    "format",
    "format_version",
    "engine",
    "options",
    "options.hidden_vp",
    "options.edition",
    "num_players",
    "seed",
    "players",
    "players.0",
    "players.0.seat",
    "players.0.name",
    "players.0.ai",
    "moves",
    "moves.0",
    "moves.0.version",
    "moves.0.kind",
    "moves.0.seat",
    "moves.0.action",
    "moves.0.action.type",
    "moves.0.action.role",
    "moves.0.events",
    "moves.0.forced",
    "chat",
    "chat.0",
    "chat.0.seat",
    "chat.0.after_move",
    "chat.0.at",
    "chat.0.text",
    "result",
    "result.0",
    "result.0.seat",
    "result.0.placement",
    "result.0.score",
    "result.0.parts",
    "result.0.parts.chips",
    "result.0.parts.bonuses",
    "result.0.tiebreak",
    "result.0.tiebreak.doubloons_and_goods",
    "result.0.played_by",
    "result.0.person_decisions",
    "result.0.ai_decisions",
    "finished_at",
]


def with_value(data: dict, path: str, value) -> dict:
    """A copy of ``data`` with the field at ``path`` (dotted, list items by number) set to
    ``value``, or left out for ``MISSING``."""
    data = copy.deepcopy(data)
    *parents, last = [int(part) if part.isdigit() else part for part in path.split(".")]
    part = data
    for name in parents:
        part = part[name]
    if value is MISSING:
        del part[last]
    else:
        part[last] = value
    return data


def a_file_with_a_chat() -> dict:
    data = game_file(seed=5)
    data["chat"] = [{"seat": 0, "after_move": 0, "at": "2026-01-02T03:04:05+00:00", "text": "hi"}]
    data["options"] = {"hidden_vp": True, "edition": "base"}
    return data


@pytest.mark.parametrize("path", FIELDS)
def test_a_wrong_value_in_any_field_of_the_file_is_refused_with_a_reason(users, path, monkeypatch):
    monkeypatch.setattr(transfer, "IMPORTS_PER_HOUR", 10**6)
    base = a_file_with_a_chat()
    client = client_for(users[0])
    for value in WRONG:
        if any(
            value is v or (type(value) is type(v) and value == v) for v in ACCEPTED.get(path, ())
        ):
            continue
        answer = client.post(
            reverse("api:import"), with_value(base, path, value), content_type="application/json"
        )
        assert answer.status_code == 400, (path, value, answer.content[:300])
        assert isinstance(answer.json()["error"], str) and answer.json()["error"]
    assert not Game.objects.exists()


def test_the_reasons_for_a_refused_file_are_in_the_readers_language(users):
    users[0].language = "de"
    users[0].save()
    client = client_for(users[0])
    answer = client.post(
        reverse("api:import"), {**game_file(seed=5), "engine": []}, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == "diese Datei gehört zu einem Spiel, das puerto nicht kennt"
    upload = json.dumps({**game_file(seed=5), "options": {"hidden_vp": "yes please"}}).encode()
    page = client.post(reverse("games:import"), {"file": SimpleUploadedFile("g.json", upload)})
    assert page.status_code == 400
    assert "die Option hidden_vp ist entweder true oder false" in page.content.decode()
    assert not Game.objects.exists()


def test_an_import_stores_the_actions_the_engine_read_without_extra_fields(users):
    data = game_file(seed=5)
    data["moves"][0]["action"]["note"] = "x" * 200_000
    data["moves"][1]["action"]["by the way"] = [{"nested": ["list"]}]
    game, created = transfer.import_game(data, users[0])
    assert created
    stored = list(game.moves.order_by("version").values_list("action", flat=True))
    expected = [pr.action_to_json(pr.action_from_json(m["action"])) for m in data["moves"]]
    assert stored == expected
    assert "note" not in stored[0] and "by the way" not in stored[1]


def test_a_move_marked_forced_must_have_been_the_only_legal_one(users):
    data = game_file(seed=5)
    assert len(pr.legal_actions(pr.new_game(2, 5))) > 1  # the first governor chooses a role
    data["moves"][0]["forced"] = True
    with pytest.raises(transfer.ImportRefused, match="move 1 does not replay") as refused:
        transfer.import_game(data, users[0])
    assert refused.value.version == 1
    forced = [m["version"] for m in game_file(seed=5)["moves"] if m["forced"]]
    assert forced  # the file's own forced moves, each the only legal one, go through
    game, _ = transfer.import_game(game_file(seed=5), users[0])
    assert list(game.moves.filter(forced=True).values_list("version", flat=True)) == forced


def test_the_options_of_a_file_are_checked_as_the_lobby_checks_them(users):
    for options, reason in [
        ({"hidden_vp": "yes please"}, "the option hidden_vp is either true or false"),
        ({"hidden_vp": 1}, "the option hidden_vp is either true or false"),
        ({"edition": ["base"]}, "the option edition is one of base, new_buildings, nobles, both"),
        ({"vp_chips": 122}, "the option vp_chips is only for games of 5 players"),
        ({"colour": "red"}, 'there is no option "colour"'),
    ]:
        with pytest.raises(transfer.ImportRefused, match=reason):
            transfer.import_game({**game_file(seed=5), "options": options}, users[0])
        with pytest.raises(services.GameError, match=reason):
            services.create_game(users[0], engine="puerto_rico", num_players=2, options=options)
    with pytest.raises(services.GameError, match="the option vp_chips is one of 122, 126"):
        services.create_game(
            users[0], engine="puerto_rico", num_players=5, options={"vp_chips": 122.0}
        )
    assert not Game.objects.exists()


def test_the_same_file_imported_again_by_its_importer_answers_the_first_game(users):
    data = game_file(seed=5)
    anna, bob = client_for(users[0]), client_for(users[1])
    url = reverse("api:import")
    first = anna.post(url, data, content_type="application/json")
    assert first.status_code == 201
    # The same game whatever else the file says: its chat, when it was downloaded, its layout.
    again = {**data, "chat": None, "finished_at": "2026-01-02T03:04:05+00:00"}
    second = anna.post(url, json.dumps(again, indent=4), content_type="application/json")
    assert second.status_code == 200 and second.json() == first.json()
    upload = SimpleUploadedFile("game.json", json.dumps(data).encode())
    page = anna.post(reverse("games:import"), {"file": upload})
    assert page.status_code == 303 and page.url == first.json()["replay_url"]
    other = bob.post(url, data, content_type="application/json")  # another user's own copy
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    assert Game.objects.count() == 2


def test_a_file_over_2_mb_is_refused_with_413_unread(users):
    client = client_for(users[0])
    for size in (transfer.MAX_IMPORT_BYTES + 1, 3 * 1024 * 1024):
        padded = {**game_file(seed=5), "padding": ""}
        body = json.dumps(padded)
        body = body.replace('"padding": ""', '"padding": "' + "x" * (size - len(body)) + '"')
        assert len(body) == size
        answer = client.post(reverse("api:import"), body, content_type="application/json")
        assert answer.status_code == 413
        assert answer.json()["error"] == "The file is larger than 2 MB."
        upload = SimpleUploadedFile("game.json", body.encode())
        page = client.post(reverse("games:import"), {"file": upload})
        assert page.status_code == 413 and "The file is larger than 2 MB." in page.content.decode()
    assert not Game.objects.exists()


def test_more_than_20_imports_an_hour_get_429_with_retry_after(users, monkeypatch):
    monkeypatch.setattr(rates.time, "time", lambda: 1_000_020.0)  # 780 s before the hour ends
    url = reverse("api:import")
    anna = client_for(users[0])
    data = game_file(seed=5)
    for _ in range(20):  # the same file: each one sent counts
        assert anna.post(url, data, content_type="application/json").status_code in (200, 201)
    refused = anna.post(url, data, content_type="application/json")
    assert refused.status_code == 429 and refused["Retry-After"] == "780"
    assert "at most 20 imports an hour" in refused.json()["error"]
    upload = SimpleUploadedFile("game.json", json.dumps(data).encode())
    page = anna.post(reverse("games:import"), {"file": upload})
    assert page.status_code == 429 and page["Retry-After"] == "780"
    assert client_for(users[1]).post(url, data, content_type="application/json").status_code == 201
    monkeypatch.setattr(rates.time, "time", lambda: 1_000_800.0)  # the next hour
    assert anna.post(url, data, content_type="application/json").status_code == 200
    assert Game.objects.count() == 2


def test_the_import_form_still_needs_its_csrf_token(users):
    """The form checks its size before the CSRF check reads the upload: the check still runs."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(users[0])
    upload = SimpleUploadedFile("game.json", json.dumps(game_file(seed=5)).encode())
    assert client.post(reverse("games:import"), {"file": upload}).status_code == 403
    assert not Game.objects.exists()
    token = client.get(reverse("games:import")).context["csrf_token"]
    upload = SimpleUploadedFile("game.json", json.dumps(game_file(seed=5)).encode())
    answer = client.post(reverse("games:import"), {"file": upload, "csrfmiddlewaretoken": token})
    assert answer.status_code == 303 and Game.objects.count() == 1
