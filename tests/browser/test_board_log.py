"""Coming back to a game in Chromium: the moves the others made since one's own last move
stand open above the board, the score overview beside it, and another player's board opens at
full size; at 1400 and 390 px, in English and German, and never wider than a phone."""

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.test_play import make_user, open_page  # noqa: F401 (a fixture)
from tests.games.test_board_log import play
from tests.games.test_board_ui import holder, started

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"wide": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}
WORDS = {
    "en": ("Since your last move", "Overview", "Close"),
    "de": ("Seit deinem letzten Zug", "Übersicht", "Schließen"),
}


@pytest.fixture
def game_since(django_user_model):
    """Anna has moved, and Bob and Chris have made three decisions since."""
    users = [make_user(django_user_model, name) for name in ("anna", "bob", "chris")]
    game = started(users)
    anna = users[0]
    game = play(game, users, lambda g: g.moves.filter(actor=anna).exists())

    def others_moved(g: Game) -> bool:
        last = g.moves.filter(actor=anna).latest("version").version
        since = g.moves.filter(version__gt=last, forced=False).exclude(actor=anna).count()
        return since >= 3 and holder(g, users) != anna

    return play(game, users, others_moved), users


@pytest.mark.parametrize("language", WORDS)
@pytest.mark.parametrize("size", SIZES)
def test_a_player_coming_back_reads_the_others_moves_and_opens_their_boards(
    open_page,  # noqa: F811
    game_since,
    language,
    size,
):
    game, (anna, bob, _chris) = game_since
    since_title, overview_title, close = WORDS[language]
    anna.language = language
    anna.save()
    page = open_page(anna, viewport=SIZES[size])
    page.goto(game.get_absolute_url())
    log = page.locator(".log")
    expect(log.locator("h2")).to_have_text(since_title)
    new = log.locator(".log-new li")
    expect(new.first).to_be_visible()  # unfolded: no click
    lines = new.all_inner_texts()
    assert any(line.startswith(("bob ", "chris ")) for line in lines), lines
    scores = page.locator(".pr-scores")
    expect(scores.locator("caption")).to_have_text(overview_title)
    expect(scores.locator("tbody tr")).to_have_count(3)
    shot = f"/tmp/log-{size}-{language}"
    page.screenshot(path=f"{shot}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    seats = {s.user_id: s.position for s in game.seats.all()}
    mine = page.locator(f"#pr-player-{seats[anna.pk]}")
    theirs = page.locator(f"#pr-player-{seats[bob.pk]}")
    small = theirs.bounding_box()["width"]
    scores.locator(f'label[for="pr-zoom-{seats[bob.pk]}"]').click()
    closer = page.locator(f'.pr-zoom-close[for="pr-zoom-{seats[bob.pk]}"]')
    expect(closer).to_have_text(close)
    expect(closer).to_be_visible()
    opened = theirs.bounding_box()
    assert opened["width"] >= 0.95 * mine.bounding_box()["width"]
    assert opened["x"] >= 0 and opened["x"] + opened["width"] <= SIZES[size]["width"]
    page.screenshot(path=f"{shot}-board.png")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    closer.click()
    expect(closer).to_be_hidden()
    assert theirs.bounding_box()["width"] == pytest.approx(small, abs=1)
