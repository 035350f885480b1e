"""Trader phase: each seat in turn, from the trader, may sell one barrel to the trading house
(four spaces, different kinds unless the seller has an occupied office). Price 0-4, +1 for the
trader (only when he sells), +1 small market, +2 large market. A full house is emptied at the
end of the phase.

New Buildings: an occupied trading post sells any one barrel straight to the supply instead,
at the plain price plus the trader's privilege (no markets); a library doubles the privilege.

The Nobles' Land office acts on its owner's turn before he sells (in addition to selling, and
even when the house is full): with a colonist he may buy the top face-down plantation for 1
doubloon, with a noble discard one of his plantations for 1 doubloon. With both expansions
an occupied forest house may lay the plantation bought as a forest."""

from __future__ import annotations

from .actions import BUY_PLANTATION, FOREST, PASS, Action, IllegalAction, Sell
from .common import (
    check_discard,
    discard_choices,
    discard_plantation,
    draw_plantation,
    finish_phase,
    forget_drawn,
    lay_drawn_forest,
    next_seat_to_decide,
    privileges,
)
from .data import ALL_GOODS, GOODS, ISLAND_SPACES, PRICES, TRADING_HOUSE_SPACES
from .powers import BUY_PLANTATION as BUY_POINT  # the action has the plain name
from .powers import (
    HOOKS,
    LAY_FOREST,
    SALE_PRICE,
    SELL_PLANTATION,
    SELL_SAME_KIND,
    SELL_TO_SUPPLY,
    has,
    total,
)
from .state import State

_SELL = [Sell(g) for g in ALL_GOODS]
_TRADING_POST = [Sell(g, True) for g in ALL_GOODS]
_SALE_PRICE = HOOKS[SALE_PRICE]
_SELL_SAME_KIND = HOOKS[SELL_SAME_KIND]
_SELL_TO_SUPPLY = HOOKS[SELL_TO_SUPPLY]
_BUY_PLANTATION = HOOKS[BUY_POINT]
_SELL_PLANTATION = HOOKS[SELL_PLANTATION]
_LAY_FOREST = HOOKS[LAY_FOREST]


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


def _land_office(state: State, seat: int) -> list[Action]:
    """The Land office's choices for ``seat`` now (none once used this turn)."""
    if state.land_office_used:
        return []
    pl = state.players[seat]
    out: list[Action] = []
    if (
        has(pl, _BUY_PLANTATION)
        and state.stack
        and pl.doubloons
        and pl.island_filled() < ISLAND_SPACES
    ):
        out.append(BUY_PLANTATION)
    if has(pl, _SELL_PLANTATION):
        out.extend(discard_choices(pl))
    return out


def legal(state: State) -> list[Action]:
    seat = state.current
    posts = [_TRADING_POST[g] for g in _to_supply(state, seat)]
    sales = [_SELL[g] for g in _sellable(state, seat)] + posts + [PASS]
    return _forest(state, seat) + _land_office(state, seat) + sales


def _forest(state: State, seat: int) -> list[Action]:
    """Both expansions: the plantation just bought with the Land office may be laid as a
    forest with an occupied forest house (the owner has seen it, as with the hacienda)."""
    if state.drawn is None or not has(state.players[seat], _LAY_FOREST):
        return []
    return [FOREST]


def _check_land_office(state: State, action: Action) -> None:
    pl = state.players[state.current]
    if action.type == "buy_plantation":
        if not has(pl, _BUY_PLANTATION):
            raise IllegalAction("no_land_office")
    elif not has(pl, _SELL_PLANTATION):
        raise IllegalAction("no_land_office_noble")
    if state.land_office_used:
        raise IllegalAction("land_office_used")
    if action.type == "discard_plantation":
        check_discard(pl, action)
        return
    if not state.stack:
        raise IllegalAction("stack_empty")
    if pl.island_filled() >= ISLAND_SPACES:
        raise IllegalAction("island_full")
    if not pl.doubloons:
        raise IllegalAction("no_doubloon")


def check(state: State, action: Action) -> None:
    if action.type == "pass":
        return
    if action.type in ("buy_plantation", "discard_plantation"):
        _check_land_office(state, action)
        return
    if action.type == "forest":
        if not has(state.players[state.current], _LAY_FOREST):
            raise IllegalAction("no_forest_house")
        if state.drawn is None:
            raise IllegalAction("nothing_drawn")
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
    if action.type in ("buy_plantation", "discard_plantation", "forest"):
        if action.type == "forest":
            lay_drawn_forest(state, log)
        else:
            _play_land_office(state, action, log)
        if _sellable(state, seat) or _to_supply(state, seat) or _forest(state, seat):
            return  # the seat may still sell; with nothing to sell its turn is over
    elif action.type == "sell":
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
    state.land_office_used = False
    forget_drawn(state, log)
    state.turn += 1
    _advance(state, log)


def _play_land_office(state: State, action: Action, log: list[dict] | None) -> None:
    seat = state.current
    pl = state.players[seat]
    state.land_office_used = True
    if action.type == "buy_plantation":
        pl.doubloons -= 1
        draw_plantation(state, "land_office_buy", log)
        return
    discard_plantation(state, seat, action, "land_office_sell", log)
    pl.doubloons += 1


def _has_choice(state: State, seat: int) -> bool:
    return bool(_sellable(state, seat) or _to_supply(state, seat) or _land_office(state, seat))


def _advance(state: State, log: list[dict] | None) -> None:
    """Seats with nothing sellable are passed over; a full house ends the selling."""
    if next_seat_to_decide(state, _has_choice):
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
