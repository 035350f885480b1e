"""What the bots know about Puerto Rico, as numbers: how long the game will last and what a
doubloon, a barrel, a worked plantation or a building is worth in VP at this point.

Everything here reads only what lies open on the table (and the seat's own VP), so it gives
the same answers on any determinization of a seat's view. Values are VP over the rest of the
game: "money early and points late" falls out of a doubloon being worth less, and a
plantation earning for fewer rounds, the closer the end.
"""

from __future__ import annotations

import json
from operator import itemgetter
from pathlib import Path

from games.engines.puerto_rico.common import roles_per_round, uses_nobles
from games.engines.puerto_rico.data import (
    ALL_GOODS,
    ALL_ISLAND_KINDS,
    BUILDINGS,
    CIRCLES,
    CITY_SPACES,
    CORN,
    FACTORY_BONUS,
    INDIGO,
    ISLAND_SPACES,
    PRICES,
    PROCESSED_GOODS,
    QUARRY,
    SUGAR,
)
from games.engines.puerto_rico.powers import HOOKS, SCORING
from games.engines.puerto_rico.state import Player, State

LARGE = frozenset(b.name for b in BUILDINGS.values() if b.large)
PRODUCTION = {b.name: b.good for b in BUILDINGS.values() if b.good is not None}
_SCORING = {h.building: h.fn for h in HOOKS[SCORING]}


def rounds_left(state: State) -> float:
    """Rounds still to be played, counting the current one, from the three clocks of the
    game's end: colonists, VP chips and the fullest city."""
    n = state.num_players
    done = state.roles_chosen / roles_per_round(n)
    if state.end_reasons:
        return max(0.2, 1.0 - done)
    demand = 0
    fullest = 0
    for pl in state.players:
        demand += pl.empty_building_circles()
        fullest = max(fullest, pl.city_spaces_used())
    # Rates fitted on games between the heuristic players (mean error about a round).
    r_colonists = state.colonist_supply / max(n, 0.2 * demand + 0.8 * n) + 1.0
    if uses_nobles(state):  # with the Nobles, running out of colonists ends nothing
        r_colonists = float("inf")
    given = state.options["vp_chips"] - state.vp_chips
    rate = max(given / max(1, state.round - 1), 2.0 * n)
    r_chips = state.vp_chips / rate + 0.5
    r_city = (CITY_SPACES - fullest) * 1.2 + 0.5
    return max(0.5, min(r_colonists, r_chips, r_city) - done)


W: dict[str, float] = json.loads(Path(__file__).with_name("knowledge.json").read_text())
"""The heuristics' tunable numbers, in VP unless said otherwise: data, fitted by self-play
(``bench/fit_weights.py --out games/bots/knowledge.json``). What each one is:

- ``mv_max``, ``mv_slope``, ``mv_end``: what a doubloon is worth: up to ``mv_max`` VP early,
  ``mv_slope`` less per round closer to the end, ``mv_end`` in the last round.
- ``chain``: a worked production chain yields a barrel at about this share of the rounds.
- ``quarry``: a worked quarry saves about a doubloon on this share of the builds to come.
- ``held``: a barrel in hand is worth this share of what shipping or selling it brings (it
  still needs a captain or a trader, and it may spoil).
- ``other_max``, ``other_mean``: what the others get from a role counts against it (their
  best, their average); ``r_<role>`` scales each role's estimated gains; ``settle_later``
  and ``mayor_gain`` weigh the settler's and the mayor's gains.
- ``b_working``, ``b_spare``, ``b_early``, ``b_violet``, ``b_large``, ``b_pass``: buildings:
  the share of a production building's circles that will be worked (by tiles it finds now,
  by tiles still to come), an early bonus per working circle, the share of a violet
  building's use, the chance a large building gets occupied, the least net worth worth
  building for.
- ``s_quarry``, ``s_spec``, ``hacienda``: plantations: a quarry's weight, a plantation with
  no circle of its kind yet, the hacienda.
- ``harbor``, ``wharf``, ``factory``, ``markets``, ``office``, ``warehouse``, ``sell_rival``:
  the per-round use of violet buildings when worked.
- ``load_follow``, ``spoil``: the captain: barrels left to the next seat on a ship, barrels
  lost at storage.
- ``forest``, ``bm_colonist``, ``small_wharf``: New Buildings: a forest's worth (a half
  doubloon off each build to come), what a colonist paid to the black market costs, a small
  wharf's shipment against a cargo ship's.
- ``noble``, ``lodge_most_empty``: the Nobles: a noble's worth beyond a colonist's, the share
  of rounds the Hunting lodge's noble scores.
"""


def money_value(rounds: float) -> float:
    """VP a doubloon is worth: much early (it builds what earns), little at the end."""
    if rounds <= 1.0:
        return W["mv_end"]
    return min(W["mv_max"], 0.1 + W["mv_slope"] * rounds)


class Values:
    """The worth of each thing at the current point of a game, computed once per decision
    (it depends on the state, not on the seat)."""

    __slots__ = ("barrel", "chain", "future", "money", "quarry", "rounds", "violet")

    def __init__(self, state: State) -> None:
        r = self.rounds = rounds_left(state)
        self.future = max(0.0, r - 1.0)
        mv = self.money = money_value(r)
        ship = 0.9 if r >= 1.0 else 0.5
        self.barrel = [max(ship, PRICES[g] * mv + 0.15) for g in ALL_GOODS]
        self.chain = [W["chain"] * v for v in self.barrel]
        self.quarry = W["quarry"] * mv if r > 2 else 0.05
        early = r > 4
        self.violet = {
            "small_market": W["markets"] * mv,
            "large_market": 2 * W["markets"] * mv,
            "office": W["office"] * mv,
            "hacienda": 0.3 if early else 0.05,
            "construction_hut": 0.25 if early else 0.05,
            "small_warehouse": W["warehouse"],
            "large_warehouse": 1.5 * W["warehouse"],
            "hospice": 0.3 if r > 3 else 0.1,
            "university": 0.3 if r > 3 else 0.1,
            "harbor": W["harbor"],
            "wharf": W["wharf"],
            # New Buildings (per round, in VP, when worked)
            "forest_house": 0.3 if early else 0.05,
            "black_market": 0.25 if early else 0.05,
            "storehouse": 1.2 * W["warehouse"],
            "guest_house": 0.3 if r > 2 else 0.1,
            "trading_post": 2 * W["markets"] * mv,
            "church": 0.45 if r > 2 else 0.1,
            "small_wharf": 0.5,
            "lighthouse": 2 * W["harbor"] * mv,
            "library": 0.6,
            "union_hall": 0.6,
        }

    def violet_use(self, pl: Player, name: str) -> float:
        """Per-round worth of working violet building ``name`` for ``pl``."""
        if name in VIOLET_USE:
            return VIOLET_USE[name](self, pl)
        return self.violet.get(name, 0.0)


DRAFT_VALUE = {
    "small_market": 1.5,
    "hacienda": 1.4,
    "construction_hut": 1.4,
    "small_warehouse": 1.6,
    "hospice": 1.6,
    "office": 2.0,
    "large_market": 2.6,
    "large_warehouse": 2.1,
    "factory": 3.1,
    "university": 1.5,
    "harbor": 3.2,
    "wharf": 3.3,
    "guild_hall": 3.0,
    "residence": 3.0,
    "fortress": 3.0,
    "customs_house": 2.8,
    "city_hall": 3.0,
    "aqueduct": 1.5,
    "forest_house": 1.5,
    "black_market": 1.9,
    "storehouse": 2.0,
    "guest_house": 1.7,
    "trading_post": 2.5,
    "church": 2.4,
    "small_wharf": 2.2,
    "lighthouse": 2.5,
    "specialty_factory": 2.7,
    "library": 3.1,
    "union_hall": 2.6,
    "statue": 3.4,
    "cloister": 2.2,
}
"""New Buildings draft: how much a building on the board is worth having in the game, in VP
(its VP and a typical use over a game), for the player who drafts it first."""


def circles(pl: Player) -> list[int]:
    """Production circles per good (corn needs none)."""
    out = [0] * len(ALL_GOODS)
    for name in pl.city:
        if name in _PRODUCTION_CIRCLES:
            good, n = _PRODUCTION_CIRCLES[name]
            out[good] += n
    return out


_PRODUCTION_CIRCLES = {name: (good, CIRCLES[name]) for name, good in PRODUCTION.items()}


def large_bonus(pl: Player, name: str) -> int:
    """End-of-game VP of large building ``name`` for ``pl`` as things stand (if occupied),
    counted by the building's own scoring power; a city hall not yet built counts itself."""
    scoring = _SCORING.get(name)  # (the statue has none: its 8 VP are its own)
    bonus = scoring(pl) if scoring else 0
    return bonus + 1 if name == "city_hall" and name not in pl.city else bonus


def units(pl: Player, values: Values) -> list[tuple[float, int, int]]:
    """What colonists can work, as ``(worth per colonist, colonists, key)``, best first.

    Worth is VP over the rest of the game: a plantation with a circle of its kind (two
    colonists), a corn field, a working violet building, a quarry; a large building its end
    bonus. ``key`` is an island kind (0-5) or 10 + the index of a violet building in ``pl.city``.
    """
    later = max(0.3, values.rounds - 0.5)
    out: list[tuple[float, int, int]] = []
    circ = circles(pl)
    tiles = pl.tiles
    for g in PROCESSED_GOODS:
        pairs = min(tiles[g], circ[g])
        if pairs:
            worth = values.chain[g] * later / 2
            out.extend([(worth, 2, g)] * pairs)
    if tiles[CORN]:
        out.extend([(values.chain[CORN] * later, 1, CORN)] * tiles[CORN])
    if tiles[QUARRY]:
        out.extend([(values.quarry * later, 1, QUARRY)] * tiles[QUARRY])
    for i, name in enumerate(pl.city):
        if name in PRODUCTION or not CIRCLES[name]:
            continue
        if name in LARGE:
            worth = large_bonus(pl, name) + 0.5
        else:
            worth = values.violet_use(pl, name) * later
        out.append((worth, 1, 10 + i))
    out.sort(key=itemgetter(0), reverse=True)  # stable: equal worths keep this order
    return out


def placed_worth(options: list[tuple[float, int, int]], colonists: int) -> float:
    """Worth of the units ``colonists`` fill, taken greedily by worth per colonist."""
    total = 0.0
    for worth, cost, _ in options:
        if cost <= colonists:
            colonists -= cost
            total += worth * cost
            if not colonists:
                break
    return total


def placement(pl: Player, colonists: int, values: Values) -> tuple[list[int], dict[str, int]]:
    """A good placement of ``colonists`` on ``pl``'s island and city, built greedily: units by
    worth per colonist, then what is left on any free space (the rules allow San Juan only
    when every circle is full). Returns ``(island counts, city counts)``."""
    island = [0] * len(ALL_ISLAND_KINDS)
    names = list(pl.city)
    city = dict.fromkeys(names, 0)
    left = colonists
    for _, cost, key in units(pl, values):
        if cost > left:
            continue
        left -= cost
        if key >= 10:
            city[names[key - 10]] = 1
            continue
        island[key] += 1
        if cost == 2:  # and a circle of its kind, larger buildings first
            for name in sorted(names, key=lambda b: -CIRCLES[b]):
                if PRODUCTION.get(name) == key and city[name] < CIRCLES[name]:
                    city[name] += 1
                    break
        if not left:
            break
    if left:
        for k in ALL_ISLAND_KINDS:
            add = min(left, pl.tiles[k] - island[k])
            island[k] += add
            left -= add
        for name in names:
            add = min(left, CIRCLES[name] - city[name])
            city[name] += add
            left -= add
    return island, city


# The Nobles ----------------------------------------------------------------------------------
#
# What each of the eight buildings earns a round when worked, as the rulebook describes it
# (a noble or a colonist on it, as the building wants), and where nobles are best placed.


def _free_spaces(pl: Player) -> int:
    return ISLAND_SPACES - sum(pl.tiles)


NOBLES_USE = {
    # A face-down plantation for a doubloon while there is room (colonist).
    "land_office": lambda v, pl: 0.4 * v.chain[CORN] * min(1.0, _free_spaces(pl) / 3),
    # A doubloon (colonist) or a VP (noble) every craftsman phase, about every other round.
    "chapel": lambda v, pl: 0.5 * (1.0 if pl.nobles() else v.money),
    # 2 VP when strictly the emptiest island (noble).
    "hunting_lodge": lambda v, pl: W["lodge_most_empty"] * 2.0 * (1.0 if pl.nobles() else 0.2),
    # A doubloon off most builds still to come (colonist).
    "building_office": lambda v, pl: 0.35 * v.money,
    # A barrel per noble for a VP each, on most captain phases.
    "royal_supplier": lambda v, pl: 0.4 * min(pl.nobles(), 3) * (1.0 - W["held"] * 0.9),
    # A noble a round.
    "villa": lambda v, pl: 0.9 * W["noble"],
    # A doubloon per noble every craftsman phase, about every other round.
    "jeweler": lambda v, pl: 0.5 * max(1, pl.nobles()) * v.money,
}
"""Per-round worth of each Nobles building when worked, like ``Values.violet_use``."""


def _factory(v: Values, pl: Player) -> float:
    kinds = sum(1 for g in ALL_GOODS if pl.tiles[g])
    return FACTORY_BONUS[kinds] * W["factory"] * v.money


def _hacienda(v: Values, pl: Player) -> float:
    free = ISLAND_SPACES - pl.island_filled()
    return v.violet["hacienda"] * min(1.0, free / 4)


def _aqueduct(v: Values, pl: Player) -> float:
    worth = v.barrel[INDIGO] if pl.city.get("indigo_plant") else 0.0
    worth += v.barrel[SUGAR] if pl.city.get("sugar_mill") else 0.0
    return W["chain"] * worth


def _specialty_factory(v: Values, pl: Player) -> float:
    best = max(min(pl.tiles[g], 3) for g in PROCESSED_GOODS)
    return max(0, best - 1) * W["factory"] * 2 * v.money


VIOLET_USE = {
    **NOBLES_USE,
    "factory": _factory,
    "hacienda": _hacienda,
    "aqueduct": _aqueduct,
    "specialty_factory": _specialty_factory,
}
"""The violet buildings whose use depends on the player; the others' is ``Values.violet``."""

NOBLE_SEATS = ("chapel", "hunting_lodge", "royal_garden", "villa", "jeweler", "royal_supplier")
"""Buildings where a noble goes first: the Chapel and the Hunting lodge want one; the others
work with either piece, and a noble there frees a colonist for a colonist's building."""
COLONIST_SEATS = ("land_office", "building_office")
"""Buildings where a noble goes last: they do more with a colonist (early in the game)."""


def noble_placement(
    pl: Player, island: list[int], city: dict[str, int], nobles: int
) -> tuple[list[int], dict[str, int]]:
    """Which of the placed pieces are nobles: the Nobles' own buildings first, then the
    island, then the other buildings, the colonists' buildings last; the rest wait."""
    noble_island = [0] * len(ALL_ISLAND_KINDS)
    noble_city = dict.fromkeys(city, 0)
    first = [b for b in NOBLE_SEATS if city.get(b)]
    middle = [b for b in city if b not in NOBLE_SEATS and b not in COLONIST_SEATS]
    last = [b for b in COLONIST_SEATS if city.get(b)]
    for b in first:
        noble_city[b] = min(nobles, city[b])
        nobles -= noble_city[b]
    for k in ALL_ISLAND_KINDS:
        noble_island[k] = min(nobles, island[k])
        nobles -= noble_island[k]
    for b in middle + last:
        noble_city[b] = min(nobles, city[b])
        nobles -= noble_city[b]
    return noble_island, noble_city
