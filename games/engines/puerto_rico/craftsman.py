"""Craftsman phase: every seat, from the craftsman, produces what its occupied plantations and
occupied production circles allow (corn needs no building), as far as the supply lasts; an
occupied factory pays for the kinds produced. Then the craftsman may take one more barrel of
a kind he produced (his privilege; two barrels, of one kind or two, with an occupied library).

New Buildings: the aqueduct adds a barrel to what the large indigo plant or sugar mill makes;
the specialty factory pays for the best kind (the craftsman's after his extra barrels)."""

from __future__ import annotations

from .actions import PASS, Action, ExtraGood, IllegalAction
from .common import award_vp, finish_phase, privileges
from .data import ALL_GOODS, CORN, GOODS, PROCESSED_GOODS, PRODUCTION_BY_GOOD
from .powers import (
    BEST_KIND_PAY,
    EXTRA_BARRELS,
    HOOKS,
    PRODUCTION_INCOME,
    PRODUCTION_PAY,
    PRODUCTION_VP,
    has,
    total,
)
from .state import Player, State

_EXTRA = [ExtraGood(g) for g in ALL_GOODS]
_PRODUCTION_PAY = HOOKS[PRODUCTION_PAY]
_EXTRA_BARRELS = HOOKS[EXTRA_BARRELS]
_BEST_KIND_PAY = HOOKS[BEST_KIND_PAY]
_PRODUCTION_INCOME = HOOKS[PRODUCTION_INCOME]
_PRODUCTION_VP = HOOKS[PRODUCTION_VP]


def capacity(pl: Player) -> list[int]:
    """Barrels of each kind the player's island and city can make (before the supply)."""
    out = [0] * len(ALL_GOODS)
    out[CORN] = pl.worked[CORN]
    city = pl.city
    for g in PROCESSED_GOODS:
        if pl.worked[g]:
            circles = sum(city.get(b, 0) for b in PRODUCTION_BY_GOOD[g])
            out[g] = min(pl.worked[g], circles)
            if out[g]:
                out[g] += total(pl, _EXTRA_BARRELS, g)
    return out


def _pay_best_kind(state: State, seat: int, made: list[int], log: list[dict] | None) -> None:
    """Specialty factory: one doubloon less than the barrels of the best kind (not corn)."""
    pl = state.players[seat]
    if not has(pl, _BEST_KIND_PAY):
        return
    pay = total(pl, _BEST_KIND_PAY, max(made[g] for g in PROCESSED_GOODS))
    pl.doubloons += pay
    if log is not None:
        log.append({"event": "specialty_factory", "seat": seat, "doubloons": pay})


def start(state: State, log: list[dict] | None) -> None:
    state.phase = "craftsman"
    for offset in range(state.num_players):
        seat = state.seat(offset)
        pl = state.players[seat]
        made = capacity(pl)
        kinds = 0
        for g in ALL_GOODS:
            n = min(made[g], state.goods[g])
            made[g] = n
            if n:
                state.goods[g] -= n
                pl.goods[g] += n
                kinds += 1
        bonus = total(pl, _PRODUCTION_PAY, kinds)
        pl.doubloons += bonus
        if log is not None:
            goods = {GOODS[g]: made[g] for g in ALL_GOODS if made[g]}
            log.append({"event": "produce", "seat": seat, "goods": goods, "factory": bonus})
        if offset == 0:
            state.produced = [g for g in ALL_GOODS if made[g]]
            state.made = made
        else:
            _pay_best_kind(state, seat, made, log)
        # The Nobles' Chapel and Jeweler pay in every craftsman phase, whatever was made.
        income = total(pl, _PRODUCTION_INCOME)
        vp = total(pl, _PRODUCTION_VP)
        if income or vp:
            pl.doubloons += income
            if log is not None:
                log.append(
                    {"event": "production_bonus", "seat": seat, "doubloons": income, "vp": vp}
                )
            if vp:
                award_vp(state, seat, vp, log)
    state.current = state.chooser
    state.extras = 0
    if not legal(state)[:-1]:
        _end(state, log)


def legal(state: State) -> list[Action]:
    return [_EXTRA[g] for g in state.produced if state.goods[g]] + [PASS]


def check(state: State, action: Action) -> None:
    if action.type == "pass":
        return
    if action.type != "extra_good":
        raise IllegalAction("wrong_action", phase=state.phase)
    if action.good not in state.produced:
        raise IllegalAction("not_produced", good=GOODS[action.good])
    if state.goods[action.good] == 0:
        raise IllegalAction("good_gone", good=GOODS[action.good])


def play(state: State, action: Action, log: list[dict] | None) -> None:
    if action.type == "extra_good":
        state.goods[action.good] -= 1
        state.players[state.current].goods[action.good] += 1
        state.made[action.good] += 1
        state.extras += 1
        if log is not None:
            log.append({"event": "extra_good", "seat": state.current, "good": GOODS[action.good]})
        if state.extras < privileges(state, state.current) and legal(state)[:-1]:
            return
    elif log is not None:
        log.append({"event": "extra_good_declined", "seat": state.current})
    _end(state, log)


def _end(state: State, log: list[dict] | None) -> None:
    _pay_best_kind(state, state.chooser, state.made, log)
    state.produced = []
    state.made = [0] * len(ALL_GOODS)
    state.extras = 0
    finish_phase(state)
