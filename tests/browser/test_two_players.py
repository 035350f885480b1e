"""The game for two players in Chromium: opened in the lobby against one AI player and played
to its final scores, every decision of the person made on the page (the buttons of "Your
choice", the mayor's form as pre-filled, the storage form) and every AI turn played by the
site itself. On the way the page must show the 2-player table: 7 role cards, 2 cargo ships,
the note that each player chooses 3 roles a round, and the governor changing every round.

AI turns run eagerly inside the request that hands them the turn (``tests/conftest.py``).
"""

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.models import Game, Seat
from games.registry import get_engine
from tests.browser.test_play import (
    make_user,
    open_in_lobby,
    open_page,  # noqa: F401 (a fixture)
    take_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pr = get_engine("puerto_rico")
ROLES = ["Builder", "Captain", "Craftsman", "Mayor", "Settler", "Trader", "Prospector"]
"""The person's roles, the first one free taken: a game that builds and ships ends soon."""
DESK = {"viewport": {"width": 1280, "height": 900}}
SEED = 1
"""The game's seed: with it anna meets every kind of decision the test asks for below."""


def test_a_two_player_game_against_an_ai_is_played_to_the_end_through_the_pages(
    open_page,  # noqa: F811 (the fixture imported above)
    django_user_model,
    tmp_path,
    monkeypatch,
):
    # The game starts when the lobby opens it, its seed drawn then: fixed, every run plays the
    # same game (a random one may never give anna a choice of cargo as captain).
    monkeypatch.setattr("games.models.secrets.randbits", lambda bits: SEED)
    anna = make_user(django_user_model, "anna")
    page = open_page(anna, **DESK)
    game = open_in_lobby(page, 2, "easy")
    expect(page.locator("#board")).to_be_visible()
    assert game.num_players == 2 and game.status == Game.Status.RUNNING and game.seed == SEED
    ai = game.seats.get(user=None)
    assert ai.ai_level == Seat.AI.EASY
    with translation.override("en"):  # as the page names the AI seat
        names = game.names()
    ai_name = names[ai.position]
    assert set(names) == {"anna", ai_name}

    governors: dict[int, str] = {}
    """Round -> the governor the page names."""
    role_turns: dict[int, list[int]] = {}
    """Round -> for each of anna's role choices, how many roles were already taken."""
    made = []
    for _ in range(400):
        if page.locator("#outcome-title").count():
            break
        expect(page.locator("#pr-choices-title")).to_have_text("Your choice")
        status = page.locator(".pr-round").inner_text()
        round_, governor = re.search(r"Round (\d+) · .* · governor: (.+?) ·", status).groups()
        assert governors.setdefault(int(round_), governor) == governor, status
        if page.locator(".pr-buttons-role").count():
            expect(page.locator(".pr-table .pr-role")).to_have_count(7)
            expect(page.locator(".pr-table .pr-ship")).to_have_count(2)
            ships = page.locator(".pr-table .pr-ship > title").all_text_contents()
            assert [s.split("-ship")[0] for s in ships] == ["4", "6"], ships
            expect(page.locator(".pr-role-by")).to_have_text(
                "Each of you chooses 3 roles a round, in turn."
            )
            taken = page.locator(".pr-table .pr-role.is-taken").count()
            role_turns.setdefault(int(round_), []).append(taken)
        made.append(take_turn(page, ROLES))
    else:
        raise AssertionError(f"the game did not end: {made[-20:]}")
    page.screenshot(path=tmp_path / "final.png", full_page=True)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    state = game.engine_state()
    assert pr.is_over(state)
    last_round = pr.round_number(state)

    # The governor changes every round, anna and the AI in turn; the page said so each round.
    assert sorted(governors) == list(range(1, last_round + 1))
    first = governors[1]
    for round_, governor in governors.items():
        assert governor == (first if round_ % 2 else ({"anna", ai_name} - {first}).pop())
    # Each chooses 3 of the 7 roles a round, alternately, the governor first: anna's role
    # choices came after 0, 2 and 4 roles taken when she was governor, else after 1, 3 and 5.
    for round_ in range(1, last_round + 1):
        expected = [0, 2, 4] if governors[round_] == "anna" else [1, 3, 5]
        assert role_turns.get(round_) == expected, (round_, role_turns)

    kinds = {kind for kind, _ in made}
    assert {"role", "settler", "mayor", "builder", "captain"} <= kinds, kinds
    moves = list(game.moves.select_related("seat").order_by("version"))
    # The AI played its own turns (no actor); anna's were hers but for forced ones (no actor:
    # a single legal action is played for her).
    assert {m.actor for m in moves if m.seat == ai} == {None}
    assert sum(m.seat == ai for m in moves) > 50
    assert [m.seat for m in moves if m.actor == anna] == [game.seat_of(anna)] * len(made)

    # The final scores as the engine counts them, the winner named.
    expect(page.locator("#outcome-title")).to_have_text("Final score")
    expect(page.locator(".pr-decision")).to_have_text("The game is over.")
    # The header names the last round played, and no governor of a round never played.
    expect(page.locator(".pr-round")).to_contain_text(f"Round {last_round} · Game over")
    expect(page.locator(".pr-round")).not_to_contain_text("governor")
    expect(page.locator(".pr-choices")).to_have_count(0)
    outcome = pr.outcome(state)
    totals = {names[place.seat]: place.score for place in outcome}
    rows = page.locator(".outcome tbody tr")
    expect(rows).to_have_count(2)
    shown = {}
    for row in rows.all():
        shown[row.locator("th").inner_text()] = int(row.locator(".outcome-total").inner_text())
    assert shown == totals
    firsts = sorted((p for p in outcome if p.placement == 1), key=lambda p: p.seat)
    winners = ", ".join(names[place.seat] for place in firsts)
    expect(page.locator(".outcome-winners strong")).to_have_text(winners)
