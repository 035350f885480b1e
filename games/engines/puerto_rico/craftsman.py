"""Craftsman phase: every seat, from the craftsman, produces what its occupied plantations and
occupied production circles allow (corn needs no building), as far as the supply lasts; an
occupied factory pays for the kinds produced. Then the craftsman may take one more barrel of
a kind he produced (his privilege)."""

from __future__ import annotations

from .actions import PASS, Action, ExtraGood, IllegalAction
from .common import finish_phase, p, plural
from .data import CORN, FACTORY_BONUS, GOODS, PRODUCTION_BY_GOOD
from .state import Player, State

_EXTRA = [ExtraGood(g) for g in range(5)]


def capacity(pl: Player) -> list[int]:
    """Barrels of each kind the player's island and city can make (before the supply)."""
    out = [pl.worked[CORN], 0, 0, 0, 0]
    city = pl.city
    for g in range(1, 5):
        if pl.worked[g]:
            circles = sum(city.get(b, 0) for b in PRODUCTION_BY_GOOD[g])
            out[g] = min(pl.worked[g], circles)
    return out


def start(state: State, log: list[str] | None) -> None:
    state.phase = "craftsman"
    for offset in range(state.num_players):
        seat = state.seat(offset)
        pl = state.players[seat]
        made = capacity(pl)
        kinds = 0
        for g in range(5):
            n = min(made[g], state.goods[g])
            made[g] = n
            if n:
                state.goods[g] -= n
                pl.goods[g] += n
                kinds += 1
        bonus = FACTORY_BONUS[kinds] if pl.city.get("factory", 0) else 0
        pl.doubloons += bonus
        if offset == 0:
            state.produced = [g for g in range(5) if made[g]]
        if log is not None:
            what = ", ".join(f"{made[g]} {GOODS[g]}" for g in range(5) if made[g]) or "nothing"
            factory = f" (factory: +{plural(bonus, 'doubloon')})" if bonus else ""
            log.append(f"{p(seat)} produces {what}{factory}")
    state.current = state.chooser
    if not legal(state)[:-1]:
        _end(state)


def legal(state: State) -> list[Action]:
    return [_EXTRA[g] for g in state.produced if state.goods[g]] + [PASS]


def check(state: State, action: Action) -> None:
    if action.type == "pass":
        return
    if action.type != "extra_good":
        raise IllegalAction("the craftsman takes an extra barrel or passes")
    if action.good not in state.produced:
        raise IllegalAction("the extra barrel must be of a kind the craftsman produced now")
    if state.goods[action.good] == 0:
        raise IllegalAction(f"no {GOODS[action.good]} is left in the supply")


def play(state: State, action: Action, log: list[str] | None) -> None:
    if action.type == "extra_good":
        state.goods[action.good] -= 1
        state.players[state.current].goods[action.good] += 1
        if log is not None:
            log.append(f"{p(state.current)} takes 1 extra {GOODS[action.good]} (privilege)")
    _end(state)


def _end(state: State) -> None:
    state.produced = []
    finish_phase(state)
