"""A move made elsewhere while the page is open is morphed into the board, not swapped in whole;
the pieces it changed glow for a moment, and so do those changed while the player was away."""

import pytest
from playwright.sync_api import Page, expect

from games import services
from games.models import Game
from games.registry import get_engine
from tests.browser.test_play import anna, bob, game_with_governor, open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["anna", "bob", "open_page"]  # fixtures

pr = get_engine("puerto_rico")


def bob_chooses_a_role(game: Game, bob) -> None:
    state = Game.objects.get(pk=game.pk).engine_state()
    services.submit_move(game.pk, pr.action_to_json(pr.legal_actions(state)[0]), user=bob)


def glowing(page: Page) -> list[str]:
    return page.locator(".just-changed").evaluate_all(
        "pieces => pieces.map(p => p.dataset.key + ' ' + p.textContent.trim())"
    )


def test_a_move_made_elsewhere_is_morphed_in_and_the_role_it_took_glows(open_page, anna, bob):
    game = game_with_governor(bob, anna)
    page = open_page(anna)
    page.goto(game.get_absolute_url())
    expect(page.locator(".turn")).to_contain_text("Waiting for bob")
    page.evaluate("document.querySelector('[data-key-scope=table]').kept = true")
    assert glowing(page) == []

    bob_chooses_a_role(game, bob)
    expect(page.locator("#board")).to_have_attribute("data-version", "1")

    # The drawn table is the same element as before: only what changed was touched.
    assert page.evaluate("document.querySelector('[data-key-scope=table]').kept") is True
    (role,) = glowing(page)
    assert role.startswith("role-") and role.endswith("bob")
    expect(page.locator(".just-changed")).to_have_count(0)  # a short highlight


def test_what_changed_while_the_page_was_closed_glows_when_it_opens_again(open_page, anna, bob):
    game = game_with_governor(bob, anna)
    first = open_page(anna, reduced_motion="reduce")
    first.goto(game.get_absolute_url())
    expect(first.locator(".turn")).to_contain_text("Waiting for bob")
    context = first.context
    first.close()

    bob_chooses_a_role(game, bob)
    again = open_page(context=context)
    again.goto(game.get_absolute_url())

    (role,) = glowing(again)
    assert role.startswith("role-") and role.endswith("bob")
    # Without motion the glow stands still rather than fading.
    piece = again.locator(".just-changed")
    assert piece.evaluate("p => getComputedStyle(p).animationName") == "none"
    assert piece.evaluate("p => getComputedStyle(p).filter") != "none"


def test_an_opponents_board_opened_at_full_size_stays_open_when_a_move_comes_in(
    open_page, anna, bob
):
    game = game_with_governor(bob, anna)
    page = open_page(anna)
    page.goto(game.get_absolute_url())
    page.locator(".pr-scores label", has_text="bob").click()
    close = page.locator(".pr-other .pr-zoom-close").filter(visible=True)
    expect(close).to_have_count(1)

    bob_chooses_a_role(game, bob)
    expect(page.locator("#board")).to_have_attribute("data-version", "1")

    expect(close).to_have_count(1)
    expect(page.locator(".pr-zoom:checked")).to_have_count(1)
