"""A game's history, in one place: the state after any version, the log told in the reader's
language, what an undo would take back, the score chart and the replay's steps.

No page replays a game from its start. ``Game.state`` is the last position, and a
``Position`` keeps the state after every ``POSITION_EVERY``-th version, after each undo and
wherever the round changed, written in the transaction of the move. The state after any
version is the nearest position at or before it and the moves after that: fewer than
``POSITION_EVERY``, and no undo among them (an undo has its own position). The positions where
the round changed are the points of the score chart, and a finished game keeps its chart
(``Game.round_scores``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext

from games import charts
from games.models import Game, Move, Position, Seat
from games.ui import describe_event

POSITION_EVERY = 20
"""Versions between two kept positions at most: the most moves any history replays."""


class ReplayError(ValueError):
    """A move that does not replay: refused by the engine (``code`` and ``params`` as its
    refusal), played by the wrong seat, or an undo of moves that are not the latest."""

    def __init__(self, version: int, message: str, code: str = "", params=None) -> None:
        super().__init__(message)
        self.version, self.message, self.code, self.params = version, message, code, params or {}


class NoUndo(Exception):
    """Why a seat has nothing to take back, in the reader's language."""


def undo_log(position: int, moves: int) -> list[dict]:
    """An undo's log: the platform's own event, told by ``games.ui.describe_event``."""
    return [{"event": "undo", "seat": position, "moves": moves}]


# Replaying moves -----------------------------------------------------------------------------


def replay_steps(rules, initial, moves) -> Iterator[tuple[Any, list[dict]]]:
    """The state after each move, with the events the engine tells of it, from the
    ``initial`` state (the engine's, not JSON). ``moves`` are (version, kind, seat position,
    action JSON) in order. An undo takes back the latest moves still standing, the versions
    its action lists, and the state goes back to before the first of them. A move that does
    not replay raises ``ReplayError``."""
    standing: list[tuple[int, Any]] = []  # (version, state before it) of moves not taken back
    state = initial
    for version, kind, position, action in moves:
        if kind == Move.Kind.UNDO:
            taken = action.get("undo") if isinstance(action, dict) else None
            is_list = isinstance(taken, list) and bool(taken)
            latest = [v for v, _ in standing[-len(taken) :]] if is_list else None
            if not is_list or latest != taken:
                raise ReplayError(version, gettext("the undo does not take back the latest moves"))
            state = standing[-len(taken)][1]
            del standing[-len(taken) :]
            yield state, undo_log(position, len(taken))
            continue
        if rules.current_player(state) != position:
            raise ReplayError(version, gettext("it was not that seat's turn"))
        log: list[dict] = []
        try:
            after = rules.apply(state, rules.action_from_json(action), log=log)
        except ValueError as error:  # IllegalAction and MalformedAction
            raise ReplayError(version, str(error), error.code, error.params) from error
        standing.append((version, state))
        state = after
        yield state, log


def stored_moves(game: Game, *, after: int = 0, until: int | None = None) -> list[tuple]:
    """The game's moves as ``replay_steps`` reads them: those after version ``after``, up to
    ``until``."""
    moves = game.moves.filter(version__gt=after).order_by("version")
    if until is not None:
        moves = moves.filter(version__lte=until)
    return list(moves.values_list("version", "kind", "seat__position", "action"))


def state_at(game: Game, version: int):
    """The state after ``version`` (the engine's), from the nearest kept position at or before
    it: at most ``POSITION_EVERY`` moves replayed. ``ReplayError`` if one does not replay."""
    rules = game.rules
    nearest = (
        game.positions.filter(version__lte=version)
        .order_by("-version")
        .values_list("version", "state")
        .first()
    )
    start, state = nearest if nearest is not None else (0, game.initial_state)
    state = rules.from_json(state)
    moves = stored_moves(game, after=start, until=version)
    for after, _events in replay_steps(rules, state, moves):
        state = after
    return state


# Keeping positions as the game is played -----------------------------------------------------


def kept(rules, version: int, kind: str, before, after) -> Position | None:
    """The position after ``version``, a move of ``kind`` from ``before`` to ``after``, if the
    game keeps it: unsaved, its game for the caller to set."""
    new_round = rules.round_number(after) != rules.round_number(before)
    if kind == Move.Kind.UNDO or new_round or version % POSITION_EVERY == 0:
        return Position(version=version, state=rules.to_json(after), new_round=new_round)
    return None


def record_move(game: Game, rules, before, after, *, undo: bool = False) -> None:
    """In the transaction of a move (or an undo) that made ``game.version``: keep its
    position, and when the game is over, its score chart on the game, which the caller
    saves."""
    kind = Move.Kind.UNDO if undo else Move.Kind.ACTION
    position = kept(rules, game.version, kind, before, after)
    if position is not None:
        position.game = game
        position.save()
    if rules.is_over(after):
        game.round_scores = _round_points(game, rules, game.version, after, None, True)


def record_version(game: Game) -> None:
    """A version without a move (a seat changed hands): kept when it falls on a multiple of
    ``POSITION_EVERY`` as well, so that no position is further than that from the last."""
    if game.state is not None and game.version % POSITION_EVERY == 0:
        Position.objects.create(game=game, version=game.version, state=game.state)


def record_replayed(game: Game, rules, positions: list[Position], last) -> None:
    """Keep the ``positions`` (``kept``) of a game stored whole, its moves replayed (an
    import), and, since it is over, its chart: ``last`` is its final state."""
    for position in positions:
        position.game = game
    Position.objects.bulk_create(positions)
    game.round_scores = _round_points(game, rules, game.version, last, None, True)
    game.save(update_fields=["round_scores"])


# Undo ----------------------------------------------------------------------------------------


def standing(moves: Iterable[Move]) -> list[Move]:
    """The moves still standing, in order: each undo takes back the versions it lists (and
    is no decision itself)."""
    out: list[Move] = []
    for move in moves:
        if move.kind == Move.Kind.UNDO:
            taken = set(move.action["undo"])
            out = [m for m in out if m.version not in taken]
        else:
            out.append(move)
    return out


def undoable(game: Game, seat: Seat) -> tuple[list[Move], Any]:
    """The moves an undo by ``seat`` would take back, the seat's last decision and the forced
    moves after it, with the state before them; or ``NoUndo`` saying why there is none:
    another player (or an AI) has acted since, a move among them showed hidden information
    (``reveals`` of the engine), or the moves before them no longer replay (a game begun
    before a rule was read otherwise). The engine replays from the position nearest before
    the decision, then the decision and the forced moves: never the whole game."""
    moves = standing(game.moves.order_by("version").defer("log"))
    taken = []
    while moves and moves[-1].forced:
        taken.insert(0, moves.pop())
    if not moves:
        raise NoUndo(gettext("there is no move of yours to take back"))
    if moves[-1].actor_id is None or moves[-1].actor_id != seat.user_id:
        raise NoUndo(
            gettext("%(name)s has already moved: your move can no longer be taken back")
            % {"name": moves[-1].seat.name}
        )
    taken.insert(0, moves[-1])
    rules = game.rules
    try:
        before = state = state_at(game, taken[0].version - 1)
    except ReplayError as error:
        raise NoUndo(
            gettext("the game's earlier moves no longer replay under today's rules: no undo here")
        ) from error
    for move in taken:
        action = rules.action_from_json(move.action)
        if rules.reveals(state, action):
            raise NoUndo(gettext("that move showed hidden information: it cannot be taken back"))
        state = rules.apply(state, action)
    return taken, before


# The log, the score chart and the replay -----------------------------------------------------


def told(game: Game, events: list[dict], names: list[str]) -> list[str]:
    """One move's events told by the game's UI in the reader's language."""
    return [describe_event(game.engine, event, names) for event in events]


def logged_moves(game: Game):
    """The game's moves as ``log_entries`` reads them, (version, kind, events, forced,
    new_round, actor) newest first: whether the round changed with a move is read from its
    kept position in the same query."""
    changed = Position.objects.filter(game=OuterRef("game"), version=OuterRef("version"))
    return (
        game.moves.annotate(new_round=Exists(changed.filter(new_round=True)))
        .order_by("-version")
        .values_list("version", "kind", "log", "forced", "new_round", "actor_id")
    )


@dataclass(frozen=True)
class Entry:
    """One move of the log as a reader sees it."""

    version: int
    round: int
    """The round it was played in (the engine's ``round_number``)."""
    heading: str
    """The game's heading over it (the role being played), or ""."""
    lines: list[str]
    automatic: bool
    """Played by the site: the seat had one legal action (``Move.forced``)."""


def log_entries(game: Game, names: list[str], moves: list[tuple], round_now: int) -> list[Entry]:
    """``moves`` (``logged_moves``, newest first, the newest the game's last) as entries,
    oldest first. Each move's round is counted back from ``round_now``, the round of the
    state after the newest: a move whose kept position changed the round was played in the
    round before (an undo across a round's end, in the round after). Each entry carries the
    heading of the latest event the game's UI heads (``GameSpec.log_heading``) in its round."""
    rounds, current = [], round_now
    for _version, kind, _log, _forced, new_round, _actor in moves:
        if new_round:
            current += 1 if kind == Move.Kind.UNDO else -1
        rounds.append(current)
    heads = game.spec.log_heading
    entries, heading, last_round = [], "", None
    for (version, _kind, log, forced, _new, _actor), played_in in zip(
        reversed(moves), reversed(rounds), strict=True
    ):
        if played_in != last_round:
            heading, last_round = "", played_in
        for event in log:
            heading = heads(event, names) or heading
        entries.append(Entry(version, played_in, heading, told(game, log, names), forced))
    return entries


def log_groups(entries: list[Entry]) -> list[dict]:
    """``entries`` grouped by round, and within a round by heading, for the templates:
    ``[{"round": n, "parts": [{"heading": ..., "entries": [...]}, ...]}, ...]``."""
    groups: list[dict] = []
    for entry in entries:
        if not groups or groups[-1]["round"] != entry.round:
            groups.append({"round": entry.round, "parts": []})
        parts = groups[-1]["parts"]
        if not parts or parts[-1]["heading"] != entry.heading:
            parts.append({"heading": entry.heading, "entries": []})
        parts[-1]["entries"].append(entry)
    return groups


def _round_points(game: Game, rules, version: int, state, viewer: int | None, over: bool):
    """The chart's points (``charts.round_scores``) through ``version``, whose state is
    ``state``: the rounds' scores are read from the positions where the round changed."""
    changes = game.positions.filter(new_round=True, version__lte=version).order_by("version")
    states = [rules.from_json(game.initial_state)]
    states += [rules.from_json(kept) for kept in changes.values_list("state", flat=True)]
    return charts.round_scores(rules, [*states, state], viewer, everything_known=over)


def _chart(game: Game, points) -> dict | None:
    colours = [s.colour for s in game.seats.all() if s.position is not None]  # in seat order
    return charts.chart(points, game.names(), colours)


def final_chart(game: Game) -> dict | None:
    """A finished game's score chart, as stored when it finished; none for a game whose moves
    did not replay when the charts were first stored."""
    return _chart(game, game.round_scores) if game.round_scores else None


@dataclass(frozen=True)
class Step:
    """The board after one move of a replay, as one viewer sees it."""

    number: int
    """Moves made (0: the start)."""
    last: int
    """Moves in the game."""
    state: Any
    events: list[dict]
    """The events of the step's move."""
    chart: dict | None
    """The scores through this step only: a replay must not give away what came after."""


def replay_step(game: Game, asked: int | None, viewer: int | None) -> Step:
    """The step after the ``asked``-th move (0: the start; none or past the end: the last),
    as the seat ``viewer`` (``None``: a spectator) sees it: every score once the game is over,
    else what the viewer may know. ``ReplayError`` if a move on the way does not replay."""
    moves = game.moves.order_by("version")
    last = moves.count()
    number = last if asked is None else min(max(asked, 0), last)
    version, events = moves.values_list("version", "log")[number - 1] if number else (0, [])
    state = state_at(game, version)
    over = game.status == Game.Status.FINISHED
    points = _round_points(game, game.rules, version, state, viewer, over)
    return Step(number, last, state, events, _chart(game, points))
