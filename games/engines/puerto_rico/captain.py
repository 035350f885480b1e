"""Captain phase: loading goes round from the captain until nobody can load; then each seat
stores what it may keep, and the captain empties the full ships.

On his turn a seat must load if it can: one kind, as many barrels as fit. A kind already on a
ship goes only on that ship; a kind on no ship goes on an empty ship, the one that takes the
most of it (any of them when several take as many). An occupied wharf ships all barrels of one
kind instead, once a phase. 1 VP per barrel, +1 per loading turn with an occupied harbor, +1
once for the captain when he first loads. The Nobles' Royal supplier acts on its owner's first
turn, before he loads: a barrel per noble, of different kinds, for 1 VP each.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .actions import PASS, Action, IllegalAction, Load, RoyalSupplier, Store, Wharf
from .common import award_vp, finish_phase
from .data import ALL_GOODS, GOODS, MAX_SHIPS, WHARF_CAPACITY
from .powers import HOOKS, LOADING_VP, NOBLES_FOR_GOODS, OWN_SHIP, STORAGE_KINDS, has, total
from .state import Player, Ship, State

_WHARF = [Wharf(g) for g in ALL_GOODS]
_LOADS = {(g, s): Load(g, s) for g in ALL_GOODS for s in range(MAX_SHIPS)}
_OWN_SHIP = HOOKS[OWN_SHIP]
_LOADING_VP = HOOKS[LOADING_VP]
_STORAGE_KINDS = HOOKS[STORAGE_KINDS]
_NOBLES_FOR_GOODS = HOOKS[NOBLES_FOR_GOODS]


def start(state: State, log: list[dict] | None) -> None:
    state.phase = "captain"
    state.idle = 0
    state.captain_bonus = False
    state.wharf_used = [False] * state.num_players
    state.supplier_ready = [True] * state.num_players
    _advance(state, state.chooser, log)


def ships_for(ships: Sequence[Sequence], good: int, have: int) -> list[int]:
    """The ships (``state.ships``, or a copy a bot plays ahead on) that a seat holding
    ``have`` barrels of ``good`` may load them on."""
    empty = []
    for i, (cap, g, n) in enumerate(ships):
        if g == good:
            return [i] if n < cap else []
        if g is None:
            empty.append((min(cap, have), i))
    if not empty:
        return []
    best = max(e[0] for e in empty)
    return [i for amount, i in empty if amount == best]


def _loads(state: State, seat: int) -> list[Action]:
    pl = state.players[seat]
    return [
        _LOADS[g, s]
        for g in ALL_GOODS
        if pl.goods[g]
        for s in ships_for(state.ships, g, pl.goods[g])
    ]


def _wharfs(state: State, seat: int) -> list[Action]:
    pl = state.players[seat]
    if state.wharf_used[seat] or not has(pl, _OWN_SHIP):
        return []
    return [_WHARF[g] for g in ALL_GOODS if pl.goods[g]]


def _supplies(state: State, seat: int) -> list[Action]:
    """The Royal supplier's choices: before the seat's first load, up to one barrel per
    noble it has, all of different kinds."""
    pl = state.players[seat]
    if not state.supplier_ready[seat] or not has(pl, _NOBLES_FOR_GOODS):
        return []
    held = [g for g in ALL_GOODS if pl.goods[g]]
    most = min(pl.nobles(), len(held))
    return [RoyalSupplier(c) for size in range(1, most + 1) for c in combinations(held, size)]


def legal(state: State) -> list[Action]:
    if state.phase == "storage":
        return storage_choices(state.players[state.current])
    seat = state.current
    supplies = _supplies(state, seat)
    loads = _loads(state, seat)
    wharfs = _wharfs(state, seat)
    return supplies + loads + wharfs if loads else [*supplies, *wharfs, PASS]


def check(state: State, action: Action) -> None:
    if state.phase == "storage":
        _check_store(state, action)
        return
    seat = state.current
    pl = state.players[seat]
    t = action.type
    if t == "pass":
        if _loads(state, seat):
            raise IllegalAction("must_load")
        return
    if t == "royal_supplier":
        _check_supplier(state, action)
        return
    if t == "wharf":
        if not has(pl, _OWN_SHIP):
            raise IllegalAction("no_wharf")
        if state.wharf_used[seat]:
            raise IllegalAction("wharf_used")
        if not pl.goods[action.good]:
            raise IllegalAction("no_good", good=GOODS[action.good])
        return
    if t != "load":
        raise IllegalAction("wrong_action", phase=state.phase)
    g, i = action.good, action.ship
    if not pl.goods[g]:
        raise IllegalAction("no_good", good=GOODS[g])
    if i >= len(state.ships):
        raise IllegalAction("no_ship", ship=i)
    allowed = ships_for(state.ships, g, pl.goods[g])
    if i not in allowed:
        cap, on, n = state.ships[i]
        if on is not None and on != g:
            raise IllegalAction("ship_has_other_good", capacity=cap, good=GOODS[on])
        if n >= cap:
            raise IllegalAction("ship_full", capacity=cap)
        if any(s[1] == g for s in state.ships):
            raise IllegalAction("good_on_other_ship", good=GOODS[g])
        raise IllegalAction("not_largest_ship")


def _check_supplier(state: State, action: RoyalSupplier) -> None:
    seat = state.current
    pl = state.players[seat]
    if not has(pl, _NOBLES_FOR_GOODS):
        raise IllegalAction("no_royal_supplier")
    if not state.supplier_ready[seat]:
        raise IllegalAction("supplier_not_now")
    goods = action.goods
    nobles = pl.nobles()
    if not goods or len(set(goods)) != len(goods) or len(goods) > nobles:
        raise IllegalAction("supplier_barrels", nobles=nobles)
    for g in goods:
        if not pl.goods[g]:
            raise IllegalAction("no_good", good=GOODS[g])


def _play_supplier(state: State, action: RoyalSupplier, log: list[dict] | None) -> None:
    """Barrels back to the supply for 1 VP each, no other bonus; then the seat loads if it
    can, else its turn is over."""
    seat = state.current
    pl = state.players[seat]
    state.supplier_ready[seat] = False
    for g in action.goods:
        pl.goods[g] -= 1
        state.goods[g] += 1
    vp = len(action.goods)
    if log is not None:
        log.append(
            {
                "event": "royal_supplier",
                "seat": seat,
                "goods": [GOODS[g] for g in action.goods],
                "vp": vp,
            }
        )
    award_vp(state, seat, vp, log)
    if not (_loads(state, seat) or _wharfs(state, seat)):
        state.idle += 1
        _advance(state, (seat + 1) % state.num_players, log)


def play(state: State, action: Action, log: list[dict] | None) -> None:
    if state.phase == "storage":
        _play_store(state, action, log)
        return
    seat = state.current
    pl = state.players[seat]
    t = action.type
    if t == "royal_supplier":
        _play_supplier(state, action, log)
        return
    if t == "pass":
        if log is not None:
            if _wharfs(state, seat):
                log.append({"event": "wharf_declined", "seat": seat})
            if _supplies(state, seat):
                log.append({"event": "royal_supplier_declined", "seat": seat})
        state.supplier_ready[seat] = False
        state.idle += 1
        _advance(state, (seat + 1) % state.num_players, log)
        return
    state.supplier_ready[seat] = False
    g = action.good
    if t == "load":
        ship = state.ships[action.ship]
        n = min(pl.goods[g], ship.capacity - ship.count)
        state.ships[action.ship] = Ship(ship.capacity, g, ship.count + n)
        where = {"event": "load", "capacity": ship.capacity}
    else:
        n = min(pl.goods[g], WHARF_CAPACITY)
        state.goods[g] += n
        state.wharf_used[seat] = True
        where = {"event": "wharf"}
    pl.goods[g] -= n
    vp = n
    harbor = total(pl, _LOADING_VP, n)
    captain = 1 if seat == state.chooser and not state.captain_bonus else 0
    if captain:
        state.captain_bonus = True
    if log is not None:
        log.append(
            {
                **where,
                "seat": seat,
                "good": GOODS[g],
                "barrels": n,
                "vp": vp + harbor + captain,
                "harbor": bool(harbor),
                "captain": bool(captain),
            }
        )
    award_vp(state, seat, vp + harbor + captain, log)
    state.idle = 0
    _advance(state, (seat + 1) % state.num_players, log)


def _advance(state: State, seat: int, log: list[dict] | None) -> None:
    """The next seat that can load (or use its wharf); after a full round without a load the
    loading is over."""
    n = state.num_players
    while state.idle < n:
        if _loads(state, seat) or _wharfs(state, seat) or _supplies(state, seat):
            state.current = seat
            return
        state.supplier_ready[seat] = False
        state.idle += 1
        seat = (seat + 1) % n
    state.phase = "storage"
    state.turn = 0
    _advance_storage(state, log)


# Storage ---------------------------------------------------------------------------------


def warehouse_kinds(pl: Player) -> int:
    """Kinds of goods the player keeps whole (occupied warehouses)."""
    return total(pl, _STORAGE_KINDS)


def storage_choices(pl: Player) -> list[Action]:
    """Each different outcome of keeping as much as the rules allow.

    A seat keeps whole kinds in its warehouses and one more barrel on its windrose; which
    kinds and which barrel is its choice. Choices that keep the same barrels are listed once.
    """
    held = [g for g in ALL_GOODS if pl.goods[g]]
    size = min(warehouse_kinds(pl), len(held))
    seen = set()
    out: list[Action] = []
    for kept in combinations(held, size):
        rest = [g for g in held if g not in kept]
        for windrose in rest or [None]:
            outcome = (kept, windrose) if rest else (kept, None)
            key = tuple(
                pl.goods[g] if g in kept else (1 if g == windrose else 0) for g in ALL_GOODS
            )
            if key not in seen:
                seen.add(key)
                out.append(Store(outcome[1], outcome[0]))
    return out


def _keeps_everything(pl: Player) -> bool:
    held = [n for n in pl.goods if n]
    spare = len(held) - warehouse_kinds(pl)
    return spare <= 0 or (spare == 1 and 1 in held)


def _check_store(state: State, action: Action) -> None:
    if action.type != "store":
        raise IllegalAction("wrong_action", phase=state.phase)
    pl = state.players[state.current]
    room = warehouse_kinds(pl)
    held = {g for g in ALL_GOODS if pl.goods[g]}
    if len(set(action.warehouse)) != len(action.warehouse):
        raise IllegalAction("warehouse_twice")
    if len(action.warehouse) > room:
        raise IllegalAction("warehouse_too_small", kinds=room)
    for g in (*action.warehouse, action.windrose):
        if g is not None and g not in held:
            raise IllegalAction("no_good", good=GOODS[g])
    if action.windrose in action.warehouse:
        raise IllegalAction("windrose_in_warehouse")
    if len(action.warehouse) < min(room, len(held)):
        raise IllegalAction("warehouse_not_filled")
    if action.windrose is None and held - set(action.warehouse):
        raise IllegalAction("windrose_empty")


def _play_store(state: State, action: Store, log: list[dict] | None) -> None:
    seat = state.current
    _store(state, seat, action, log)
    state.turn += 1
    _advance_storage(state, log)


def _store(state: State, seat: int, action: Store, log: list[dict] | None) -> None:
    pl = state.players[seat]
    lost = {}
    for g in ALL_GOODS:
        keep = pl.goods[g] if g in action.warehouse else (1 if g == action.windrose else 0)
        if pl.goods[g] > keep:
            lost[GOODS[g]] = pl.goods[g] - keep
            state.goods[g] += pl.goods[g] - keep
            pl.goods[g] = keep
    if log is not None and lost:
        log.append({"event": "goods_returned", "seat": seat, "goods": lost})


def _advance_storage(state: State, log: list[dict] | None) -> None:
    """Seats that keep everything, or whose choices all keep the same, need not decide."""
    n = state.num_players
    while state.turn < n:
        seat = state.seat(state.turn)
        pl = state.players[seat]
        if not _keeps_everything(pl):
            choices = storage_choices(pl)
            if len(choices) > 1:
                state.current = seat
                return
            _store(state, seat, choices[0], log)
        state.turn += 1
    for i, ship in enumerate(state.ships):
        if ship.count == ship.capacity:
            state.goods[ship.good] += ship.count
            if log is not None:
                log.append(
                    {
                        "event": "ship_emptied",
                        "capacity": ship.capacity,
                        "good": GOODS[ship.good],
                        "barrels": ship.count,
                    }
                )
            state.ships[i] = Ship(ship.capacity, None, 0)
    finish_phase(state)
