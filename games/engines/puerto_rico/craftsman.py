"""Craftsman phase: every seat, from the craftsman, produces what its occupied plantations and
occupied production circles allow (corn needs no building), as far as the supply lasts; an
occupied factory pays for the kinds produced. Then the craftsman may take one more barrel of
a kind he produced (his privilege)."""

from __future__ import annotations

from .actions import PASS, Action, ExtraGood, IllegalAction
from .common import award_vp, finish_phase
from .data import ALL_GOODS, CORN, GOODS, PROCESSED_GOODS, PRODUCTION_BY_GOOD
from .powers import HOOKS, PRODUCTION_INCOME, PRODUCTION_PAY, PRODUCTION_VP, total
from .state import Player, State

_EXTRA = [ExtraGood(g) for g in ALL_GOODS]
_PRODUCTION_PAY = HOOKS[PRODUCTION_PAY]
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
    return out


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
        if offset == 0:
            state.produced = [g for g in ALL_GOODS if made[g]]
        if log is not None:
            goods = {GOODS[g]: made[g] for g in ALL_GOODS if made[g]}
            log.append({"event": "produce", "seat": seat, "goods": goods, "factory": bonus})
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
    if not legal(state)[:-1]:
        _end(state)


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
        if log is not None:
            log.append({"event": "extra_good", "seat": state.current, "good": GOODS[action.good]})
    elif log is not None:
        log.append({"event": "extra_good_declined", "seat": state.current})
    _end(state)


def _end(state: State) -> None:
    state.produced = []
    finish_phase(state)
