"""Puerto Rico's score overview: each seat's VP chips (the viewer's own only, when they lie
face down), its buildings' VP, doubloons, goods and colonists, as the seat's view shows them;
and each other player's board can open at full size."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests.engines.positions import ANNA, BOB, CHRIS, player, position
from tests.games.test_board_ui import render, text


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


PLAYERS = [
    # Small indigo plant 1 VP + harbor 3 VP; 2 colonists on the island and plant, 2 in San Juan.
    player(
        vp=7,
        doubloons=3,
        goods={"corn": 2, "sugar": 1},
        island={"indigo": (1, 1)},
        city={"small_indigo_plant": 1, "harbor": 0},
        san_juan=2,
    ),
    # Guild hall 4 VP + small market 1 VP.
    player(vp=58, doubloons=11, city={"guild_hall": 1, "small_market": 1}, island={"corn": 1}),
    player(vp=63, goods={"coffee": 4}, island={"corn": (1, 1)}),
]


def overview(html: str) -> dict[str, list[str]]:
    """The overview's rows by player name: the cells after the name, as words."""
    table = re.search(r'<div class="pr-scores">.*?</table>', html, re.S).group(0)
    rows = re.findall(r"<tr[^>]*>\s*<th scope=\"row\">(.*?)</th>(.*?)</tr>", table, re.S)
    return {
        text(name).split()[0]: [text(cell) for cell in re.findall(r"<td>(.*?)</td>", cells, re.S)]
        for name, cells in rows
    }


def test_the_overview_counts_each_seats_buildings_money_goods_and_colonists():
    rows = overview(render(position(PLAYERS, options={"hidden_vp": False}), ANNA))
    assert rows["Anna"] == ["7", "4", "3", "3", "4"]
    assert rows["Bob"] == ["58", "5", "11", "0", "2"]
    assert rows["Chris"] == ["63", "0", "0", "4", "1"]


def test_vp_chips_face_down_show_only_the_viewers_own():
    state = position(PLAYERS)  # VP chips face down
    rows = overview(render(state, ANNA))
    assert [rows[name][0] for name in ("Anna", "Bob", "Chris")] == ["7", "?", "?"]
    spectator = overview(render(state, None))
    assert [spectator[name][0] for name in ("Anna", "Bob", "Chris")] == ["?", "?", "?"]
    assert overview(render(state, BOB))["Bob"][0] == "58"
    for html in (render(state, ANNA), render(state, None)):
        assert not re.search(r"\b(58|63)\b", text(html))


def test_each_other_players_board_opens_at_full_size_from_the_overview():
    html = render(position(PLAYERS), ANNA)
    for seat in (BOB, CHRIS):
        box = re.search(rf'<input [^>]*id="pr-zoom-{seat}"[^>]*>', html).group(0)
        assert 'type="checkbox"' in box and "hx-preserve" in box  # kept open across polls
        assert f'<label class="pr-zoom-open" for="pr-zoom-{seat}"' in html
        # The box sits with that player's board, which the page's style opens when ticked.
        after = html[html.index(box) :]
        assert after.index(f'id="pr-player-{seat}"') < after.index("pr-zoom-close")
    assert 'id="pr-zoom-0"' not in html  # one's own board is full size already
