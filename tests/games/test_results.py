"""A finished game's ``Result`` rows and its ``ending``: written with the move that finishes it
(each seat's placement, score and parts, who played it and how many of its decisions a
person and an AI player made, counted here move by move), set when it is cancelled, shown as
the final table, given by the API, and carried by an exported file and back."""

import json
import random
import re
from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from games import services, transfer
from games.models import Game, Result, Seat
from games.registry import get_engine
from games.signals import game_changed
from tests.engines.positions import player, position
from tests.games.conftest import four_people
from tests.games.game_files import FORMAT_1, game_file
from tests.games.test_chat import fresh_rate_limits  # noqa: F401 - every test counts its own

pytestmark = pytest.mark.django_db

pr = get_engine("puerto_rico")
am_order_field = get_engine("amerigo").order_field


class Table:
    """A game played through the site with random legal moves: the people's through
    ``submit_move`` (one of them taken back with ``undo_move``), the AI players' through
    ``play_ai_turn``; who made each decision is counted here, as it happens."""

    def __init__(self, game: Game, seed: int = 3) -> None:
        self.game_id = game.pk
        self.draw = random.Random(seed)
        self.person = Counter()
        self.ai = Counter()
        self.undone = False

    def game(self) -> Game:
        return Game.objects.with_seats().get(pk=self.game_id)

    def play(self, moves: int | None = None) -> Game:
        """``moves`` decisions (None: to the end); the game as it stands then."""
        while moves is None or moves > 0:
            game = self.game()
            if game.status != Game.Status.RUNNING:
                return game
            seat = game.seat_to_act()
            if seat.is_ai:
                assert services.play_ai_turn(game.pk, game.version) is not None
                self.ai[seat.position] += 1
            else:
                legal = pr.legal_actions(game.engine_state())
                action = pr.action_to_json(legal[self.draw.randrange(len(legal))])
                services.submit_move(game.pk, action, user=seat.user, expected_version=game.version)
                self.person[seat.position] += 1
                if not self.undone and self.person[seat.position] == 3:
                    self.take_back(seat)
            moves = None if moves is None else moves - 1
        return self.game()

    def take_back(self, seat: Seat) -> None:
        try:
            services.undo_move(self.game_id, seat.user)
        except services.Conflict:  # the move showed something hidden: the next one, then
            return
        self.person[seat.position] -= 1
        self.undone = True

    def time_out(self, position: int) -> None:
        game = self.game()
        assert game.current_position == position and game.deadline is not None
        assert services.time_out(game.pk, now=game.deadline + timedelta(seconds=1))

    def play_to(self, position: int) -> None:
        """Until ``position``, a person's seat, is to act."""
        while self.game().current_position != position:
            self.play(1)


def rows(game: Game) -> dict[int, Result]:
    return {row.position: row for row in game.results.all()}


def three_at_the_table(users) -> Game:
    """Anna and Bob, an hour a move (an AI player takes over a seat that lets it pass), and
    an AI player of its own."""
    game = services.create_game(
        users[0],
        engine="puerto_rico",
        num_players=3,
        ai_seats=1,
        ai_level="random",
        move_time=timedelta(hours=1),
    )
    services.join_game(game.pk, users[1])
    return Game.objects.with_seats().get(pk=game.pk)


@pytest.fixture(scope="class")
def finished(django_db_setup, django_db_blocker):
    """A game Anna played to the end, Bob's seat taken over by an AI player after a timeout
    on his tenth decision; with the table that played it and the people. Played once for the
    tests of a class, which read it: each test's own writes go back to a savepoint inside this
    transaction, and the game goes with it after the last."""
    with django_db_blocker.unblock(), transaction.atomic():
        users = four_people(get_user_model())
        game = three_at_the_table(users)
        table = Table(game)
        bob = next(s for s in game.seats.all() if s.user_id == users[1].pk).position
        while table.person[bob] < 9:
            table.play(1)
        table.play_to(bob)
        table.time_out(bob)
        yield table.play(), table, users
        transaction.set_rollback(True)


class TestAFinishedGame:
    """Its rows, as the API, the final table and an exported file give them."""

    def test_the_rows_say_who_played_each_seat_and_who_made_its_decisions(self, finished):
        game, table, users = finished
        seats = {s.position: s for s in game.seats.all()}
        anna, bob, ai = (
            next(p for p, s in seats.items() if s.user_id == users[0].pk),
            next(p for p, s in seats.items() if s.user_id == users[1].pk),
            next(p for p, s in seats.items() if s.user_id is None),
        )
        assert game.status == Game.Status.FINISHED and game.ending == Game.Ending.PLAYED_OUT
        assert table.undone  # one of Anna's or Bob's decisions was taken back: it is no decision
        got = {
            p: (r.seat_id, r.user_id, r.played_by, r.person_decisions, r.ai_decisions)
            for p, r in rows(game).items()
        }
        assert got == {
            anna: (seats[anna].pk, users[0].pk, "person", table.person[anna], 0),
            bob: (seats[bob].pk, users[1].pk, "taken_over", 9, table.ai[bob]),
            ai: (seats[ai].pk, None, "ai", 0, table.ai[ai]),
        }
        assert table.ai[bob] > 0 and table.person[anna] > 9
        # The rest is the engine's outcome of the final state; first place first.
        outcome = pr.outcome(game.engine_state())
        assert [
            (r.position, r.placement, r.score, r.parts, r.tiebreak)
            for r in game.results.order_by("position")
        ] == [(p.seat, p.placement, p.score, p.parts, p.tiebreak) for p in outcome]
        assert [row.placement for row in game.results.all()] == sorted(p.placement for p in outcome)

    def test_the_api_gives_the_rows_of_a_finished_game_in_seat_order(self, finished, client):
        game, _, _ = finished
        data = client.get(reverse("api:game", args=[game.pk])).json()
        assert data["result"] == [row.as_json() for row in game.results.order_by("position")]
        assert [r["seat"] for r in data["result"]] == [0, 1, 2]
        assert set(data["result"][0]) == set(transfer.RESULT_FIELDS)

    def test_the_final_table_shows_each_part_under_the_games_label_and_ends_the_replay(
        self, finished, client
    ):
        game, _, _ = finished
        names = game.names()
        page = client.get(game.get_absolute_url()).content.decode()
        table = page[page.index('<section class="outcome"') :]
        table = table[: table.index("</section>")]
        body = table[table.index("<tbody>") :]
        for label in ("VP chips", "Buildings", "Large building bonuses", "Total"):
            assert f">{label}</th>" in table
        assert ">Tie-break: doubloons + goods</th>" in table
        assert "Nobles" not in table  # a part of the Nobles only
        ordered = sorted(game.results.all(), key=lambda r: (r.placement, r.position))
        at = [body.index(f">{names[r.position]}") for r in ordered]
        assert at == sorted(at)  # first place first
        bob = next(r for r in ordered if r.played_by == "taken_over")
        row = body[at[ordered.index(bob)] :].split("</tr>")[0]
        assert "an AI player took over" in row
        assert f"<strong>{bob.score}</strong>" in row
        doubloons = bob.tiebreak["doubloons_and_goods"]
        assert row.rstrip().endswith(f"<td>{doubloons}</td>")
        german = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert ">SP-Chips</th>" in german and ">Bei Gleichstand: Dublonen + Waren</th>" in german
        # The replay shows it at the last step only.
        url = reverse("games:replay", args=[game.pk])
        assert 'class="outcome"' in client.get(url).content.decode()
        assert 'class="outcome"' not in client.get(url, {"step": 5}).content.decode()

    def test_an_exported_game_imports_with_the_same_rows(self, finished):
        game, _, users = finished
        exported = transfer.export_game(game, None)
        assert exported["format_version"] == 2
        assert exported["result"] == transfer.result(game)
        copy_, created = transfer.import_game(json.loads(json.dumps(exported)), users[2])
        assert created and copy_.ending == game.ending
        assert transfer.result(copy_) == transfer.result(game)
        assert [r.user_id for r in copy_.results.all()] == [None] * 3  # imported seats have none
        assert transfer.export_game(Game.objects.with_seats().get(pk=copy_.pk), None) == {
            **exported,
            "finished_at": copy_.finished_at.isoformat(),
        }


def test_the_rows_are_there_when_the_finishing_move_is_announced(users):
    """Written in the transaction of the move that ends the game, before it is told to the
    rest of the site (``game_changed``: clocks, the outbox)."""
    seen = []

    def look(sender, *, game, **kwargs):
        if game.status == Game.Status.FINISHED:
            seen.append((game.ending, game.results.count()))

    game_changed.connect(look)
    try:
        Table(
            services.create_game(
                users[0], engine="puerto_rico", num_players=2, ai_seats=1, ai_level="random"
            )
        ).play()
    finally:
        game_changed.disconnect(look)
    assert seen == [(Game.Ending.PLAYED_OUT, 2)]


def test_a_game_the_ai_finished_for_people_who_all_let_their_time_pass_was_abandoned(users):
    game = services.create_game(
        users[0],
        engine="puerto_rico",
        num_players=2,
        ai_levels=["random"],
        move_time=timedelta(hours=1),
    )
    table = Table(game)
    anna = next(s for s in game.seats.all() if s.user_id).position
    table.play_to(anna)
    table.time_out(anna)
    game = table.play()
    assert game.ending == Game.Ending.ABANDONED
    assert rows(game)[anna].played_by == "taken_over"
    assert rows(game)[anna].person_decisions == table.person[anna]


@pytest.mark.parametrize(
    ("cancel", "ending"),
    [
        (lambda game, users: services.cancel_game(game.pk, users[0]), "cancelled"),
        (lambda game, users: services.leave_game(game.pk, users[0]), "cancelled"),
        (
            lambda game, users: services.cancel_by_moderator(game.pk, "spam"),
            "cancelled_by_moderator",
        ),
    ],
)
def test_a_cancelled_game_says_how_and_has_no_rows(users, cancel, ending):
    game = services.create_game(users[0], engine="puerto_rico", num_players=3)
    assert game.ending == ""
    cancel(game, users)
    game = Game.objects.get(pk=game.pk)
    assert (game.status, game.ending, game.results.count()) == ("aborted", ending, 0)


def test_a_running_game_cancelled_by_a_moderator_has_no_rows(users):
    game = three_at_the_table(users)
    Table(game).play(10)
    services.cancel_by_moderator(game.pk, "spam")
    game = Game.objects.get(pk=game.pk)
    assert (game.ending, game.results.count()) == ("cancelled_by_moderator", 0)


# Readers ---------------------------------------------------------------------------------------
def cells(page: str) -> list[list[str]]:
    """The final table's rows, each as its cells' text (the player first)."""
    body = page[page.index('<section class="outcome"') :]
    body = body[body.index("<tbody>") : body.index("</tbody>")]
    return [
        [
            re.sub(r"<.*?>", "", cell).strip()
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)
        ]
        for row in re.findall(r"<tr.*?</tr>", body, re.S)
    ]


def ended_in(state, users) -> Game:
    """A game of ``users`` that ended in the hand-made ``state``, with its rows written as the
    last move writes them."""
    game = services.create_game(users[0], engine="puerto_rico", num_players=state.num_players)
    for user in users[1 : state.num_players]:
        services.join_game(game.pk, user)
    Game.objects.filter(pk=game.pk).update(
        state=pr.to_json(state), status=Game.Status.FINISHED, current_position=None
    )
    game = Game.objects.with_seats().get(pk=game.pk)
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    services.write_results(game, state, seats, {s.position: ("person", 1, 0) for s in seats})
    return game


def test_game_over_shows_the_score_breakdown_first_place_first(users, client):
    players = [
        player(
            vp=20,
            doubloons=3,
            island={"corn": 1},
            city={"guild_hall": 1, "indigo_plant": 0, "small_sugar_mill": 0},
        ),
        player(vp=30, doubloons=5, island={"indigo": 1}, city={"residence": 1}),
        player(vp=9, island={"indigo": 1}),
    ]
    data = pr.to_json(position(players))
    data["phase"], data["current"] = "over", None
    game = ended_in(pr.from_json(data), users)
    names = game.names()
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"Winner: <strong>{names[1]}</strong>" in page
    # Seat 0: 20 chips + 7 building VP + guild hall 3 = 30; seat 1: 30 + 4 + residence 4 = 38.
    assert cells(page) == [
        ["1.", names[1], "30", "4", "residence 4", "38", "5"],
        ["2.", names[0], "20", "7", "guild hall 3", "30", "3"],
        ["3.", names[2], "9", "0", "—", "9", "0"],
    ]


def test_a_full_tie_names_every_winner(users, client):
    players = [player(vp=5, island={"corn": 1}) for _ in range(3)]
    data = pr.to_json(position(players))
    data["phase"], data["current"] = "over", None
    game = ended_in(pr.from_json(data), users)
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"Shared victory: <strong>{', '.join(game.names())}</strong>" in page
    assert [row[0] for row in cells(page)] == ["1.", "1.", "1."]


def test_the_final_table_of_a_nobles_game_shows_the_nobles_and_adds_up(users, client):
    data = game_file(seed=4, options={"edition": "nobles"})
    game, _ = transfer.import_game(data, users[0])
    page = client.get(game.get_absolute_url()).content.decode()
    assert ">Nobles (1 VP each)</th>" in page
    state = game.engine_state()
    names = game.names()
    for place, name, chips, buildings, bonuses, nobles, total, tiebreak in cells(page):
        seat = names.index(name)
        bonus = sum(int(vp) for vp in re.findall(r"\d+", bonuses))
        assert int(nobles) == state.players[seat].nobles()
        assert int(total) == int(chips) + int(buildings) + bonus + int(nobles)
        assert int(chips) == state.players[seat].vp
        assert int(tiebreak) == state.players[seat].doubloons + sum(state.players[seat].goods)
        assert place == f"{game.results.get(position=seat).placement}."


def test_the_final_table_of_amerigo_shows_its_final_scoring(users, client):
    """Each step of the rulebook's final scoring, the VP before it, and the tie-break: the
    field on the special-action track."""
    game, _ = transfer.import_game(game_file(seed=2, engine="amerigo"), users[0])
    page = client.get(game.get_absolute_url()).content.decode()
    labels = [
        "Before the final scoring",
        "Gold",
        "Goods",
        "Progress markers",
        "Progress track",
        "Special-action track",
        "Total",
        "Tie-break: field on the special-action track",
    ]
    header = page[page.index('<section class="outcome"') :]
    header = header[: header.index("</thead>")]
    assert re.findall(r'<th scope="col">(.*?)</th>', header) == ["Place", "Player", *labels]
    state = game.engine_state()
    names = game.names()
    rows = cells(page)
    assert [row[0] for row in rows] == ["1.", "2."]  # Amerigo's ties are always broken
    for _, name, *parts, total, field in rows:
        seat = names.index(name)
        assert sum(int(vp) for vp in parts) == int(total) == state.players[seat].vp
        assert int(field) == am_order_field(state, seat) + 1


def test_a_split_part_shows_each_piece_with_its_label(users, client):
    """The large buildings' bonuses, by building, as the engine splits them."""
    game, _ = transfer.import_game(game_file(seed=5), users[0])
    row = game.results.get(position=0)
    row.parts = {**row.parts, "bonuses": {"residence": 5, "guild_hall": 4}}
    row.save()
    page = client.get(game.get_absolute_url()).content.decode()
    assert "<td>guild hall 4, residence 5</td>" in page  # in the order of the building names
    assert "<td>—</td>" in page  # the other seat has none


# Export and import --------------------------------------------------------------------------
def test_an_imported_game_of_ai_players_who_took_over_every_person_was_abandoned(users):
    data = game_file(seed=5)
    for seat, result in zip(data["players"], data["result"], strict=True):
        seat["ai"] = "medium"
        result["played_by"] = "taken_over"
        result["person_decisions"], result["ai_decisions"] = 1, result["person_decisions"] - 1
    game, _ = transfer.import_game(data, users[0])
    assert game.ending == Game.Ending.ABANDONED
    assert [r.played_by for r in game.results.all()] == ["taken_over"] * 2


@pytest.mark.parametrize(
    "wrong",
    [
        {"placement": 2, "score": 0},
        {"parts": {"chips": 0}},
        {"tiebreak": {"doubloons_and_goods": True}},
        {"played_by": "ai"},  # the player has no AI level
        {"played_by": "robot"},
        {"person_decisions": 1},  # no longer adds up
        {"person_decisions": -1, "ai_decisions": 1},
        {"seat": 1},
    ],
)
def test_a_result_the_replay_does_not_give_is_refused(users, wrong):
    data = game_file(seed=5)
    data["result"][0] = {**data["result"][0], **wrong}
    with pytest.raises(transfer.ImportRefused):
        transfer.import_game(data, users[0])
    assert not Game.objects.exists()


def test_a_file_of_the_first_format_still_imports(users):
    """Its result was the engine's scores and winners then; each seat's decisions are its
    player's, here people's."""
    data = json.loads(FORMAT_1.read_text())
    assert data["format_version"] == 1 and set(data["result"]) == {"scores", "winners"}
    game, created = transfer.import_game(data, users[0])
    assert created and game.ending == Game.Ending.PLAYED_OUT
    decisions = Counter(m["seat"] for m in data["moves"] if not m["forced"])
    got = {
        p: (r.score, r.played_by, r.person_decisions, r.ai_decisions) for p, r in rows(game).items()
    }
    assert got == {
        seat: (score["total"], "person", decisions[seat], 0)
        for seat, score in enumerate(data["result"]["scores"])
    }
    winners = [r.position for r in game.results.all() if r.placement == 1]
    assert winners == data["result"]["winners"]
    # Exported again it is a file of the second format, of the same game.
    again = transfer.export_game(Game.objects.with_seats().get(pk=game.pk), None)
    assert again["format_version"] == 2 and again["result"] == transfer.result(game)
    assert transfer.import_game(again, users[0]) == (game, False)


@pytest.mark.parametrize(
    "result",
    [
        {"scores": [], "winners": [0]},
        "winners",
        {"winners": [0]},
        {"scores": [{"total": 35}, {"total": 31}], "winners": [1]},
        {"scores": [{"total": 35.0}, {"total": 31}], "winners": [0]},
        {"scores": [{"total": 35}, {"total": 31}], "winners": [True]},
    ],
)
def test_a_file_of_the_first_format_with_another_result_is_refused(users, result):
    data = {**json.loads(FORMAT_1.read_text()), "result": result}
    with pytest.raises(transfer.ImportRefused):
        transfer.import_game(data, users[0])
    assert not Game.objects.exists()
