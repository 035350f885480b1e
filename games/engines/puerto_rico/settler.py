"""Settler phase: each seat in turn may take a face-up plantation (the settler or an occupied
construction hut: a quarry instead); an occupied hacienda first draws a face-down one; an
occupied hospice puts a colonist on the new tile. Then the row is discarded and refilled."""

from __future__ import annotations

import random

from .actions import COLONIST, FOREST, HACIENDA, PASS, Action, IllegalAction, Settle
from .common import (
    award_vp,
    check_discard,
    colonist_available,
    discard_choices,
    discard_plantation,
    draw_plantation,
    finish_phase,
    forget_drawn,
    lay_drawn_forest,
    lay_forest,
    next_seat_to_decide,
    privileges,
    take_colonist,
    uses_nobles,
)
from .data import ALL_ISLAND_KINDS, ISLAND_KINDS, ISLAND_SPACES, QUARRY
from .powers import (
    COLONIST_WITH_TILE,
    DRAW_FACE_DOWN,
    EMPTIEST_ISLAND_VP,
    HOOKS,
    LAY_FOREST,
    RETURN_PLANTATION,
    SETTLE_QUARRY,
    has,
    total,
)
from .state import State

_DRAW_FACE_DOWN = HOOKS[DRAW_FACE_DOWN]
_SETTLE_QUARRY = HOOKS[SETTLE_QUARRY]
_COLONIST_WITH_TILE = HOOKS[COLONIST_WITH_TILE]
_LAY_FOREST = HOOKS[LAY_FOREST]
_RETURN_PLANTATION = HOOKS[RETURN_PLANTATION]
_EMPTIEST_ISLAND_VP = HOOKS[EMPTIEST_ISLAND_VP]
_SETTLE = {
    (k, hospice, forest): Settle(k, hospice, forest)
    for k in ALL_ISLAND_KINDS
    for hospice in (False, True)
    for forest in (False, True)
}
"""Every ``Settle``, made once: the settler's choices are listed at every turn."""


def _library_turn(state: State) -> bool:
    """The settler's second turn with an occupied library, after every other seat."""
    return state.turn >= state.num_players


def start(state: State, log: list[dict] | None) -> None:
    state.phase = "settler"
    state.turn = 0
    state.hacienda_used = False
    _advance(state, log)


def _can_hacienda(state: State, seat: int) -> bool:
    pl = state.players[seat]
    return (
        not state.hacienda_used
        and not _library_turn(state)
        and has(pl, _DRAW_FACE_DOWN)
        and bool(state.stack)
        and pl.island_filled() < ISLAND_SPACES
    )


def _may_quarry(state: State, seat: int) -> bool:
    settler = seat == state.chooser and not _library_turn(state)
    return state.quarries > 0 and (settler or has(state.players[seat], _SETTLE_QUARRY))


def legal(state: State) -> list[Action]:
    if state.phase == "hunting_lodge":
        return [*discard_choices(state.players[state.current], forests=True), PASS]
    seat = state.current
    pl = state.players[seat]
    actions: list[Action] = []
    if _can_hacienda(state, seat):
        actions.append(HACIENDA)
    forest = has(pl, _LAY_FOREST)
    if forest and state.drawn is not None:
        actions.append(FOREST)
    if pl.island_filled() < ISLAND_SPACES:
        hospice = (
            has(pl, _COLONIST_WITH_TILE) and colonist_available(state) and not _library_turn(state)
        )
        kinds = sorted(set(state.face_up))
        if _may_quarry(state, seat):
            kinds.append(QUARRY)
        for k in kinds:
            actions.append(_SETTLE[k, False, False])
            if hospice:
                actions.append(_SETTLE[k, True, False])
            if forest and k != QUARRY:
                actions.append(_SETTLE[k, False, True])
                if hospice:
                    actions.append(_SETTLE[k, True, True])
    actions.append(PASS)
    return actions


def check(state: State, action: Action) -> None:
    seat = state.current
    pl = state.players[seat]
    if state.phase == "hunting_lodge":
        if action.type == "discard_plantation":
            check_discard(pl, action, forests=True)
        elif action.type != "pass":
            raise IllegalAction("wrong_action", phase=state.phase)
        return
    if action.type == "hacienda":
        if not has(pl, _DRAW_FACE_DOWN):
            raise IllegalAction("no_hacienda")
        if state.hacienda_used:
            raise IllegalAction("hacienda_used")
        if not state.stack:
            raise IllegalAction("stack_empty")
        if pl.island_filled() >= ISLAND_SPACES:
            raise IllegalAction("island_full")
        if _library_turn(state):
            raise IllegalAction("hacienda_used")
        return
    if action.type == "forest":
        if not has(pl, _LAY_FOREST):
            raise IllegalAction("no_forest_house")
        if state.drawn is None:
            raise IllegalAction("nothing_drawn")
        return
    if action.type == "pass":
        return
    if action.type != "settle":
        raise IllegalAction("wrong_action", phase=state.phase)
    if pl.island_filled() >= ISLAND_SPACES:
        raise IllegalAction("island_full")
    if action.tile == QUARRY:
        if action.forest:
            raise IllegalAction("quarry_no_forest")
        if _library_turn(state) and not has(pl, _SETTLE_QUARRY):
            raise IllegalAction("library_no_quarry")
        if seat != state.chooser and not has(pl, _SETTLE_QUARRY):
            raise IllegalAction("quarry_not_allowed")
        if state.quarries == 0:
            raise IllegalAction("quarries_gone")
    elif action.tile not in state.face_up:
        raise IllegalAction("plantation_not_face_up", tile=ISLAND_KINDS[action.tile])
    if action.forest and not has(pl, _LAY_FOREST):
        raise IllegalAction("no_forest_house")
    if action.hospice:
        if not has(pl, _COLONIST_WITH_TILE):
            raise IllegalAction("no_hospice")
        if _library_turn(state):
            raise IllegalAction("library_no_hospice")
        if not colonist_available(state):
            raise IllegalAction("no_colonist")


def play(state: State, action: Action, log: list[dict] | None) -> None:
    seat = state.current
    pl = state.players[seat]
    if state.phase == "hunting_lodge":
        _play_hunting_lodge(state, action, log)
        return
    if action.type == "hacienda":
        state.hacienda_used = True
        draw_plantation(state, "hacienda", log)
        return
    if action.type == "forest":
        lay_drawn_forest(state, log)
        return
    if action.type == "settle":
        kind = action.tile
        if kind == QUARRY:
            state.quarries -= 1
        else:
            state.face_up.remove(kind)
        pl.tiles[kind] += 1
        colonist = action.hospice and take_colonist(state)
        if colonist:
            pl.worked[kind] += 1
        if log is not None:
            log.append(
                {
                    "event": "settle",
                    "seat": seat,
                    "tile": ISLAND_KINDS[kind],
                    "colonist": bool(colonist),
                }
            )
        if action.forest:
            lay_forest(state, seat, kind, COLONIST if colonist else None, log)
    elif log is not None:
        log.append({"event": "settle_nothing", "seat": seat})
    state.turn += 1
    state.hacienda_used = False
    forget_drawn(state, log)
    _advance(state, log)


def _advance(state: State, log: list[dict] | None) -> None:
    """Seats with nothing to take (island full, row and quarries out) are passed over; a
    settler with an occupied library then takes one more tile."""
    if next_seat_to_decide(state, _has_choice):
        return
    if (
        state.turn == state.num_players
        and privileges(state, state.chooser) == 2
        and _has_choice(state, state.chooser)
    ):
        state.current = state.chooser
        return
    if uses_nobles(state):
        state.phase = "hunting_lodge"
        state.turn = 0
        _advance_hunting_lodges(state, log)
        return
    _end(state, log)


def _end(state: State, log: list[dict] | None) -> None:
    _refill(state)
    if log is not None:
        log.append(
            {"event": "plantations_drawn", "tiles": [ISLAND_KINDS[k] for k in state.face_up]}
        )
    finish_phase(state)


# Hunting lodge (the Nobles): after every seat has settled, before the row is discarded.


def _play_hunting_lodge(state: State, action: Action, log: list[dict] | None) -> None:
    seat = state.current
    if action.type == "discard_plantation":
        discard_plantation(state, seat, action, "hunting_lodge", log)
    elif log is not None:
        log.append({"event": "hunting_lodge_declined", "seat": seat})
    state.turn += 1
    _advance_hunting_lodges(state, log)


def _advance_hunting_lodges(state: State, log: list[dict] | None) -> None:
    """Seats with a colonist on a Hunting lodge may return a plantation, from the settler;
    then a noble on a Hunting lodge scores if its owner has strictly the most empty spaces."""
    if next_seat_to_decide(state, _may_return):
        return
    state.phase = "settler"
    empty = [ISLAND_SPACES - pl.island_filled() for pl in state.players]
    most = max(empty)
    if empty.count(most) == 1:
        seat = empty.index(most)
        vp = total(state.players[seat], _EMPTIEST_ISLAND_VP)
        if vp:
            if log is not None:
                log.append({"event": "hunting_lodge_vp", "seat": seat, "vp": vp})
            award_vp(state, seat, vp, log)
    _end(state, log)


def _may_return(state: State, seat: int) -> bool:
    pl = state.players[seat]
    return has(pl, _RETURN_PLANTATION) and (
        any(pl.tiles[k] for k in range(QUARRY)) or any(pl.forest_kinds)
    )


def _has_choice(state: State, seat: int) -> bool:
    return state.players[seat].island_filled() < ISLAND_SPACES and bool(
        state.face_up or _may_quarry(state, seat) or _can_hacienda(state, seat)
    )


def _refill(state: State) -> None:
    """Discard the row and draw one more than the players, reshuffling the discards if short."""
    state.discards.extend(state.face_up)
    state.face_up = []
    want = state.num_players + 1
    while len(state.face_up) < want:
        if not state.stack:
            if not state.discards:
                break
            shuffle(state, state.discards)
            state.stack, state.discards = state.discards, []
        state.face_up.append(state.stack.pop())
    state.face_up.sort()


def shuffle(state: State, tiles: list[int]) -> None:
    """All randomness comes from the state's own seed, so replays are exact."""
    rng = random.Random(state.rng)
    rng.shuffle(tiles)
    state.rng = rng.getrandbits(63)
