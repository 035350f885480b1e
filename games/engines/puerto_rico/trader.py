"""Trader phase: each seat in turn, from the trader, may sell one barrel to the trading house
(four spaces, different kinds unless the seller has an occupied office). Price 0-4, +1 for the
trader (only when he sells), +1 small market, +2 large market. A full house is emptied at the
end of the phase.

New Buildings: an occupied trading post sells any one barrel straight to the supply instead,
at the plain price plus the trader's privilege (no markets); a library doubles the privilege."""

from __future__ import annotations

from .actions import PASS, Action, IllegalAction, Sell
from .common import finish_phase, next_seat_to_decide, privileges
from .data import ALL_GOODS, GOODS, PRICES, TRADING_HOUSE_SPACES
from .powers import HOOKS, SALE_PRICE, SELL_SAME_KIND, SELL_TO_SUPPLY, has, total
from .state import State

_SELL = [Sell(g) for g in ALL_GOODS]
_TRADING_POST = [Sell(g, True) for g in ALL_GOODS]
_SALE_PRICE = HOOKS[SALE_PRICE]
_SELL_SAME_KIND = HOOKS[SELL_SAME_KIND]
_SELL_TO_SUPPLY = HOOKS[SELL_TO_SUPPLY]


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


def _to_supply(state: State, seat: int) -> list[int]:
    pl = state.players[seat]
    if not has(pl, _SELL_TO_SUPPLY):
        return []
    return [g for g in ALL_GOODS if pl.goods[g]]


def sale_price(state: State, seat: int, good: int, trading_post: bool = False) -> int:
    price = PRICES[good] + privileges(state, seat)
    if trading_post:
        return price
    return price + total(state.players[seat], _SALE_PRICE, good)


def legal(state: State) -> list[Action]:
    seat = state.current
    posts = [_TRADING_POST[g] for g in _to_supply(state, seat)]
    return [_SELL[g] for g in _sellable(state, seat)] + posts + [PASS]


def check(state: State, action: Action) -> None:
    if action.type == "pass":
        return
    if action.type != "sell":
        raise IllegalAction("wrong_action", phase=state.phase)
    pl = state.players[state.current]
    name = GOODS[action.good]
    if not pl.goods[action.good]:
        raise IllegalAction("no_good", good=name)
    if action.trading_post:
        if not has(pl, _SELL_TO_SUPPLY):
            raise IllegalAction("no_trading_post")
        return
    if len(state.trading_house) >= TRADING_HOUSE_SPACES:
        raise IllegalAction("trading_house_full")
    if action.good in state.trading_house and not has(pl, _SELL_SAME_KIND):
        raise IllegalAction("trading_house_has_good", good=name)


def play(state: State, action: Action, log: list[dict] | None) -> None:
    seat = state.current
    if action.type == "sell":
        g = action.good
        money = sale_price(state, seat, g, action.trading_post)
        pl = state.players[seat]
        pl.goods[g] -= 1
        pl.doubloons += money
        if action.trading_post:
            state.goods[g] += 1
        else:
            state.trading_house.append(g)
        if log is not None:
            kind = "trading_post" if action.trading_post else "sell"
            log.append({"event": kind, "seat": seat, "good": GOODS[g], "price": money})
    elif log is not None:
        log.append({"event": "sell_nothing", "seat": seat})
    state.turn += 1
    _advance(state, log)


def _advance(state: State, log: list[dict] | None) -> None:
    """Seats with nothing sellable are passed over; a full house ends the selling."""
    if next_seat_to_decide(state, lambda s, seat: bool(_sellable(s, seat) or _to_supply(s, seat))):
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
