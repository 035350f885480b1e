"""Mayor phase: the ship's colonists are dealt one at a time from the mayor; then each seat,
from the mayor, places all its colonists at once (``Arrange``); last the ship is refilled.

A placement is a count per island kind and per building: tiles of one kind are
interchangeable. The legal placements of a seat are listed by ``Arrangements``, a sequence
that computes its members on demand, so a bot can draw one at random or walk them all
without the engine building a list of thousands.

With the Nobles, the ship also carries a noble (dealt like a colonist, see ``start``), an
occupied Villa brings its owner a noble when his turn comes, and a placement says which of
each group's pieces are nobles; the refill puts a noble on the ship, and running short of
colonists ends nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .actions import COLONIST, NOBLE, Action, Arrange, IllegalAction
from .common import END_COLONISTS, finish_phase, privileges, trigger_end, uses_nobles
from .data import ALL_ISLAND_KINDS, CIRCLES, ISLAND_KINDS, ISLAND_SPACES
from .powers import EXTRA_NOBLE, HOOKS, has
from .state import Player, State

_EXTRA_NOBLE = HOOKS[EXTRA_NOBLE]


def start(state: State, log: list[dict] | None) -> None:
    state.phase = "mayor"
    n = state.num_players
    ship = state.colonist_ship
    pieces = ship + state.noble_ship
    dealt = []
    for offset in range(n):
        share = pieces // n + (1 if offset < pieces % n else 0)
        dealt.append({"seat": state.seat(offset), "colonists": share})
    # The Nobles: the ship's noble goes to the last seat dealt a piece, unless a seat before
    # it takes the noble instead of a colonist (then that colonist goes to this seat).
    state.noble_seat = None
    if state.noble_ship:
        state.noble_seat = [d["seat"] for d in dealt if d["colonists"]][-1]
    for share in dealt:
        short = 1 if share["seat"] == state.noble_seat else 0
        state.players[share["seat"]].san_juan += share["colonists"] - short
    state.colonist_ship = 0
    if log is not None:
        log.append({"event": "colonists_arrive", "colonists": ship, "shares": dealt})
        if state.noble_seat is not None:
            log.append({"event": "noble_arrives", "seat": state.noble_seat})
    state.turn = 0
    _turn_starts(state, log)


def privilege_colonists(state: State) -> int:
    """Colonists the seat to act may take from the supply: the mayor one (two with an
    occupied library), as far as the supply lasts; the others none."""
    if state.turn != 0:
        return 0
    return min(state.colonist_supply, privileges(state, state.current))


def _turn_starts(state: State, log: list[dict] | None) -> None:
    """The next seat places; an occupied Villa first brings its owner a noble from the
    supply (a colonist when no noble is left, nothing when neither is)."""
    seat = state.current = state.seat(state.turn)
    pl = state.players[seat]
    if not has(pl, _EXTRA_NOBLE):
        return
    if state.noble_supply:
        state.noble_supply -= 1
        pl.noble_san_juan += 1
        piece = NOBLE
    elif state.colonist_supply:
        state.colonist_supply -= 1
        piece = COLONIST
    else:
        return
    pl.san_juan += 1
    if log is not None:
        log.append({"event": "villa", "seat": seat, "piece": piece})


def noble_choices(state: State) -> tuple[bool, ...]:
    """The values ``take_noble`` may have for the seat to act: the ship's noble may be taken
    by the seats dealt pieces up to the one it would go to, and must be by that one."""
    if not state.noble_ship:
        return (False,)
    if state.current == state.noble_seat:
        return (True,)
    offset = (state.noble_seat - state.chooser) % state.num_players
    return (False, True) if state.turn < offset else (False,)


_SLOT = 48
"""Bits per count in a packed polynomial. A count is at most the placements of any number of
pieces, the product of each group's circles + 1: below 2^12 for the 12 island spaces and
4^12 for the 12 city spaces (three circles at most), 2^36 in all, so no count spills into the
next slot; wider slots only make the products slower."""
_RUNS = [sum(1 << (_SLOT * y) for y in range(r + 1)) for r in range(ISLAND_SPACES + 1)]
"""_RUNS[r] = 1 + b + … + b^r: 0..r colonists in one group."""
_DOWN = [_RUNS[r::-1] for r in range(len(_RUNS))]
"""_DOWN[r] = [_RUNS[r], _RUNS[r - 1], …, _RUNS[0]]."""


_MASK = (1 << _SLOT) - 1


def _coefficient(packed: int, b: int) -> int:
    return (packed >> (_SLOT * b)) & _MASK


class Arrangements(Sequence[Arrange]):
    """Every legal placement of a player's colonists, in a fixed order, computed on demand.

    Each group (an island kind, a building) takes 0..circles pieces; all pieces are placed
    while circles are free, and only the rest wait in San Juan. ``variants`` are
    ``(privilege, take_noble, colonists, nobles)``: the mayor may place one more colonist if
    he takes his privilege, and a seat that takes the ship's noble has a noble for a colonist.
    With nobles, a placement also says which of each group's pieces are nobles.
    """

    def __init__(self, player: Player, variants: list[tuple[bool, bool, int, int]]) -> None:
        self._kinds = [k for k in ALL_ISLAND_KINDS if player.tiles[k]]
        self._buildings = list(player.city)
        self._caps = [player.tiles[k] for k in self._kinds]
        self._caps += map(CIRCLES.__getitem__, self._buildings)
        capacity = sum(self._caps)
        # One table serves every variant with nobles: its rows for fewer nobles are the same;
        # one product serves every variant without.
        nobles_placed = [nobles for *_, nobles in variants]
        most = max(nobles_placed)
        shared = self._ways2(most) if most else []
        plain = self._ways() if 0 in nobles_placed else []
        self._variants = []
        self._len = 0
        for privilege, take, colonists, nobles in variants:
            placed = min(colonists + nobles, capacity)
            if nobles:
                ways = shared
                splits = [
                    (a, _coefficient(ways[0][a], placed - a))
                    for a in range(max(0, placed - colonists), min(nobles, placed) + 1)
                ]
                count = sum(c for _, c in splits)
            else:
                ways = plain
                splits = None
                count = _coefficient(ways[0], placed)
            self._variants.append((privilege, take, placed, ways, splits, count))
            self._len += count

    def _ways(self) -> list[int]:
        """ways[i]: how many ways groups i.. can hold each number r of colonists, as a
        polynomial in r packed into one integer (``_coefficient`` reads it): the product of
        each group's 1 + b + … + b^cap, multiplied in C."""
        ways = [1]
        for cap in reversed(self._caps):
            ways.append(ways[-1] * _RUNS[cap])
        ways.reverse()
        return ways

    def _ways2(self, nobles: int) -> list[list[int]]:
        """ways[i][a]: how many ways groups i.. can hold exactly a nobles and b colonists, as
        a polynomial in b packed into one integer (``_coefficient`` reads it): the big-integer
        product does the colonists' sums in C, fast enough for random play."""
        below = [1] + [0] * nobles
        ways = [below]
        for cap in reversed(self._caps):
            # down[x] = R[cap - x]: the colonists beside x nobles here. Rows of below that are
            # 0 are skipped (in the last groups, reached first, most are).
            down = _DOWN[cap]
            rows = []
            for a in range(nobles + 1):
                v = 0
                for x in range((a if a < cap else cap) + 1):
                    c = below[a - x]
                    if c:
                        v += c * down[x]
                rows.append(v)
            ways.append(rows)
            below = rows
        ways.reverse()
        return ways

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if index < 0:
            raise IndexError("arrangement index out of range")
        for privilege, take, placed, ways, splits, count in self._variants:
            if index >= count:
                index -= count
                continue
            if splits is None:
                counts = self._unrank(placed, ways, index)
                return self._arrange(counts, None, privilege, take)
            for a, n in splits:
                if index < n:
                    nobles, counts = self._unrank2(a, placed - a, ways, index)
                    return self._arrange(counts, nobles, privilege, take)
                index -= n
        raise IndexError("arrangement index out of range")

    def _unrank(self, placed: int, ways: list[int], index: int) -> list[int]:
        counts = []
        r = placed
        for i, cap in enumerate(self._caps):
            if not r:  # every piece placed: the groups left stay empty
                counts += [0] * (len(self._caps) - i)
                break
            top = cap if cap < r else r
            # The ways of c = top .. 0 colonists here are the coefficients r - top .. r below.
            window = ways[i + 1] >> (_SLOT * (r - top))
            for c in range(top, -1, -1):  # noqa: B007 - c is the count found
                w = window & _MASK
                if index < w:
                    break
                index -= w
                window >>= _SLOT
            counts.append(c)
            r -= c
        return counts

    def _unrank2(
        self, a: int, b: int, ways: list[list[int]], index: int
    ) -> tuple[list[int], list[int]]:
        nobles, colonists = [], []
        for i, cap in enumerate(self._caps):
            below = ways[i + 1]
            found = False
            for x in range(a if a < cap else cap, -1, -1):
                window = below[a - x]
                if not window:  # no way at all with x nobles here
                    continue
                top = cap - x
                if top > b:
                    top = b
                # The counts of y = top .. 0 colonists here are the coefficients b - top .. b.
                window >>= _SLOT * (b - top)
                for y in range(top, -1, -1):  # noqa: B007 - y is the count found
                    w = window & _MASK
                    if index < w:
                        found = True
                        break
                    index -= w
                    window >>= _SLOT
                if found:
                    break
            nobles.append(x)
            colonists.append(y)
            a -= x
            b -= y
        return nobles, colonists

    def _arrange(
        self, counts: list[int], nobles: list[int] | None, privilege: bool, take: bool
    ) -> Arrange:
        n = len(self._kinds)
        island = [0] * len(ALL_ISLAND_KINDS)
        for k, c in zip(self._kinds, counts, strict=False):
            island[k] = c
        city = tuple(zip(self._buildings, counts[n:], strict=True))
        if nobles is None:
            return Arrange(tuple(island), city, privilege, (), (), take)
        noble_island = [0] * len(ALL_ISLAND_KINDS)
        for k, c in zip(self._kinds, nobles, strict=False):
            noble_island[k] = c
        noble_city = tuple(zip(self._buildings, nobles[n:], strict=True))
        return Arrange(tuple(island), city, privilege, tuple(noble_island), noble_city, take)

    def __iter__(self) -> Iterator[Arrange]:
        for i in range(len(self)):
            yield self[i]


def legal(state: State) -> Arrangements:
    return Arrangements(state.players[state.current], _variants(state))


def _variants(state: State) -> list[tuple[bool, bool, int, int]]:
    """(privilege, take_noble, colonists, nobles) of each way the seat to act may place."""
    pl = state.players[state.current]
    nobles = pl.noble_san_juan + sum(pl.noble_worked) + sum(pl.noble_city.values())
    colonists = pl.colonists() - nobles
    extra = privilege_colonists(state)
    privileges = (False, True) if extra else (False,)
    gives = state.current != state.noble_seat  # a colonist for the noble (see ``play``)
    return [
        (privilege, take, colonists + extra * privilege - (take and gives), nobles + take)
        for take in noble_choices(state)
        for privilege in privileges
    ]


def schema(state: State) -> dict:
    """The mayor's choice as JSON a client builds a placement from (``legal_schema``): the
    circles of each island kind (one per tile) and of each building, and the pieces each
    variant places (``privilege``: the mayor's extra colonist; ``take_noble``: the ship's
    noble). A placement puts ``min(colonists + nobles, circles)`` pieces, the rest wait in San
    Juan; its JSON names the same island kinds and buildings (``docs/engine.md``)."""
    pl = state.players[state.current]
    variants = [
        {"privilege": privilege, "take_noble": take, "colonists": colonists, "nobles": nobles}
        for privilege, take, colonists, nobles in _variants(state)
    ]
    return {
        "type": "arrange",
        "island": {ISLAND_KINDS[k]: pl.tiles[k] for k in ALL_ISLAND_KINDS if pl.tiles[k]},
        "city": {b: CIRCLES[b] for b in pl.city},
        "nobles": uses_nobles(state),
        "variants": variants,
    }


def check(state: State, action: Action) -> None:
    if action.type != "arrange":
        raise IllegalAction("wrong_action", phase=state.phase)
    pl = state.players[state.current]
    noble_island, noble_city = action.noble_island, action.noble_city
    if len(action.island) != len(ALL_ISLAND_KINDS) or len(noble_island) not in (
        0,
        len(ALL_ISLAND_KINDS),
    ):
        raise IllegalAction("island_counts")
    if (noble_island or noble_city or action.take_noble) and not uses_nobles(state):
        raise IllegalAction("nobles_not_in_game")
    if action.take_noble not in noble_choices(state):
        raise IllegalAction("noble_not_on_ship" if action.take_noble else "noble_must_take")
    owned = pl.nobles()
    nobles = owned + action.take_noble
    gives = action.take_noble and state.current != state.noble_seat
    colonists = pl.colonists() - owned - gives
    if action.privilege:
        if state.turn != 0:
            raise IllegalAction("privilege_not_mayor")
        if state.colonist_supply == 0:
            raise IllegalAction("colonist_supply_empty")
        colonists += privilege_colonists(state)
    noble_island = noble_island or _NO_NOBLES
    capacity = placed = placed_nobles = 0
    for k in ALL_ISLAND_KINDS:
        c, m = action.island[k], noble_island[k]
        if c < 0 or m < 0:
            raise IllegalAction("negative_count")
        if c + m > pl.tiles[k]:
            raise IllegalAction(
                "too_many_on_tiles", tile=ISLAND_KINDS[k], colonists=c + m, tiles=pl.tiles[k]
            )
        capacity += pl.tiles[k]
        placed += c
        placed_nobles += m
    placed += _check_city(pl, action.city, ())
    if noble_city:
        placed_nobles += _check_city(pl, noble_city, action.city)
    capacity += sum(map(CIRCLES.__getitem__, pl.city))
    if placed > colonists:
        raise IllegalAction("too_many_colonists", placed=placed, colonists=colonists)
    if placed_nobles > nobles:
        raise IllegalAction("too_many_nobles", placed=placed_nobles, nobles=nobles)
    total = placed + placed_nobles
    if total < colonists + nobles and total < capacity:
        raise IllegalAction("circles_empty")


_NO_NOBLES = (0,) * len(ALL_ISLAND_KINDS)


def _check_city(
    pl: Player, pairs: tuple[tuple[str, int], ...], beside: tuple[tuple[str, int], ...]
) -> int:
    """The pieces ``pairs`` put on buildings (with ``beside``, the other kind's, on the same
    circles), checked; returns how many. ``Arrange`` keeps its pairs sorted by building, so
    a building named twice is named twice in a row."""
    others = dict(beside) if beside else None
    city = pl.city
    placed = 0
    last = None
    for name, n in pairs:
        if name == last:
            raise IllegalAction("building_twice")
        last = name
        if name not in city:
            raise IllegalAction("no_building", building=name)
        if n < 0:
            raise IllegalAction("negative_count")
        circles = CIRCLES[name]
        if (n + others.get(name, 0) if others else n) > circles:
            raise IllegalAction("too_many_on_building", building=name, circles=circles)
        placed += n
    return placed


def play(state: State, action: Arrange, log: list[dict] | None) -> None:
    seat = state.current
    pl = state.players[seat]
    if action.take_noble:
        # The noble instead of a colonist: the colonist goes to the seat it was dealt to.
        state.noble_ship = 0
        pl.noble_san_juan += 1
        if seat == state.noble_seat:
            pl.san_juan += 1
        else:
            state.players[state.noble_seat].san_juan += 1
        state.noble_seat = None
        if log is not None:
            log.append({"event": "noble_taken", "seat": seat})
    total = pl.colonists()
    nobles = pl.nobles()
    if action.privilege:
        extra = privilege_colonists(state)
        state.colonist_supply -= extra
        total += extra
    island = list(action.island)
    if action.noble_island:
        pl.noble_worked = list(action.noble_island)
        for k in ALL_ISLAND_KINDS:
            island[k] += action.noble_island[k]
    else:
        pl.noble_worked = [0] * len(ALL_ISLAND_KINDS)
    pl.worked = island
    city = pl.city
    for name in city:
        city[name] = 0
    city.update(action.city)
    noble_city = dict(action.noble_city)  # (``Arrange`` leaves out buildings without one)
    for name, n in noble_city.items():
        city[name] += n
    pl.noble_city = noble_city
    pl.san_juan = total - sum(island) - sum(city.values())
    pl.noble_san_juan = nobles - sum(pl.noble_worked) - sum(noble_city.values())
    if log is not None:
        log.append(
            {
                "event": "place_colonists",
                "seat": seat,
                "colonists": total - nobles,
                "privilege": action.privilege,
                "san_juan": pl.san_juan - pl.noble_san_juan,
            }
        )
        if nobles:
            log.append(
                {
                    "event": "place_nobles",
                    "seat": seat,
                    "nobles": nobles,
                    "san_juan": pl.noble_san_juan,
                }
            )
    state.turn += 1
    if state.turn < state.num_players:
        _turn_starts(state, log)
        return
    _refill_ship(state, log)
    finish_phase(state)


def _refill_ship(state: State, log: list[dict] | None) -> None:
    """One piece per empty building circle of all players, at least one per player; a
    supply that cannot pay this ends the game at the end of the round. With the Nobles, one
    of them is a noble (while any are left), and running short ends nothing."""
    need = max(state.num_players, sum(pl.empty_building_circles() for pl in state.players))
    nobles = uses_nobles(state)
    if nobles and state.noble_supply:
        state.noble_supply -= 1
        state.noble_ship = 1
        need -= 1
        if log is not None:
            log.append({"event": "noble_on_ship"})
    moved = min(need, state.colonist_supply)
    state.colonist_supply -= moved
    state.colonist_ship = moved
    if log is not None:
        log.append({"event": "colonist_ship_filled", "colonists": moved, "needed": need})
    if moved < need and not nobles:
        trigger_end(state, END_COLONISTS, log)
