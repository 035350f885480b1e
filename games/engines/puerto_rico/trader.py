"""Trader phase: each seat in turn, from the trader, may sell one barrel to the trading house
(four spaces, different kinds unless the seller has an occupied office). Price 0-4, +1 for the
trader (only when he sells), +1 small market, +2 large market. A full house is emptied at the
end of the phase."""

from __future__ import annotations

from .actions import PASS, Action, IllegalAction, Sell
from .common import finish_phase, next_seat_to_decide
from .data import ALL_GOODS, GOODS, PRICES, TRADING_HOUSE_SPACES
from .powers import HOOKS, SALE_PRICE, SELL_SAME_KIND, has, total
from .state import State

_SELL = [Sell(g) for g in ALL_GOODS]
_SALE_PRICE = HOOKS[SALE_PRICE]
_SELL_SAME_KIND = HOOKS[SELL_SAME_KIND]


def start(state: State, log: list[dict] | None) -> None:
    state.phase = "trader"
    state.turn = 0
    _advance(state, log)


def _sellable(state: State, seat: int) -> list[int]:
    house = state.trading_house
    if len(house) >= TRADING_HOUSE_SPACES:
        return []
    pl = state.players[seat]
    office = has(pl, _SELL_SAME_KIND)
    return [g for g in ALL_GOODS if pl.goods[g] and (office or g not in house)]


def sale_price(state: State, seat: int, good: int) -> int:
    privilege = 1 if seat == state.chooser else 0
    return PRICES[good] + privilege + total(state.players[seat], _SALE_PRICE, good)


def legal(state: State) -> list[Action]:
    return [_SELL[g] for g in _sellable(state, state.current)] + [PASS]


def check(state: State, action: Action) -> None:
    if action.type == "pass":
        return
    if action.type != "sell":
        raise IllegalAction("wrong_action", phase=state.phase)
    pl = state.players[state.current]
    name = GOODS[action.good]
    if not pl.goods[action.good]:
        raise IllegalAction("no_good", good=name)
    if len(state.trading_house) >= TRADING_HOUSE_SPACES:
        raise IllegalAction("trading_house_full")
    if action.good in state.trading_house and not has(pl, _SELL_SAME_KIND):
        raise IllegalAction("trading_house_has_good", good=name)


def play(state: State, action: Action, log: list[dict] | None) -> None:
    seat = state.current
    if action.type == "sell":
        g = action.good
        money = sale_price(state, seat, g)
        pl = state.players[seat]
        pl.goods[g] -= 1
        pl.doubloons += money
        state.trading_house.append(g)
        if log is not None:
            log.append({"event": "sell", "seat": seat, "good": GOODS[g], "price": money})
    elif log is not None:
        log.append({"event": "sell_nothing", "seat": seat})
    state.turn += 1
    _advance(state, log)


def _advance(state: State, log: list[dict] | None) -> None:
    """Seats with nothing sellable are passed over; a full house ends the selling."""
    if next_seat_to_decide(state, lambda s, seat: bool(_sellable(s, seat))):
        return
    if len(state.trading_house) >= TRADING_HOUSE_SPACES:
        if log is not None:
            log.append(
                {"event": "trading_house_emptied", "goods": [GOODS[g] for g in state.trading_house]}
            )
        for g in state.trading_house:
            state.goods[g] += 1
        state.trading_house = []
    finish_phase(state)
