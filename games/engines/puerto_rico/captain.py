"""Captain phase: loading goes round from the captain until nobody can load; then each seat
stores what it may keep, and the captain empties the full ships.

On his turn a seat must load if it can: one kind, as many barrels as fit. A kind already on a
ship goes only on that ship; a kind on no ship goes on an empty ship, the one that takes the
most of it (any of them when several take as many). An occupied wharf ships all barrels of one
kind instead, once a phase. 1 VP per barrel, +1 per loading turn with an occupied harbor, +1
once for the captain when he first loads.

New Buildings: a union hall's VP come when the phase starts (seat by seat from the captain);
a lighthouse pays a doubloon per loading turn and one to the captain; a small wharf ships any
barrels of any kinds once a phase for 1 VP per two; a library doubles the captain's VP; a
storehouse keeps three more barrels of any kinds at the end.

The Nobles: the Royal supplier acts on its owner's first turn, before he loads (the small
wharf included): a barrel per noble, of different kinds, for 1 VP each.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

from . import guests
from .actions import PASS, Action, IllegalAction, Load, RoyalSupplier, SmallWharf, Store, Wharf
from .common import award_vp, finish_phase, privileges, uses_nobles
from .data import ALL_GOODS, GOODS, MAX_SHIPS, WHARF_CAPACITY
from .powers import (
    CAPTAIN_PAY,
    CAPTAIN_START_VP,
    HOOKS,
    LOADING_PAY,
    LOADING_VP,
    NOBLES_FOR_GOODS,
    OWN_SHIP,
    OWN_SHIP_MIXED,
    STORAGE_BARRELS,
    STORAGE_KINDS,
    has,
    total,
)
from .state import Player, Ship, State

_WHARF = [Wharf(g) for g in ALL_GOODS]
_LOADS = {(g, s): Load(g, s) for g in ALL_GOODS for s in range(MAX_SHIPS)}
_OWN_SHIP = HOOKS[OWN_SHIP]
_LOADING_VP = HOOKS[LOADING_VP]
_STORAGE_KINDS = HOOKS[STORAGE_KINDS]
_OWN_SHIP_MIXED = HOOKS[OWN_SHIP_MIXED]
_CAPTAIN_START_VP = HOOKS[CAPTAIN_START_VP]
_CAPTAIN_PAY = HOOKS[CAPTAIN_PAY]
_LOADING_PAY = HOOKS[LOADING_PAY]
_STORAGE_BARRELS = HOOKS[STORAGE_BARRELS]
_NOBLES_FOR_GOODS = HOOKS[NOBLES_FOR_GOODS]


def start(state: State, log: list[dict] | None) -> None:
    state.phase = "captain"
    state.idle = 0
    state.captain_bonus = False
    state.wharf_used = [False] * state.num_players
    state.small_wharf_used = [False] * state.num_players
    if _CAPTAIN_START_VP:
        for offset in range(state.num_players):
            _start_bonuses(state, state.seat(offset), log)
    if uses_nobles(state):  # the Royal supplier; without it the flags stay off (and unwritten)
        state.supplier_ready = [True] * state.num_players
    _advance(state, state.chooser, log)


def _start_bonuses(state: State, seat: int, log: list[dict] | None) -> None:
    """Union hall VP before anything is shipped; the lighthouse's doubloon for the captain."""
    pl = state.players[seat]
    vp = total(pl, _CAPTAIN_START_VP)
    if vp:
        if log is not None:
            log.append({"event": "union_hall", "seat": seat, "vp": vp})
        award_vp(state, seat, vp, log)
    if seat == state.chooser:
        _pay_lighthouse(state, seat, total(pl, _CAPTAIN_PAY), log)


def _pay_lighthouse(state: State, seat: int, doubloons: int, log: list[dict] | None) -> None:
    if doubloons:
        state.players[seat].doubloons += doubloons
        if log is not None:
            log.append({"event": "lighthouse", "seat": seat, "doubloons": doubloons})


def ships_for(ships: Sequence[Sequence], good: int, have: int) -> list[int]:
    """The ships (``state.ships``, or a copy a bot plays ahead on) that a seat holding
    ``have`` barrels of ``good`` may load them on."""
    best, fullest = 0, []  # the empty ships that take the most of them
    for i, (cap, g, n) in enumerate(ships):
        if g == good:
            return [i] if n < cap else []
        if g is None:
            amount = cap if cap < have else have
            if amount > best:
                best, fullest = amount, [i]
            elif amount == best:
                fullest.append(i)
    return fullest


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
    out: list[Action] = []
    if not state.wharf_used[seat] and has(pl, _OWN_SHIP):
        out = [_WHARF[g] for g in ALL_GOODS if pl.goods[g]]
    if not state.small_wharf_used[seat] and has(pl, _OWN_SHIP_MIXED) and any(pl.goods):
        out += small_wharf_loads(pl)
    return out


def small_wharf_loads(pl: Player) -> list[Action]:
    """Every choice of barrels for the small wharf: any number of each kind, at least one."""
    ranges = [range(n + 1) for n in pl.goods]
    return [SmallWharf(counts) for counts in product(*ranges) if any(counts)]


def _supplies(state: State, seat: int) -> list[Action]:
    """The Royal supplier's choices: before the seat's first load, up to one barrel per
    noble it owns (San Juan's too: docs/engine.md), all of different kinds."""
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
    if t == "small_wharf":
        _check_small_wharf(state, seat, action)
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


def _check_small_wharf(state: State, seat: int, action: SmallWharf) -> None:
    pl = state.players[seat]
    if not has(pl, _OWN_SHIP_MIXED):
        raise IllegalAction("no_small_wharf")
    if state.small_wharf_used[seat]:
        raise IllegalAction("small_wharf_used")
    if len(action.goods) != len(ALL_GOODS) or min(action.goods) < 0 or not any(action.goods):
        raise IllegalAction("small_wharf_empty")
    for g in ALL_GOODS:
        if action.goods[g] > pl.goods[g]:
            raise IllegalAction("no_good", good=GOODS[g])


def _captain_vp(state: State, seat: int) -> int:
    """The captain's privilege VP (two with a library), once, at his first loading."""
    if seat != state.chooser or state.captain_bonus:
        return 0
    state.captain_bonus = True
    return privileges(state, seat)


def _play_small_wharf(state: State, action: SmallWharf, log: list[dict] | None) -> None:
    seat = state.current
    pl = state.players[seat]
    for g in ALL_GOODS:
        pl.goods[g] -= action.goods[g]
        state.goods[g] += action.goods[g]
    state.small_wharf_used[seat] = True
    state.supplier_ready[seat] = False
    barrels = sum(action.goods)
    harbor = total(pl, _LOADING_VP, barrels)
    captain = _captain_vp(state, seat)
    vp = barrels // 2 + harbor + captain
    if log is not None:
        log.append(
            {
                "event": "small_wharf",
                "seat": seat,
                "goods": {GOODS[g]: n for g, n in enumerate(action.goods) if n},
                "vp": vp,
                "harbor": bool(harbor),
                "captain": bool(captain),
            }
        )
    award_vp(state, seat, vp, log)
    _pay_lighthouse(state, seat, total(pl, _LOADING_PAY, barrels), log)
    state.idle = 0
    _advance(state, (seat + 1) % state.num_players, log)


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
    if t == "small_wharf":
        _play_small_wharf(state, action, log)
        return
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
    captain = _captain_vp(state, seat)
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
    _pay_lighthouse(state, seat, total(pl, _LOADING_PAY, n), log)
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
    if not guests.open_windows(state, state.chooser, guests.STORAGE):
        start_storage(state, log)


def start_storage(state: State, log: list[dict] | None) -> None:
    state.phase = "storage"
    state.turn = 0
    _advance_storage(state, log)


# Storage ---------------------------------------------------------------------------------


def warehouse_kinds(pl: Player) -> int:
    """Kinds of goods the player keeps whole (occupied warehouses)."""
    return total(pl, _STORAGE_KINDS)


def loose_barrels(pl: Player) -> int:
    """Barrels kept besides the warehouses: the windrose's one, and a storehouse's three."""
    return 1 + total(pl, _STORAGE_BARRELS)


def _multisets(counts: list[int], size: int, start: int = 0) -> list[tuple[int, ...]]:
    """Every way to pick ``size`` barrels from ``counts[g]`` barrels of each good ``g``."""
    if size == 0:
        return [()]
    out = []
    for g in range(start, len(counts)):
        if counts[g]:
            counts[g] -= 1
            out += [(g, *rest) for rest in _multisets(counts, size - 1, g)]
            counts[g] += 1
    return out


def storage_choices(pl: Player) -> list[Action]:
    """Each different outcome of keeping as much as the rules allow.

    A seat keeps whole kinds in its warehouses and one more barrel on its windrose (with a
    storehouse three more of any kinds); which kinds and which barrels is its choice.
    Choices that keep the same barrels are listed once.
    """
    held = [g for g in ALL_GOODS if pl.goods[g]]
    size = min(warehouse_kinds(pl), len(held))
    loose = loose_barrels(pl)
    seen = set()
    out: list[Action] = []
    for kept in combinations(held, size):
        rest = [0 if g in kept else pl.goods[g] for g in ALL_GOODS]
        for barrels in _multisets(rest, min(loose, sum(rest))):
            key = tuple(pl.goods[g] if g in kept else barrels.count(g) for g in ALL_GOODS)
            if key not in seen:
                seen.add(key)
                windrose = barrels[0] if barrels else None
                out.append(Store(windrose, kept, barrels[1:]))
    return out


def _keeps_everything(pl: Player) -> bool:
    counts = sorted(n for n in pl.goods if n)
    spare = len(counts) - warehouse_kinds(pl)
    return spare <= 0 or sum(counts[:spare]) <= loose_barrels(pl)


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
    for g in (*action.warehouse, action.windrose, *action.storehouse):
        if g is not None and g not in held:
            raise IllegalAction("no_good", good=GOODS[g])
    if action.windrose in action.warehouse:
        raise IllegalAction("windrose_in_warehouse")
    if len(action.warehouse) < min(room, len(held)):
        raise IllegalAction("warehouse_not_filled")
    extra = loose_barrels(pl) - 1
    if len(action.storehouse) > extra:
        raise IllegalAction("storehouse_too_small", barrels=extra)
    loose = [action.windrose, *action.storehouse] if action.windrose is not None else []
    if action.storehouse and action.windrose is None:
        raise IllegalAction("windrose_empty")
    for g in set(loose):
        if g in action.warehouse:
            raise IllegalAction("windrose_in_warehouse")
        if loose.count(g) > pl.goods[g]:
            raise IllegalAction("no_good", good=GOODS[g])
    rest = sum(pl.goods[g] for g in held - set(action.warehouse))
    if action.windrose is None and rest:
        raise IllegalAction("windrose_empty")
    if len(loose) < min(extra + 1, rest):
        raise IllegalAction("storehouse_not_filled")


def _play_store(state: State, action: Store, log: list[dict] | None) -> None:
    seat = state.current
    _store(state, seat, action, log)
    state.turn += 1
    _advance_storage(state, log)


def _store(state: State, seat: int, action: Store, log: list[dict] | None) -> None:
    pl = state.players[seat]
    lost = {}
    loose = (action.windrose, *action.storehouse)
    for g in ALL_GOODS:
        keep = pl.goods[g] if g in action.warehouse else loose.count(g)
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
