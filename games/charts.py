"""The score chart: each player's score at the end of every round, drawn as inline SVG on the
server. Only scores the viewer may know are drawn (``known_scores`` of the engine)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 30
"""The plot's margins, for the axis labels (wide enough for "1500" at the larger size a
phone's stylesheet gives them, ``static/css/site.css``)."""
STROKES = {
    "blue": "#1f5fbf",
    "red": "#c0392b",
    "green": "#2e8b57",
    "yellow": "#b8860b",
    "purple": "#7d3c98",
}
"""Seat colours dark enough to read as lines on white."""


def round_scores(rules, states: Iterable[Any], viewer: int | None, everything_known: bool):
    """(round, scores) at the start (round 0) and at the end of each round, the round under
    way last (a running game). ``everything_known``: the game is over, so its past holds no
    secret any more; otherwise the viewer's ``known_scores`` (``None``: hidden)."""

    def known(state) -> list[int | None]:
        if everything_known:
            return [place.score for place in rules.outcome(state)]
        return rules.known_scores(state, viewer)

    points: list[tuple[int, list[int | None]]] = []
    playing, last = None, None
    for state in states:
        number = rules.round_number(state)
        if playing is None:
            points.append((0, known(state)))
        elif number > playing:  # the first state of a round holds the scores at the last's end
            points.append((playing, known(state)))
        playing, last = number, state
    if last is not None and points[-1][0] != playing:
        points.append((playing, known(last)))
    return points


def chart(
    points: list[tuple[int, list[int | None]]],
    names: list[str],
    colours: list[str],
    *,
    fit: bool = False,
    labels: int | None = None,
    top: int | None = None,
):
    """What ``games/_chart_svg.html`` draws: a line per seat (or per anything: a player's
    rating) with any value known. The axis runs from 0 to the highest value (scores), or with
    ``fit`` around the values drawn (a rating near 1500); ``labels``: at most this many labels
    along the bottom (a rating's games), else one per point (a game's rounds); ``top``: the
    axis ends there whatever the values (a per cent). A label marks the first point of its
    value (a round with several decisions is labelled once, at its first)."""
    if len(points) < 2:
        return None
    values = [v for _, scores in points for v in scores if v is not None]
    low, top = (0, top or max([1, *values])) if not fit else _fitted(values)
    step = (WIDTH - LEFT - RIGHT) / (len(points) - 1)
    firsts = [i for i, (r, _) in enumerate(points) if i == 0 or r != points[i - 1][0]]
    every = -(-len(firsts) // labels) if labels else 1

    def x(i: int) -> float:
        return round(LEFT + i * step, 1)

    def y(value: int) -> float:
        return round(HEIGHT - BOTTOM - (value - low) * (HEIGHT - TOP - BOTTOM) / (top - low), 1)

    lines = []
    for seat, name in enumerate(names):
        values = [scores[seat] for _, scores in points]
        known = [(x(i), y(v)) for i, v in enumerate(values) if v is not None]
        lines.append(
            {
                "name": name,
                "stroke": STROKES.get(colours[seat], "#333"),
                "points": " ".join(f"{px},{py}" for px, py in known),
                "dots": known,
                "values": values,
                "hidden": not known,
            }
        )
    ticks = sorted({low, (low + top) // 2, top})
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "bottom": HEIGHT - BOTTOM,
        "label_y": HEIGHT - 8,
        "rounds": [{"round": r, "x": x(i)} for i, (r, _) in enumerate(points)],
        "labels": [{"text": points[i][0], "x": x(i)} for i in firsts[::every]],
        "ticks": [{"value": t, "y": y(t)} for t in ticks],
        "lines": lines,
    }


FIT_STEP = 50
"""A fitted axis starts and ends on a multiple of this."""


def _fitted(values: list[int]) -> tuple[int, int]:
    return min(values) // FIT_STEP * FIT_STEP, (max(values) // FIT_STEP + 1) * FIT_STEP
