"""The heuristic player: one scoring rule per kind of decision, fast enough to play whole games
inside a search (tens of microseconds a decision).

``choose(state, values, rng, noise)`` picks the current seat's action. With ``noise`` 0 it is
deterministic; otherwise each candidate's score is blurred by a Gaussian of that width, which
makes the easy level beatable and a search's rollouts varied. Scores are in VP (see
``knowledge``), so a role, a building and a barrel are weighed on one scale.
"""

from __future__ import annotations

import random
from operator import itemgetter

from games.engines.puerto_rico import guests, rules
from games.engines.puerto_rico.actions import PASS, Action, Arrange, Store
from games.engines.puerto_rico.builder import prices
from games.engines.puerto_rico.captain import ships_for, storage_choices, warehouse_kinds
from games.engines.puerto_rico.craftsman import capacity
from games.engines.puerto_rico.data import (
    ALL_GOODS,
    BUILDINGS,
    CITY_SPACES,
    COFFEE,
    CORN,
    INDIGO,
    ISLAND_INDEX,
    ISLAND_SPACES,
    PROCESSED_GOODS,
    QUARRY,
    TRADING_HOUSE_SPACES,
)
from games.engines.puerto_rico.mayor import noble_choices, privilege_colonists
from games.engines.puerto_rico.powers import (
    COLONIST_WITH_TILE,
    DRAW_FACE_DOWN,
    HOOKS,
    LOADING_VP,
    OWN_SHIP,
    PRODUCTION_INCOME,
    PRODUCTION_PAY,
    PRODUCTION_VP,
    SELL_SAME_KIND,
    SETTLE_QUARRY,
    STORAGE_BARRELS,
    STORAGE_KINDS,
    has,
    total,
)
from games.engines.puerto_rico.state import Player, State
from games.engines.puerto_rico.trader import sale_price

from .knowledge import (
    DRAFT_VALUE,
    LARGE,
    PRODUCTION,
    Values,
    W,
    circles,
    large_bonus,
    noble_placement,
    placed_worth,
    placement,
    units,
)

STORAGE = frozenset(b for point in (STORAGE_KINDS, STORAGE_BARRELS) for b, _, _ in HOOKS[point])
"""The buildings that keep barrels in storage: the warehouses and the storehouse."""

_SETTLE_QUARRY = HOOKS[SETTLE_QUARRY]
_DRAW_FACE_DOWN = HOOKS[DRAW_FACE_DOWN]
_COLONIST_WITH_TILE = HOOKS[COLONIST_WITH_TILE]
_PRODUCTION_PAY = HOOKS[PRODUCTION_PAY]
_PRODUCTION_INCOME = HOOKS[PRODUCTION_INCOME]
_PRODUCTION_VP = HOOKS[PRODUCTION_VP]
_SELL_SAME_KIND = HOOKS[SELL_SAME_KIND]
_OWN_SHIP = HOOKS[OWN_SHIP]
_LOADING_VP = HOOKS[LOADING_VP]


def choose(state: State, values: Values, rng: random.Random, noise: float = 0.0) -> Action:
    """The heuristic's action for the seat to act."""
    phase = state.phase
    if phase == "mayor":
        return arrange(state, values)
    move = guest_move(state, values)
    if move is not None:
        return move
    scored = scored_actions(state, values)
    if noise:
        scored = [(s + rng.gauss(0.0, noise), a) for s, a in scored]
    return max(scored, key=itemgetter(0))[1]


def scored_actions(state: State, values: Values) -> list[tuple[float, Action]]:
    """Every legal action but guest moves and placements, with the heuristic's score."""
    if state.phase == "role":
        return [
            (role_score(state, values, a.role), a)
            for a in rules.legal_actions(state)
            if a.type == "choose_role"
        ]
    return [sa for sa in SCORERS[state.phase](state, values) if sa[1].type != "move_guest"]


def guest_move(state: State, values: Values) -> Action | None:
    """New Buildings: a guest goes at once to the empty circle where it earns most. In the
    guest window before storage a warehouse or the storehouse is worth the barrels it saves;
    in the one before the final scoring only a large building's bonus still pays."""
    moves = guests.legal(state)
    if not moves:
        return None
    pl = state.players[state.current]
    circ = circles(pl)
    window = state.guests_then if state.phase == "guests" else None

    def worth(place: str) -> float:
        if window == guests.GAME_END:
            return large_bonus(pl, place) if place in LARGE else 0.0
        if window == guests.STORAGE and place in STORAGE:
            moved = pl.clone()
            moved.city[place] += 1
            return _kept(moved, values) - _kept(pl, values)
        kind = ISLAND_INDEX.get(place)
        if kind == QUARRY:
            return values.quarry
        if kind is not None:
            works = kind == CORN or circ[kind] > pl.worked[kind]
            return values.chain[kind] if works else 0.0
        good = PRODUCTION.get(place)
        if good is not None:
            busy = sum(pl.city.get(b, 0) for b in pl.city if PRODUCTION.get(b) == good)
            return values.chain[good] if pl.worked[good] > busy else 0.0
        if place in LARGE:
            return large_bonus(pl, place)
        return values.violet_use(pl, place)

    best, move = max(((worth(a.to), a) for a in moves), key=lambda wa: wa[0])
    return move if best > 0 else None


# Roles ------------------------------------------------------------------------------------
#
# Each _gain_ function estimates, in VP, what a role's phase brings every seat (all act on it,
# the chooser with his privilege), by a quick pass over the seats in the phase's order.


def role_score(state: State, values: Values, role: str) -> float:
    """What the role brings the chooser, against what it brings the others (who act on it
    too): a role that gives the next players more than the chooser is a poor one."""
    me = state.current
    gains = GAINS[role](state, values, me)
    others = [g for s, g in enumerate(gains) if s != me]
    bonus = max(d for r, d, t in state.roles if r == role and t is None)
    versus = W["other_max"] * max(others) + W["other_mean"] * sum(others) / len(others)
    return W["r_" + role] * (gains[me] - versus) + bonus * values.money


def _order(state: State, first: int) -> list[int]:
    n = state.num_players
    return [(first + i) % n for i in range(n)]


def _gain_prospector(state: State, values: Values, me: int) -> list[float]:
    gains = [0.0] * state.num_players
    gains[me] = values.money
    return gains


def _gain_settler(state: State, values: Values, me: int) -> list[float]:
    gains = [0.0] * state.num_players
    row = list(state.face_up)
    later = values.future * W["settle_later"]
    for seat in _order(state, me):
        pl = state.players[seat]
        if pl.island_filled() >= ISLAND_SPACES:
            continue
        circ = circles(pl)
        options = [(plantation_worth(pl, circ, k, values), k) for k in set(row)]
        if state.quarries and (seat == me or has(pl, _SETTLE_QUARRY)):
            options.append((plantation_worth(pl, circ, QUARRY, values), QUARRY))
        if not options:
            continue
        worth, kind = max(options)
        if kind != QUARRY:
            row.remove(kind)
        extra = 0.3 if has(pl, _DRAW_FACE_DOWN) else 0.0
        extra += 0.4 if has(pl, _COLONIST_WITH_TILE) else 0.0
        gains[seat] = (worth + extra) * later
    return gains


def _gain_mayor(state: State, values: Values, me: int) -> list[float]:
    n = state.num_players
    ship = state.colonist_ship
    gains = [0.0] * n
    for offset, seat in enumerate(_order(state, me)):
        more = ship // n + (1 if offset < ship % n else 0)
        if seat == me and state.colonist_supply:
            more += 1
        if more:
            pl = state.players[seat]
            have = pl.colonists()
            options = units(pl, values)
            gained = placed_worth(options, have + more) - placed_worth(options, have)
            gains[seat] = W["mayor_gain"] * gained + 0.05 * more
    if state.noble_ship:  # the mayor places first: the ship's noble is his to take
        gains[me] += W["noble"]
    return gains


def _gain_builder(state: State, values: Values, me: int) -> list[float]:
    # In the role phase the chooser is the seat choosing: prices include his discount.
    return [_best_build(state, values, seat) for seat in range(state.num_players)]


def _gain_craftsman(state: State, values: Values, me: int) -> list[float]:
    gains = [0.0] * state.num_players
    supply = state.goods[:]
    produced: list[int] = []
    for seat in _order(state, me):
        pl = state.players[seat]
        made = capacity(pl)
        kinds = 0
        worth = 0.0
        for g in ALL_GOODS:
            n = min(made[g], supply[g])
            if n:
                supply[g] -= n
                kinds += 1
                worth += n * values.barrel[g] * W["held"]
                if seat == me:
                    produced.append(g)
        worth += total(pl, _PRODUCTION_PAY, kinds) * values.money
        worth += total(pl, _PRODUCTION_INCOME) * values.money  # the Nobles' buildings
        worth += total(pl, _PRODUCTION_VP)
        worth -= _spoilage(pl, made, values)
        gains[seat] = worth
    extra = [values.barrel[g] * W["held"] for g in produced if supply[g]]
    gains[me] += max(extra, default=0.0)
    return gains


def _spoilage(pl: Player, made: list[int], values: Values) -> float:
    """Barrels beyond what the seat can keep, should no captain come first (nothing to count
    where the weights ignore barrels in hand, as the fitted ones do)."""
    weight = W["spoil"] * W["held"]
    if not weight:
        return 0.0
    held = sorted(
        (values.barrel[g] for g in ALL_GOODS for _ in range(pl.goods[g] + made[g])), reverse=True
    )
    keep = 1 + 3 * warehouse_kinds(pl) + 2
    return weight * sum(held[keep:])


def _gain_trader(state: State, values: Values, me: int) -> list[float]:
    gains = [0.0] * state.num_players
    house = list(state.trading_house)
    for seat in _order(state, me):
        if len(house) >= TRADING_HOUSE_SPACES:
            break
        best, good = _best_sale(state, values, seat, house)
        if good is not None:
            gains[seat] = best
            house.append(good)
    return gains


def _best_sale(state: State, values: Values, seat: int, house: list[int]) -> tuple[float, int]:
    pl = state.players[seat]
    office = has(pl, _SELL_SAME_KIND)
    best, good = 0.0, None
    for g in ALL_GOODS:
        if pl.goods[g] and (office or g not in house):
            net = sale_price(state, seat, g) * values.money - W["held"] * values.barrel[g]
            if net > best:
                best, good = net, g
    return best, good


def _gain_captain(state: State, values: Values, me: int) -> list[float]:
    """Loads played out greedily (each seat its biggest load) on a copy of the ships."""
    n = state.num_players
    gains = [0.0] * n
    ships = [list(s) for s in state.ships]
    goods = [state.players[s].goods[:] for s in range(n)]
    wharf = [has(state.players[s], _OWN_SHIP) for s in range(n)]
    idle, seat, bonus = 0, me, True
    while idle < n:
        pl = state.players[seat]
        best, pick = 0, None
        for g in ALL_GOODS:
            have = goods[seat][g]
            if have:
                for i in ships_for(ships, g, have):
                    amount = min(have, ships[i][0] - ships[i][2])
                    if amount > best:
                        best, pick = amount, (g, i)
        if pick is None and wharf[seat] and any(goods[seat]):
            g = max(ALL_GOODS, key=lambda k: goods[seat][k])
            best, pick, wharf[seat] = goods[seat][g], (g, None), False
        if pick is None:
            idle += 1
        else:
            idle = 0
            g, i = pick
            if i is not None:
                ships[i][1] = g
                ships[i][2] += best
            goods[seat][g] -= best
            vp = best + total(pl, _LOADING_VP, best)
            if seat == me and bonus:
                vp, bonus = vp + 1, False
            gains[seat] += vp - best * W["held"] * values.barrel[g]
        seat = (seat + 1) % n
    if not W["held"]:  # barrels left in hand count for nothing
        return gains
    for s in range(n):
        left = sorted(
            (values.barrel[g] for g in ALL_GOODS for _ in range(goods[s][g])), reverse=True
        )
        gains[s] -= W["held"] * sum(left[1 + 3 * warehouse_kinds(state.players[s]) :])
    return gains


GAINS = {
    "settler": _gain_settler,
    "mayor": _gain_mayor,
    "builder": _gain_builder,
    "craftsman": _gain_craftsman,
    "trader": _gain_trader,
    "captain": _gain_captain,
    "prospector": _gain_prospector,
}


# Settler ----------------------------------------------------------------------------------


def plantation_worth(pl: Player, circ: list[int], kind: int, values: Values) -> float:
    """Per-round worth of one more island tile of ``kind`` once a colonist works it."""
    if kind == QUARRY:
        have = pl.tiles[QUARRY]
        return values.quarry * (1.6 if have < 2 else 0.8 if have < 4 else 0.0) * W["s_quarry"]
    if kind == CORN:
        return values.chain[CORN] * (1.0 if pl.tiles[CORN] < 3 else 0.6)
    if circ[kind] > pl.tiles[kind]:
        return values.chain[kind]
    # No circle for it yet: a building may follow, and rivals may not get it.
    return values.chain[kind] * W["s_spec"] * (1.3 if pl.tiles[kind] else 1.0)


def _score_settler(state: State, values: Values) -> list[tuple[float, Action]]:
    pl = state.players[state.current]
    free = ISLAND_SPACES - pl.island_filled()
    circ = circles(pl)
    out: list[tuple[float, Action]] = []
    forest = forest_worth(pl, values)
    for a in rules.legal_actions(state):
        if a.type == "hacienda":
            out.append((W["hacienda"] if free >= 2 and values.rounds > 3 else -1.0, a))
        elif a.type == "settle":
            worth = forest if a.forest else plantation_worth(pl, circ, a.tile, values)
            out.append((worth + (0.5 if a.hospice else 0.0), a))
        elif a.type == "forest":  # the hacienda's tile: better as a forest?
            out.append((forest - plantation_worth(pl, circ, state.drawn, values), a))
        else:
            out.append((0.0, a))
    return out


def forest_worth(pl: Player, values: Values) -> float:
    """A forest: every second one saves a doubloon on each build to come (and a cloister
    counts sets of three)."""
    builds = min(values.future, CITY_SPACES - pl.city_spaces_used()) / 2
    cloister = 0.3 if "cloister" in pl.city else 0.0
    return W["forest"] * values.money * builds + cloister


# Mayor ------------------------------------------------------------------------------------


def arrange(state: State, values: Values) -> Arrange:
    """A placement built directly (never a walk over every legal one): the mayor takes his
    extra colonist, a seat takes the ship's noble when it may (a VP at the end), and pieces
    go where they earn most, nobles where a noble does more than a colonist."""
    pl = state.players[state.current]
    extra = privilege_colonists(state)
    take = True in noble_choices(state)
    gives = take and state.current != state.noble_seat  # a colonist for the noble
    nobles = pl.nobles() + take
    pieces = pl.colonists() + extra + take - gives
    island, city = placement(pl, pieces, values)
    if not nobles:
        return Arrange(tuple(island), tuple(city.items()), extra > 0)
    noble_island, noble_city = noble_placement(pl, island, city, nobles)
    return Arrange(
        tuple(c - m for c, m in zip(island, noble_island, strict=True)),
        tuple((b, c - noble_city[b]) for b, c in city.items()),
        extra > 0,
        tuple(noble_island),
        tuple(noble_city.items()),
        take,
    )


# Builder ----------------------------------------------------------------------------------


def building_worth(pl: Player, circ: list[int], name: str, values: Values) -> float:
    """What owning ``name`` is worth to ``pl``: its VP, plus what it earns once worked."""
    vp, large, good, circles_ = _BUILDING_FACTS[name]
    later = values.future
    if large:
        bonus = large_bonus(pl, name)
        if later > 3:
            if name == "guild_hall":
                bonus += 1
            elif name == "residence":
                bonus = max(bonus, 5)
            elif name == "cloister":
                bonus += 2  # a set or two more of three tiles before the end
        occupy = W["b_large"] if pl.san_juan or values.rounds > 1.5 else 0.4
        return vp + bonus * occupy
    if good is not None:
        spare_tiles = pl.tiles[good] - circ[good]
        working = circles_ if spare_tiles >= circles_ else spare_tiles if spare_tiles > 0 else 0
        spare = circles_ - working
        return (
            vp
            + later * values.chain[good] * (W["b_working"] * working + W["b_spare"] * spare)
            + (W["b_early"] if values.rounds > 4 else 0.0) * working
        )
    use = values.violet_use(pl, name)
    if name in _SHIPPING:
        made = sum(min(pl.tiles[g], circ[g]) for g in PROCESSED_GOODS) + pl.tiles[CORN]
        use *= min(1.5, made / 4)
    elif name in _TRADING:
        use *= 1.0 if any(pl.tiles[INDIGO : COFFEE + 1]) else 0.4
    return vp + W["b_violet"] * later * use


_SHIPPING = frozenset(("harbor", "wharf"))
_TRADING = frozenset(("small_market", "large_market", "office"))


_BUILDING_FACTS = {
    name: (float(b.vp), name in LARGE, b.good, b.circles) for name, b in BUILDINGS.items()
}
"""What ``building_worth`` asks of a building, looked up once: its VP, whether it is large,
the good it processes, its circles."""


def _best_build(state: State, values: Values, seat: int) -> float:
    """The net worth of the best building ``seat`` can afford now; 0 when none is worth
    its price."""
    pl = state.players[seat]
    free = CITY_SPACES - pl.city_spaces_used()
    cash = pl.doubloons
    city = pl.city
    price_of = prices(state, seat)
    money = values.money
    circ = None
    best = 0.0
    for name, left in state.buildings.items():
        b = BUILDINGS[name]
        if not left or name in city or b.spaces > free:
            continue
        cost = price_of(b)
        if cost <= cash:
            if circ is None:
                circ = circles(pl)
            worth = building_worth(pl, circ, name, values) - cost * money
            if worth > best:
                best = worth
    return best


def _score_builder(state: State, values: Values) -> list[tuple[float, Action]]:
    seat = state.current
    pl = state.players[seat]
    circ = circles(pl)
    price_of = prices(state, seat)
    net: dict[str, float] = {}  # a building's worth less its price, whatever the payment
    out: list[tuple[float, Action]] = [(W["b_pass"], PASS)]
    for a in rules.legal_actions(state):
        if a.type == "build":
            name = a.building
            if name not in net:
                cost = min(pl.doubloons, price_of(BUILDINGS[name]))
                net[name] = building_worth(pl, circ, name, values) - cost * values.money
            paid = black_market_cost(a, values)
            out.append((net[name] - paid + (0.3 if a.university else 0.0), a))
    return out


def black_market_cost(a: Action, values: Values) -> float:
    """What a black-market payment gives up: a colonist's work (a noble's also its VP), a
    barrel, a VP."""
    colonist = W["bm_colonist"] if a.colonist is not None else 0.0
    barrel = values.barrel[a.good] if a.good is not None else 0.0
    return colonist + barrel + (1.0 if a.vp else 0.0) + (1.0 if a.noble else 0.0)


# Craftsman, trader ------------------------------------------------------------------------


def _score_craftsman(state: State, values: Values) -> list[tuple[float, Action]]:
    house = state.trading_house
    out: list[tuple[float, Action]] = []
    for a in rules.legal_actions(state):
        if a.type == "extra_good":
            blocked = 0.2 if a.good in house else 0.0
            out.append((values.barrel[a.good] - blocked, a))
        else:
            out.append((-0.5, a))
    return out


def _score_trader(state: State, values: Values) -> list[tuple[float, Action]]:
    seat = state.current
    pl = state.players[seat]
    out: list[tuple[float, Action]] = []
    for a in rules.legal_actions(state):
        if a.type in ("buy_plantation", "discard_plantation"):
            out.append((_land_office_score(pl, a, values), a))
        elif a.type == "sell":
            g = a.good
            money = sale_price(state, seat, g, a.trading_post)
            net = money * values.money - W["held"] * values.barrel[g]
            # Sell the last barrel of a kind rivals also hold before they take the space.
            rivals = sum(1 for o in state.players if o is not pl and o.goods[g])
            out.append((net + W["sell_rival"] * rivals, a))
        else:
            out.append((0.0, a))
    return out


def _land_office_score(pl: Player, action: Action, values: Values) -> float:
    """The Nobles' Land office: a face-down plantation is worth an average plantation that a
    colonist will work, less its doubloon; an empty plantation given up brings a doubloon and
    a free space, a worked one costs what it earns."""
    if action.type == "buy_plantation":
        worth = sum(values.chain[g] for g in ALL_GOODS) / len(ALL_GOODS)
        return worth * values.future * W["settle_later"] - values.money
    lost = 0.0 if action.occupant == "empty" else values.chain[action.tile] * values.future
    return values.money - lost - 0.05 * (ISLAND_SPACES - sum(pl.tiles))


def _score_hunting_lodge(state: State, values: Values) -> list[tuple[float, Action]]:
    """The Hunting lodge with a colonist: give up an empty plantation when the island is
    nearly full (room for a better one), else keep everything."""
    pl = state.players[state.current]
    out: list[tuple[float, Action]] = []
    for a in rules.legal_actions(state):
        if a.type == "discard_plantation":
            lost = 0.0 if a.occupant == "empty" else values.chain[a.tile] * values.future
            room = 0.3 if sum(pl.tiles) >= ISLAND_SPACES - 1 and values.future > 2 else -0.2
            out.append((room - lost, a))
        else:
            out.append((0.0, a))
    return out


# Captain ----------------------------------------------------------------------------------


def _score_captain(state: State, values: Values) -> list[tuple[float, Action]]:
    if state.phase == "storage":
        return _score_storage(state, values)
    seat = state.current
    pl = state.players[seat]
    nxt = state.players[(seat + 1) % state.num_players]
    out: list[tuple[float, Action]] = []
    for a in rules.legal_actions(state):
        if a.type == "load":
            cap, _, n = state.ships[a.ship]
            amount = min(pl.goods[a.good], cap - n)
            # Leave the next seat as little as possible to load.
            follow = nxt.goods[a.good] if amount < cap - n else 0
            out.append(
                (
                    amount
                    + 0.05 * values.barrel[a.good]
                    - W["load_follow"] * follow
                    - 0.01 * a.ship,
                    a,
                )
            )
        elif a.type == "royal_supplier":
            out.append((_supplier_score(state, pl, a, values), a))
        elif a.type == "wharf":
            on_ship = any(s[1] == a.good for s in state.ships) or ships_for(
                state.ships, a.good, pl.goods[a.good]
            )
            out.append((pl.goods[a.good] - (1.5 if on_ship else 0.0), a))
        elif a.type == "small_wharf":
            # Pairs of barrels that no cargo ship will take; odd ones only if they would spoil.
            barrels = sum(a.goods)
            odd = 0.3 * (barrels % 2)
            out.append((barrels // 2 - W["small_wharf"] - odd, a))
        else:
            out.append((0.0, a))
    return out


def _supplier_score(state: State, pl: Player, action: Action, values: Values) -> float:
    """The Nobles' Royal supplier: a VP per barrel now, then the seat still loads what it
    can; worth it for barrels that would not be shipped (or are worth little shipped)."""
    after = 0
    for g in ALL_GOODS:
        have = pl.goods[g] - (g in action.goods)
        for i in ships_for(state.ships, g, have) if have else ():
            cap, _, n = state.ships[i]
            after = max(after, min(have, cap - n))
    # A barrel no ship takes now is kept only if it survives storage: about half its worth.
    gained = sum(
        1.0 - W["held"] * values.barrel[g] * (1.0 if ships_for(state.ships, g, 1) else 0.5)
        for g in action.goods
    )
    return after + gained - 0.01


def _score_storage(state: State, values: Values) -> list[tuple[float, Action]]:
    pl = state.players[state.current]
    return [(_kept_worth(pl, a, values), a) for a in storage_choices(pl)]


def _kept_worth(pl: Player, a: Store, values: Values) -> float:
    kept = sum(pl.goods[g] * values.barrel[g] for g in a.warehouse)
    if a.windrose is not None:
        kept += values.barrel[a.windrose]
    return kept + sum(values.barrel[g] for g in a.storehouse)


def _kept(pl: Player, values: Values) -> float:
    """The worth of the barrels ``pl`` keeps at best in storage."""
    return max(_kept_worth(pl, a, values) for a in storage_choices(pl))


# New Buildings: the draft -----------------------------------------------------------------


def _score_draft(state: State, values: Values) -> list[tuple[float, Action]]:
    return [(DRAFT_VALUE[a.building], a) for a in rules.legal_actions(state)]


def _score_guests(state: State, values: Values) -> list[tuple[float, Action]]:
    """A guest window: ``guest_move`` found no move that pays, so the seat goes on."""
    return [(0.0, PASS)]


SCORERS = {
    "settler": _score_settler,
    "hunting_lodge": _score_hunting_lodge,
    "builder": _score_builder,
    "craftsman": _score_craftsman,
    "trader": _score_trader,
    "captain": _score_captain,
    "storage": _score_captain,
    "draft": _score_draft,
    "guests": _score_guests,
}
