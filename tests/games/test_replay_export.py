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

from games import services, transfer
from games.engines import get_engine
from games.models import Game
from games.ui import describe_event
from tests.games.game_files import game_file

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
    steps = services.replay_steps(pr, initial, services.stored_moves(game))
    return [pr.to_json(initial)] + [pr.to_json(state) for state, _ in steps]


@pytest.fixture
def imported(users) -> Game:
    """A finished two-player game (hidden VP chips), made from an engine-written file."""
    return transfer.import_game(game_file(seed=5), users[2])


def test_export_and_import_give_the_same_game_step_by_step(
    users, django_capture_on_commit_callbacks
):
    """A whole game of two random AI players through the site; the file downloaded from the
    finished game imports to the same states at every step, and exports to the same file."""
    with django_capture_on_commit_callbacks(execute=True):  # the AI's turns, eagerly
        game = services.create_game(
            users[0], num_players=2, ai_seats=2, ai_level="random", join=False
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
    assert copy_.state == game.state and copy_.result == game.result
    assert states(copy_) == states(game)
    assert copy_.names() == game.names()
    again = client_for().get(reverse("api:export", args=[copy_.pk])).json()
    assert again["moves"] == exported["moves"] and again["players"] == exported["players"]


def with_an_undo(data: dict, index: int) -> dict:
    """``data`` with the move at ``index`` taken back at once and played again."""
    data = copy.deepcopy(data)
    move = data["moves"][index]
    undo = {
        "version": move["version"] + 1,
        "kind": "undo",
        "seat": move["seat"],
        "action": {"undo": [move["version"]]},
        "events": [{"event": "undo", "seat": move["seat"], "moves": 1}],
        "forced": False,
    }
    again = {**move, "version": move["version"] + 2}
    later = [{**m, "version": m["version"] + 2} for m in data["moves"][index + 1 :]]
    data["moves"] = [*data["moves"][: index + 1], undo, again, *later]
    return data


def test_undos_travel_in_the_file_and_replay(users):
    data = with_an_undo(game_file(seed=5), 4)
    game = transfer.import_game(data, users[0])
    assert game.state == pr.to_json(services.replay(game))
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
    game = transfer.import_game(data, users[0])
    assert game.options["edition"] == edition
    assert game.state == pr.to_json(services.replay(game))
    again = transfer.export_game(Game.objects.with_seats().get(pk=game.pk), None)
    assert again["moves"] == data["moves"] and again["options"]["edition"] == edition


def test_an_amerigo_game_goes_out_and_comes_back_the_same(users):
    data = game_file(seed=2, engine="amerigo")
    game = transfer.import_game(data, users[0])
    assert game.engine == "amerigo"
    assert game.state == get_engine("amerigo").to_json(services.replay(game))
    assert (
        transfer.export_game(Game.objects.with_seats().get(pk=game.pk), None)["moves"]
        == data["moves"]
    )


def test_my_games_offers_the_replay_of_a_finished_game(users):
    game = services.create_game(users[0], num_players=2)
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


def test_stepping_through_a_finished_game_shows_each_steps_board_and_lines(imported):
    url = reverse("games:replay", args=[imported.pk])
    moves = list(imported.moves.order_by("version"))
    last = len(moves)
    for step in (0, 7, last):
        response = client_for().get(url, {"step": step})
        html = response.content.decode()
        assert f"Move {step} of {last}" in html
        board = response.context["pr"]
        expected = services.replay(imported, until=step) if step else None
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
    game = services.create_game(users[0], num_players=2, options={"hidden_vp": True})
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
    totals = [s["total"] for s in imported.result["scores"]]
    last_round = pr.round_number(pr.from_json(imported.state))
    assert [r["round"] for r in chart["rounds"]] == list(range(last_round + 1))
    for line, total in zip(chart["lines"], totals, strict=True):
        assert line["values"][0] == 0 and line["values"][-1] == total
        assert line["values"] == sorted(line["values"])  # VP are never lost
    html = page.content.decode()
    assert html.count("<polyline") == 2
    assert reverse("games:replay", args=[imported.pk]) in html
    assert reverse("games:export", args=[imported.pk]) in html


def test_only_a_finished_game_is_exported(users):
    game = services.create_game(users[0], num_players=2)
    assert client_for().get(reverse("games:export", args=[game.pk])).status_code == 404
    assert client_for().get(reverse("api:export", args=[game.pk])).status_code == 409


def test_the_schema_in_the_docs_names_every_field_of_the_file(imported):
    schema = json.loads(
        (Path(__file__).resolve().parents[2] / "docs/export.schema.json").read_text()
    )
    exported = transfer.export_game(Game.objects.with_seats().get(pk=imported.pk), None)
    assert set(exported) == set(schema["required"]) == set(schema["properties"])
    for part in ("players", "moves"):
        items = schema["properties"][part]["items"]
        for entry in exported[part]:
            assert set(entry) == set(items["required"]) == set(items["properties"])
    assert {m["kind"] for m in exported["moves"]} <= set(
        schema["properties"]["moves"]["items"]["properties"]["kind"]["enum"]
    )
