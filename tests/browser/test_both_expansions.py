"""A game with both expansions in Chromium, opened in the lobby against two AI players and
played to the end through the pages: the draft, then every decision with the first choice of
the panel's first form (the mayor's nobles as pre-filled, the Royal supplier's first barrel,
the Land office and Hunting lodge buttons when they come first)."""

import pytest
from playwright.sync_api import expect

from games.models import Move
from tests.browser.test_new_buildings import DESK, draft_one, first_choice, game_state, pr
from tests.browser.test_play import make_user, open_in_lobby, open_page  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_game_with_both_expansions_is_played_to_the_end_in_the_pages(
    open_page,  # noqa: F811 (the fixture imported above)
    django_user_model,
    tmp_path,
):
    anna = make_user(django_user_model, "anna")
    page = open_page(anna, **DESK)
    game = open_in_lobby(page, 3, "easy", "easy", edition="New Buildings and Nobles")
    assert game.options["edition"] == "both"
    expect(page.locator("#game-status")).to_contain_text("New Buildings and Nobles")
    # The ship's first noble and the nobles' supply are on the table from the start.
    expect(page.locator(".pr-table")).to_contain_text("19")
    expect(page.locator(".pr-table .is-noble")).to_have_count(2)

    while page.locator(".pr-draft").count():
        draft_one(page, by_click=False)
    state = pr.from_json(game_state(game))
    assert len(state.drafted) == 17
    # The Nobles' eight buildings lie beside the drafted ones.
    for name in ("Land office", "Royal supplier", "Hunting lodge", "Villa"):
        expect(page.locator(".pr-buildings")).to_contain_text(name)

    decided: set[str] = set()
    for _ in range(400):
        state = pr.from_json(game_state(game))
        if pr.is_over(state):
            break
        decided.add(state.phase)
        first_choice(page)
    assert pr.is_over(state)
    assert {"role", "settler", "mayor", "builder"} <= decided  # the rest hang on the deal
    final = page.locator(".outcome")
    expect(final).to_be_visible()
    expect(final).to_contain_text("anna")
    expect(final).to_contain_text("Nobles (1 VP each)")
    assert Move.objects.filter(game=game, seat__user=anna, action__type="arrange").exists()
    page.screenshot(path=tmp_path / "both-end-1280x900.png", full_page=True)
