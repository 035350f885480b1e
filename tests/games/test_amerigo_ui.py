"""The Amerigo board, log and refusals (``games.ui.amerigo``): the choices are exactly the
engine's legal actions, every event and refusal reads in English and German, and a posted
form becomes the action it names or a reason in the reader's language."""

import html
import itertools
import json
import random
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.datastructures import MultiValueDict

from games.engines import amerigo as am
from games.engines.amerigo.data import PROGRESS_TRACK_END
from games.registry import get_game
from games.ui.amerigo import action_from_post, outline, voyage
from games.ui.amerigo_names import field_name
from tests.engines.amerigo.positions import play, position

NAMES = ["Anna", "Bob", "Chris"]
UNTOLD = ("Something happened", "Etwas ist passiert", "%(")


@pytest.fixture(autouse=True)
def english():
    """English unless a test says otherwise, whatever language an earlier test left active."""
    with translation.override("en"):
        yield


def random_states(players: int, seed: int, every: int = 1):
    """The states of one random game, and each move's events."""
    rng = random.Random(seed)
    state = am.new_game(players, seed=seed)
    while not am.is_over(state):
        log: list[dict] = []
        state = am.apply(state, rng.choice(am.legal_actions(state)), log=log)
        yield state, log


def offered(page: str) -> list[dict]:
    """Every action the page's forms can post: button values and select options."""
    values = re.findall(r'(?:name="action" value|<option value)="([^"]*)"', page)
    return [json.loads(html.unescape(v)) for v in values]


def render(state, seat):
    context = get_game("amerigo").seat_board_context(state, seat, NAMES[: state.num_players])
    return render_to_string(
        get_game("amerigo").template, {**context, "move_url": "/m", "version": 1}
    )


def test_the_seat_to_act_is_offered_exactly_the_legal_actions():
    seen = set()
    for k, (state, _log) in enumerate(random_states(3, seed=11)):
        if k % 11 or am.is_over(state):
            continue
        seat = am.current_player(state)
        legal = [am.action_to_json(a) for a in am.legal_actions(state)]
        page = render(state, seat)
        assert sorted(map(json.dumps, offered(page))) == sorted(map(json.dumps, legal))
        seen |= {a["type"] for a in legal}
        others = [s for s in range(3) if s != seat]
        assert offered(render(state, others[0])) == []
    # The game went through choosing, shipping, planning and buying at least.
    assert {"choose", "gold", "sail", "take", "done"} <= seen


def test_the_board_draws_what_stands_on_the_map():
    for state, _log in random_states(2, seed=5):
        if state.built and any(p.posts for p in state.players):
            break
    page = render(state, 0)
    posts = sum(len(p.posts) for p in state.players)
    assert page.count('class="am-post seat-') == posts
    built = sum(len(b["cells"]) for b in state.to_json()["built"])
    assert page.count('class="am-village seat-') + page.count('class="am-general"') == built
    ships = sum(1 for p in state.players for c in p.ships if c >= 0)
    assert page.count('class="am-ship seat-') == ships
    assert "approximations" in page


def test_the_drawing_has_plain_numbers_in_german_too():
    """German writes 110,5 for 110.5: an SVG coordinate must not be localised."""
    state = am.new_game(4, seed=8)
    with translation.override("de"):
        page = render(state, am.current_player(state))
    assert "Aktionsfeld" in page
    assert not re.search(r'\b(?:x|y|cx|cy|width|height|viewBox)="[^"]*\d[,.]\d', page)


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_event_is_told(language):
    ui = get_game("amerigo")
    kinds = set()
    with translation.override(language):
        for _state, log in random_states(4, seed=2):
            for event in log:
                line = ui.describe_event(event, [*NAMES, "Dora"])
                assert line and not any(u in line for u in UNTOLD), (event, line)
                kinds.add(event["event"])
    assert {"throw", "choose", "gold", "sail", "final_scoring", "game_over"} <= kinds


def test_the_german_log_is_german():
    ui = get_game("amerigo")
    event = {"event": "pirates_damage", "seat": 0, "strength": 7, "vp": 3}
    with translation.override("de"):
        assert ui.describe_event(event, NAMES) == "Die Piraten (Stärke 7) kosten Anna 3 SP."


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("code", sorted(am.REFUSALS))
def test_every_refusal_has_a_reason(language, code):
    ui = get_game("amerigo")
    params = {"type": "sail", "colour": "blue", "field": "to"}
    with translation.override(language):
        text = ui.describe_refusal(code, params)
    assert text and "refused" not in text and "abgelehnt" not in text and "%(" not in text


def test_a_posted_form_becomes_its_action():
    data = MultiValueDict({"action": ['{"type": "choose", "colour": "red", "x": 1}']})
    assert action_from_post(data) == {"type": "choose", "colour": "red"}


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (["{nope"], "the action is not valid JSON"),
        ([], "no action was chosen"),
        (['{"type": "done"}', '{"type": "gold"}'], "sent more than once"),
        (['{"type": "sail", "ship": 0}'], "incomplete or malformed"),
        (['{"type": "fly"}'], "Unknown kind of move"),
        (['{"type": "done", "note": "a\\u0000b"}'], "may not hold NUL characters"),
        (['{"type": "\\ud800"}'], "may not hold NUL characters or lone surrogates"),
    ],
)
def test_a_bad_form_is_refused_with_a_reason(action, reason):
    with pytest.raises(ValueError, match=reason):
        action_from_post(MultiValueDict({"action": action}))


FRAME_FIRST = {
    "en": "before ending it, put both ships on frame fields (free)",
    "de": "vor dem Ende beide Schiffe (kostenlos) auf Felder des Rahmens setzen",
}
"""What the board says in the first shipping action, while a ship is still off the board."""


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_first_shipping_action_ends_only_once_both_ships_are_on_the_frame(language):
    state = position(3, field={"blue": 3})
    state = play(state, {"type": "choose", "colour": "blue"})
    frame = state.map.frame
    for ship in (0, 1):
        with translation.override(language):
            page = render(state, 0)
        assert FRAME_FIRST[language] in html.unescape(page)
        assert {"type": "done"} not in offered(page)
        state = play(state, {"type": "place_ship", "ship": ship, "field": frame[ship]})
    with translation.override(language):
        page = render(state, 0)
    assert FRAME_FIRST[language] not in html.unescape(page)
    assert {"type": "done"} in offered(page)


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("en", "Put both ships on frame fields before you end your first shipping action."),
        (
            "de",
            "Setz beide Schiffe auf Felder des Rahmens, bevor du deine erste Schifffahrt beendest.",
        ),
    ],
)
def test_ending_the_first_shipping_action_too_early_is_refused_with_the_reason(language, reason):
    with translation.override(language):
        assert get_game("amerigo").describe_refusal("place_ships_first", {}) == reason


def sailing_state():
    """Anna (seat 0) about to sail ship 1 from an anchor field with 2 AP."""
    state = position(field={"blue": 2})
    post, anchor = state.map.posts[0]
    state.players[0].ships = [anchor, -1]
    return play(state, {"type": "choose", "colour": "blue"}), post, anchor


def test_every_ringed_field_is_a_focusable_button_naming_its_moves():
    state, post, anchor = sailing_state()
    page = render(state, 0)
    cols = state.map.cols
    moves_on: dict[int, int] = {}
    for a in am.legal_actions(state):
        cells = {"sail": [a.get("to")], "place_ship": [a.get("field")]}.get(a["type"], [])
        cells += [post] if a.get("post") else []
        for c in cells:
            moves_on[c] = moves_on.get(c, 0) + 1
    fields = re.findall(r'<g class="am-field[^"]*am-legal"[^>]*>', page)
    assert len(fields) == len(moves_on) > 2
    for c, n in moves_on.items():
        name = field_name(c, cols)
        tag = next(f for f in fields if f'data-field="{c}"' in f)
        assert 'tabindex="0"' in tag and 'role="button"' in tag
        assert f'aria-label="{name}: {n} move{"s" if n > 1 else ""}"' in tag
    # Staying on the anchor field with or without a trading post: 2 moves there; the post's
    # own field names only the voyage that sets it.
    assert moves_on[anchor] == 2 and moves_on[post] == 1
    for value, cells in re.findall(r'value="([^"]*)"[^>]*data-cells="([^"]*)"', page):
        action = json.loads(html.unescape(value))
        expected = {action.get("to"), action.get("field")} - {None}
        expected |= {post} if action.get("post") else set()
        assert set(map(int, cells.split())) == expected


@pytest.mark.parametrize(
    ("language", "stays", "sails"),
    [
        (
            "en",
            "Anna leaves ship 1 on {anchor}, the anchor field at island {island}.",
            "Anna sails ship 1 to {to}.",
        ),
        (
            "de",
            "Anna lässt Schiff 1 auf {anchor} stehen, dem Ankerfeld bei Insel {island}.",
            "Anna fährt mit Schiff 1 nach {to}.",
        ),
    ],
)
def test_the_log_says_where_a_ship_sails(language, stays, sails):
    ui = get_game("amerigo")
    state, post, anchor = sailing_state()
    cols = state.map.cols
    island = state.map.island[post] + 1
    log: list[dict] = []
    play(state, {"type": "sail", "ship": 0, "to": anchor, "post": False}, log=log)
    anchors = {a for _p, a in state.map.posts}
    to = next(
        a["to"]
        for a in am.legal_actions(state)
        if a["type"] == "sail" and a["to"] not in anchors and a["to"] != anchor
    )
    play(state, {"type": "sail", "ship": 0, "to": to, "post": False}, log=log)
    with translation.override(language):
        lines = [ui.describe_event(e, NAMES) for e in log if e["event"] == "sail"]
    assert lines == [
        stays.format(anchor=field_name(anchor, cols), island=island),
        sails.format(to=field_name(to, cols)),
    ]


def test_the_disc_on_top_of_a_field_is_drawn_highest():
    """On the special-action track the upper disc of a field goes first: it is drawn above."""
    state = am.new_game(2, seed=4)
    state.order_track = [[] for _ in state.order_track]
    for bottom, top in ((0, 1), (1, 0)):
        state.order_track[3] = [bottom, top]
        track = get_game("amerigo").seat_board_context(state, 0, NAMES[:2])["am"]["tracks"][-1]
        discs = track["fields"][3]["discs"]
        assert [d["seat"] for d in sorted(discs, key=lambda d: d["dy"])] == [top, bottom]


RULES_PAGE = {
    "en": [
        "The first time you choose shipping, you put both ships on frame fields, free, "
        "before the action ends; as in the rulebook's example, the second may follow the "
        "first one's voyage.",
        "Gold buys AP even when a track's end leaves no room for them: a disc at the end of "
        "the cannon, progress or special-action track with AP left over brings 2 gold, "
        "however many AP lapse.",
    ],
    "de": [
        "Wer zum ersten Mal die Schifffahrt wählt, setzt beide Schiffe kostenlos auf Felder "
        "des Rahmens, bevor die Aktion endet; wie im Beispiel der Spielregel darf das zweite "
        "auch erst nach der Fahrt des ersten eingesetzt werden.",
        "Gold kauft AP auch dann, wenn das Ende einer Leiste keinen Platz mehr für sie hat: "
        "Eine Zählscheibe am Ende der Kanonen-, Fortschritts- oder Sonderaktionsleiste mit "
        "übrigen AP bringt 2 Gold, unabhängig davon, wie viele AP verfallen.",
    ],
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_rules_page_tells_the_ships_on_the_frame_and_the_gold_at_a_tracks_end(client, language):
    with translation.override(language):
        page = client.get(reverse("games:rules", args=["amerigo"]), HTTP_ACCEPT_LANGUAGE=language)
    text = html.unescape(page.content.decode())
    for rule in RULES_PAGE[language]:
        assert rule in text


def done_label(page: str) -> str:
    return next(
        html.unescape(label)
        for value, label in re.findall(r'value="([^"]*)"[^>]*>([^<]*)</button>', page)
        if json.loads(html.unescape(value)) == {"type": "done"}
    )


def test_after_a_voyage_of_all_its_ap_shipping_does_not_call_the_ap_unused():
    """A voyage spends none of the action's AP (each ship sails as far as they reach): the
    end of shipping names the ships that have not sailed, never "4 AP unused" after a ship
    sailed 4 fields, and the ships' reach stays told."""
    state = position(field={"blue": 4})
    frame = state.map.frame
    state.players[0].ships = [frame[0], frame[-1]]
    state = play(state, {"type": "choose", "colour": "blue"})
    assert state.act["ap"] == 4
    page = render(state, 0)
    assert done_label(page) == "End the action (no ship has sailed)"
    assert "shipping: each ship may sail up to 4 fields" in page
    far = next(
        a
        for a in am.legal_actions(state)
        if a["type"] == "sail"
        and a["ship"] == 0
        and not a["post"]
        and len(voyage(state, frame[0], a["to"])) == 5
    )
    state = play(state, far)
    page = render(state, 0)
    assert "unused" not in done_label(page)
    assert done_label(page) == "End the action (ship 2 has not sailed)"
    assert "shipping: ship 2 may sail up to 4 fields" in page
    state = play(state, {"type": "sail", "ship": 1, "to": frame[-1], "post": False})
    page = render(state, 0)
    assert done_label(page) == "End the action"
    assert "shipping: both ships have sailed" in page


def test_an_island_is_drawn_as_one_rounded_outline_a_lake_left_open():
    """``outline``: one ring per shape with a corner per turn of the coast; a ring of fields
    round a lake gets a second ring, running the other way, so the lake stays water."""
    cols = 10
    ell = [0, 10, 11]  # A1, A2, B2: an L of 3 fields has 6 corners
    path = outline(ell, cols, 6)
    assert path.count("M") == 1 and path.count("Q") == 6
    ring = [r * cols + c for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    rings = outline(ring, cols, 0).split("Z")[:-1]
    assert len(rings) == 2

    def area(ring_path: str) -> int:
        points = [tuple(map(int, p.split())) for p in re.findall(r"[ML](-?\d+ -?\d+)", ring_path)]
        return sum(
            x0 * y1 - x1 * y0
            for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True)
        )

    assert area(rings[0]) * area(rings[1]) < 0  # opposite ways round


def test_a_voyage_is_drawn_along_water_fields_from_the_ship():
    state, _post, anchor = sailing_state()
    page = render(state, 0)
    cols = state.map.cols
    ways = re.findall(r'value="([^"]*)"[^>]*data-way="([^"]*)"', page)
    assert ways
    for value, way in ways:
        action = json.loads(html.unescape(value))
        cells = voyage(state, anchor, action["to"])
        assert cells[0] == anchor and cells[-1] == action["to"]
        assert all(state.map.is_water(c) for c in cells[1:])
        assert all(b in state.map.neighbours[a] for a, b in itertools.pairwise(cells))
        assert len(way.split()) == len(cells)
        x, y = map(int, way.split()[-1].split(","))
        assert (x, y) == (14 + action["to"] % cols * 20 + 10, 14 + action["to"] // cols * 20 + 10)
    # The ship's own field says whose ship it is, so a click on it picks the ship.
    assert f'data-field="{anchor}" data-ship="1"' in page


def test_the_tracks_are_drawn_at_one_scale_in_one_row_and_in_two():
    state = am.new_game(4, seed=3)
    tracks = get_game("amerigo").seat_board_context(state, 0, [*NAMES, "Dora"])["am"]["tracks"]
    fields = PROGRESS_TRACK_END + 1  # the longest track; in two rows on a phone
    half = -(-fields // 2)
    for k, longest in ((0, fields), (1, half)):
        drawings = [t["drawings"][k] for t in tracks]
        assert max(d["share"] for d in drawings) == 100
        progress = drawings[1]
        assert progress["width"] == 4 + longest * 30
        cannon = drawings[0]
        assert cannon["share"] == round(100 * cannon["width"] / progress["width"])
    narrow = tracks[1]["drawings"][1]["fields"]
    assert {f["y"] for f in narrow[:half]} != {f["y"] for f in narrow[half:]}
    assert all(f["x"] + 28 <= tracks[1]["drawings"][1]["width"] for f in narrow)
