"""New Buildings: the guest house's guests.

In the mayor phase the owner may put up to two colonists in his guest house (its two
circles). Later, "zu Beginn, während oder am Ende jeder späteren Phase", he may move a guest
to any empty circle of his island or city, where it works at once. The engine offers the move
whenever the owner is the seat to decide (``MoveGuest`` besides the phase's actions); a move
does not end his turn.

An owner who is not asked in a phase would miss moves the rule gives him, so the game stops
for *guest windows* (phase ``guests``) at the points where a guest can matter: the start of
every phase but the mayor's, the end of the captain phase before storage, and the end of the
game before scoring. Each seat with a guest and a free circle is asked in turn; it moves any
number of guests, or goes on with ``Pass``.

With both expansions a noble may be a guest too; it moves as a noble (``MoveGuest.noble``).
"""

from __future__ import annotations

from . import common  # a module, not names: common imports this module too
from .actions import COLONIST, NOBLE, Action, IllegalAction, MoveGuest
from .data import BUILDINGS, GUEST_HOUSE, ISLAND_INDEX, ISLAND_KINDS
from .powers import HOOKS, MOVE_GUESTS, has
from .state import Player, State

NO_MOVES = ("mayor", "draft", "over")
"""Phases without guest moves: the mayor phase places every colonist anew."""
STORAGE = "storage"
"""Where the window at the end of the captain phase leads: storing the goods."""
GAME_END = "game_end"
"""Where the window at the end of the game leads: the round's end, then final scoring."""
_MOVE_GUESTS = HOOKS[MOVE_GUESTS]
_MOVES = {name: MoveGuest(name) for name in (*ISLAND_KINDS, *BUILDINGS)}
_NOBLE_MOVES = {name: MoveGuest(name, True) for name in (*ISLAND_KINDS, *BUILDINGS)}


def _free(pl: Player, place: str) -> bool:
    kind = ISLAND_INDEX.get(place)
    if kind is not None:
        return pl.worked[kind] < pl.tiles[kind]
    return (
        place != GUEST_HOUSE
        and pl.city.get(place, BUILDINGS[place].circles) < BUILDINGS[place].circles
    )


def legal(state: State) -> list[Action]:
    return _moves(state.players[state.current])


def _moves(pl: Player) -> list[Action]:
    if not pl.city.get(GUEST_HOUSE) or not has(pl, _MOVE_GUESTS):
        return []
    places = [k for k in ISLAND_KINDS if pl.tiles[ISLAND_INDEX[k]]] + list(pl.city)
    places = [p for p in places if _free(pl, p)]
    nobles = pl.noble_city.get(GUEST_HOUSE, 0)
    moves = [_MOVES[p] for p in places] if pl.city[GUEST_HOUSE] > nobles else []
    if nobles:
        moves += [_NOBLE_MOVES[p] for p in places]
    return moves


def check(state: State, action: MoveGuest) -> None:
    if state.phase in NO_MOVES:
        raise IllegalAction("no_guest_moves_now")
    pl = state.players[state.current]
    if not has(pl, _MOVE_GUESTS):
        raise IllegalAction("no_guests")
    nobles = pl.noble_city.get(GUEST_HOUSE, 0)
    if action.noble and not nobles:
        raise IllegalAction("no_noble_guest")
    if not action.noble and pl.city[GUEST_HOUSE] == nobles:
        raise IllegalAction("no_guests")
    if action.to in BUILDINGS and action.to not in pl.city:
        raise IllegalAction("no_building", building=action.to)
    if not _free(pl, action.to):
        raise IllegalAction("no_free_circle", place=action.to)


def play(state: State, action: MoveGuest, log: list[dict] | None) -> None:
    seat = state.current
    pl = state.players[seat]
    pl.city[GUEST_HOUSE] -= 1
    kind = ISLAND_INDEX.get(action.to)
    if kind is None:
        pl.city[action.to] += 1
    else:
        pl.worked[kind] += 1
        if kind == state.drawn and pl.worked[kind] == pl.tiles[kind]:
            # The kind's last free tile is the one just drawn (older ones are taken first).
            state.drawn_guest = NOBLE if action.noble else COLONIST
            common.show_drawn(state, log)
    if action.noble:
        _move_noble(pl, kind, action.to)
    if log is not None:
        log.append({"event": "guest_moved", "seat": seat, "to": action.to, "noble": action.noble})


def _move_noble(pl: Player, kind: int | None, to: str) -> None:
    noble_city = pl.noble_city
    noble_city[GUEST_HOUSE] -= 1
    if not noble_city[GUEST_HOUSE]:
        del noble_city[GUEST_HOUSE]
    if kind is None:
        noble_city[to] = noble_city.get(to, 0) + 1
    else:
        pl.noble_worked[kind] += 1


# Guest windows ---------------------------------------------------------------------------


def open_windows(state: State, first: int, then: str) -> bool:
    """Ask each seat, clockwise from ``first``, that can move a guest, before the game goes
    on to ``then`` (a role's phase, ``STORAGE`` or ``GAME_END``). False, the state untouched,
    when no seat can: the caller goes on at once."""
    n = state.num_players
    if GUEST_HOUSE not in state.buildings or not any(  # the usual cases, first
        GUEST_HOUSE in pl.city for pl in state.players
    ):
        state.guests_queue = ()
        state.guests_then = None
        return False
    return _ask(state, tuple((first + i) % n for i in range(n)), then)


def close_window(state: State) -> bool:
    """The seat asked is done; ask the next seat that can move a guest. False when none is
    left: the caller goes on to ``state.guests_then``."""
    return _ask(state, state.guests_queue, state.guests_then)


def _ask(state: State, seats: tuple[int, ...], then: str | None) -> bool:
    players = state.players
    for i, seat in enumerate(seats):
        pl = players[seat]
        if pl.city.get(GUEST_HOUSE) and _moves(pl):  # the first test is the cheap one
            state.phase = "guests"
            state.current = seat
            state.guests_queue = seats[i + 1 :]
            state.guests_then = then
            return True
    state.guests_queue = ()
    state.guests_then = None
    return False
