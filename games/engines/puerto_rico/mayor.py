"""Mayor phase: the ship's colonists are dealt one at a time from the mayor; then each seat,
from the mayor, places all its colonists at once (``Arrange``); last the ship is refilled.

A placement is a count per island kind and per building: tiles of one kind are
interchangeable. The legal placements of a seat are listed by ``Arrangements``, a sequence
that computes its members on demand, so a bot can draw one at random or walk them all
without the engine building a list of thousands.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .actions import Action, Arrange, IllegalAction
from .common import END_COLONISTS, finish_phase, privileges, trigger_end
from .data import ALL_ISLAND_KINDS, BUILDINGS, ISLAND_KINDS
from .state import Player, State


def start(state: State, log: list[dict] | None) -> None:
    state.phase = "mayor"
    n = state.num_players
    ship = state.colonist_ship
    dealt = []
    for offset in range(n):
        share = ship // n + (1 if offset < ship % n else 0)
        state.players[state.seat(offset)].san_juan += share
        dealt.append({"seat": state.seat(offset), "colonists": share})
    state.colonist_ship = 0
    if log is not None:
        log.append({"event": "colonists_arrive", "colonists": ship, "shares": dealt})
    state.turn = 0
    state.current = state.chooser


def privilege_colonists(state: State) -> int:
    """Colonists the seat to act may take from the supply: the mayor one (two with an
    occupied library), as far as the supply lasts; the others none."""
    if state.turn != 0:
        return 0
    return min(state.colonist_supply, privileges(state, state.current))


class Arrangements(Sequence[Arrange]):
    """Every legal placement of a player's colonists, in a fixed order, computed on demand.

    Each group (an island kind, a building) takes 0..circles colonists; all colonists are
    placed while circles are free, and only the rest wait in San Juan. ``variants`` are
    ``(privilege, colonists)`` pairs: the mayor may place one more if he takes his privilege.
    """

    def __init__(self, player: Player, variants: list[tuple[bool, int]]) -> None:
        self._kinds = [k for k in ALL_ISLAND_KINDS if player.tiles[k]]
        self._buildings = list(player.city)
        self._caps = [player.tiles[k] for k in self._kinds] + [
            BUILDINGS[b].circles for b in self._buildings
        ]
        capacity = sum(self._caps)
        self._variants = []
        for privilege, colonists in variants:
            placed = min(colonists, capacity)
            ways = self._ways(placed)
            self._variants.append((privilege, placed, ways, ways[0][placed]))

    def _ways(self, total: int) -> list[list[int]]:
        """ways[i][r]: how many ways groups i.. can hold exactly r colonists."""
        caps = self._caps
        ways = [[0] * (total + 1) for _ in range(len(caps) + 1)]
        ways[len(caps)][0] = 1
        for i in range(len(caps) - 1, -1, -1):
            row, below, cap = ways[i], ways[i + 1], caps[i]
            window = 0  # below[r - cap] + … + below[r], kept as r grows
            for r in range(total + 1):
                window += below[r]
                if r > cap:
                    window -= below[r - cap - 1]
                row[r] = window
        return ways

    def __len__(self) -> int:
        return sum(v[3] for v in self._variants)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        for privilege, placed, ways, count in self._variants:
            if index < count:
                return self._unrank(privilege, placed, ways, index)
            index -= count
        raise IndexError("arrangement index out of range")

    def _unrank(self, privilege: bool, placed: int, ways: list[list[int]], index: int) -> Arrange:
        counts = []
        r = placed
        for i, cap in enumerate(self._caps):
            for c in range(min(cap, r), -1, -1):
                w = ways[i + 1][r - c]
                if index < w:
                    break
                index -= w
            counts.append(c)
            r -= c
        island = [0] * len(ALL_ISLAND_KINDS)
        for k, c in zip(self._kinds, counts, strict=False):
            island[k] = c
        city = tuple(zip(self._buildings, counts[len(self._kinds) :], strict=True))
        return Arrange(tuple(island), city, privilege)

    def __iter__(self) -> Iterator[Arrange]:
        for i in range(len(self)):
            yield self[i]


def legal(state: State) -> Arrangements:
    pl = state.players[state.current]
    colonists = pl.colonists()
    variants = [(False, colonists)]
    extra = privilege_colonists(state)
    if extra:
        variants.append((True, colonists + extra))
    return Arrangements(pl, variants)


def check(state: State, action: Action) -> None:
    if action.type != "arrange":
        raise IllegalAction("wrong_action", phase=state.phase)
    pl = state.players[state.current]
    if len(action.island) != len(ALL_ISLAND_KINDS):
        raise IllegalAction("island_counts")
    total = pl.colonists()
    if action.privilege:
        if state.turn != 0:
            raise IllegalAction("privilege_not_mayor")
        if state.colonist_supply == 0:
            raise IllegalAction("colonist_supply_empty")
        total += privilege_colonists(state)
    capacity = placed = 0
    for k in ALL_ISLAND_KINDS:
        n = action.island[k]
        if n < 0:
            raise IllegalAction("negative_count")
        if n > pl.tiles[k]:
            raise IllegalAction(
                "too_many_on_tiles", tile=ISLAND_KINDS[k], colonists=n, tiles=pl.tiles[k]
            )
        capacity += pl.tiles[k]
        placed += n
    if len({name for name, _ in action.city}) != len(action.city):
        raise IllegalAction("building_twice")
    for name, n in action.city:
        if name not in pl.city:
            raise IllegalAction("no_building", building=name)
        if n < 0:
            raise IllegalAction("negative_count")
        if n > BUILDINGS[name].circles:
            raise IllegalAction(
                "too_many_on_building", building=name, circles=BUILDINGS[name].circles
            )
        placed += n
    capacity += sum(BUILDINGS[name].circles for name in pl.city)
    if placed > total:
        raise IllegalAction("too_many_colonists", placed=placed, colonists=total)
    if placed < total and placed < capacity:
        raise IllegalAction("circles_empty")


def play(state: State, action: Arrange, log: list[dict] | None) -> None:
    seat = state.current
    pl = state.players[seat]
    total = pl.colonists()
    if action.privilege:
        extra = privilege_colonists(state)
        state.colonist_supply -= extra
        total += extra
    pl.worked = list(action.island)
    city = dict(action.city)
    for name in pl.city:
        pl.city[name] = city.get(name, 0)
    pl.san_juan = total - sum(pl.worked) - sum(city.values())
    if log is not None:
        log.append(
            {
                "event": "place_colonists",
                "seat": seat,
                "colonists": total,
                "privilege": action.privilege,
                "san_juan": pl.san_juan,
            }
        )
    state.turn += 1
    if state.turn < state.num_players:
        state.current = state.seat(state.turn)
        return
    _refill_ship(state, log)
    finish_phase(state)


def _refill_ship(state: State, log: list[dict] | None) -> None:
    """One colonist per empty building circle of all players, at least one per player; a
    supply that cannot pay this ends the game at the end of the round."""
    need = max(state.num_players, sum(pl.empty_building_circles() for pl in state.players))
    moved = min(need, state.colonist_supply)
    state.colonist_supply -= moved
    state.colonist_ship = moved
    if log is not None:
        log.append({"event": "colonist_ship_filled", "colonists": moved, "needed": need})
    if moved < need:
        trigger_end(state, END_COLONISTS, log)
