"""Property tests of the Puerto Rico engine: random games from random seeds.

Every game is played by a seeded random policy over ``legal_actions``; along the way the
tests check the conservation laws of the components, that the offered actions are exactly the
legal ones (``check`` refuses everything else and a refusal changes nothing), determinism and
the JSON round trip, and what ``player_view`` hides. Plain pytest: no database.

Each property runs for the base game and, with fewer examples, for the Nobles (``edition``
``"nobles"``): the same laws, with the nobles counted and their buildings' choices offered.

``test_every_move_conserves_the_box_and_survives_json`` is the fixed-seed counterpart: every
edition and player count, ordinary games and *crowded* ones (``crowd``), checked after every
move, the JSON round trip field by field.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations, product
from math import prod

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import puerto_rico as pr
from games.engines.puerto_rico import rules
from games.engines.puerto_rico.actions import (
    OCCUPANTS,
    Arrange,
    Build,
    BuyPlantation,
    ChooseRole,
    DiscardPlantation,
    Draft,
    ExtraGood,
    Forest,
    Hacienda,
    IllegalAction,
    Load,
    MoveGuest,
    Pass,
    RoyalSupplier,
    Sell,
    Settle,
    SmallWharf,
    Store,
    Wharf,
    action_from_json,
    action_to_json,
)
from games.engines.puerto_rico.common import uses_new_buildings, uses_nobles
from games.engines.puerto_rico.data import (
    ALL_GOODS,
    BUILDINGS,
    CITY_SPACES,
    COLONISTS_IN_BOX,
    ISLAND_SPACES,
    QUARRY,
    ROLES,
    SETUPS,
)
from games.engines.puerto_rico.mayor import Arrangements
from games.engines.puerto_rico.state import Player, State

from .events import FIELDS

MAX_DECISIONS = 3000
"""Random games take about 200-450 decisions; far more means the game does not end."""

PROPERTY = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# Games ------------------------------------------------------------------------------------


NOBLES = "nobles"
BOTH = "both"


@st.composite
def game_configs(
    draw, editions: tuple[str, ...] = ("base", "new_buildings"), players=pr.PLAYER_COUNTS
) -> tuple[int, dict]:
    """A player count of ``players`` and options: hidden VP on/off, for five players 122 or
    126 chips, one of ``editions``."""
    n = draw(st.sampled_from(players))
    options = {
        "hidden_vp": draw(st.booleans()),
        "edition": draw(st.sampled_from(editions)),
    }
    if n == 5:
        chips = draw(st.sampled_from([None, 122, 126]))
        if chips is not None:
            options["vp_chips"] = chips
    return n, options


SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def pick(state: State, rng: random.Random, eager: bool = False, by_kind: bool = False):
    """A random legal action; ``eager`` avoids passing when there is anything else to do;
    ``by_kind`` picks a kind of action first (a guest move, a forest, a build …), then one of
    that kind, so that kinds offered as one choice among many come up as often as the rest."""
    actions = rules.legal_actions(state)
    if by_kind and not isinstance(actions, Arrangements):
        kinds: dict[type, list] = {}
        for action in actions:
            kinds.setdefault(type(action), []).append(action)
        actions = list(kinds.values())[rng.randrange(len(kinds))]
    if eager and len(actions) > 1 and actions[-1] == pr.Pass():
        return actions[rng.randrange(len(actions) - 1)]
    return actions[rng.randrange(len(actions))]


def random_game(
    n: int, options: dict, seed: int, policy_seed: int, eager: bool = False, crowded: bool = False
) -> Iterator[tuple[State, object, State]]:
    """Yield (state before, action, state after) for each decision of one random game.

    ``crowded``: once the first role is to be chosen (after the draft), ``crowd`` deals out
    the box as if the game were in full swing, and the policy picks ``by_kind``."""
    state = rules.new_game(n, seed, options)
    rng = random.Random(policy_seed)
    to_crowd = crowded
    for _ in range(MAX_DECISIONS):
        if rules.is_over(state):
            return
        if to_crowd and state.phase == "role":
            crowd(state, rng)
            to_crowd = False
        action = pick(state, rng, eager, by_kind=crowded)
        after = rules.apply(state, action)
        yield state, action, after
        state = after
    raise AssertionError(f"no end after {MAX_DECISIONS} decisions")


def crowd(state: State, rng: random.Random) -> None:
    """Deal out the box as if the game were in full swing, taking everything from the
    supplies: the board's buildings round the table while a seat has room, plantations from
    the stack and quarries, a colonist or noble on every tile and circle and a few in San
    Juan, barrels, doubloons, and all but a few VP chips. Random games seldom bring a seat
    several of the buildings that act together; crowded ones do so far more often, and end
    within a round or two."""
    n = state.num_players
    players = state.players
    copies = [name for name, left in state.buildings.items() for _ in range(left)]
    rng.shuffle(copies)
    room = [rng.randint(4, CITY_SPACES - 2) for _ in range(n)]
    for i, name in enumerate(copies):
        pl, space = players[i % n], room[i % n]
        if name not in pl.city and pl.city_spaces_used() + BUILDINGS[name].spaces <= space:
            state.buildings[name] -= 1
            pl.city[name] = 0
    for pl in players:
        for _ in range(rng.randint(2, 7)):
            if state.stack and pl.island_filled() < ISLAND_SPACES - 2:
                pl.tiles[state.stack.pop()] += 1
        if state.quarries and rng.random() < 0.5:
            state.quarries -= 1
            pl.tiles[QUARRY] += 1

    def piece() -> bool | None:
        """A noble (True) or colonist (False) from the supply; None when both are out."""
        if state.noble_supply and rng.random() < 0.4:
            state.noble_supply -= 1
            return True
        if state.colonist_supply:
            state.colonist_supply -= 1
            return False
        return None

    for pl in players:
        places = [("tile", k) for k in range(6) for _ in range(pl.tiles[k])]
        places += [("city", b) for b in pl.city for _ in range(BUILDINGS[b].circles)]
        places += [("san_juan", None)] * rng.randint(0, 2)
        for where, what in places:
            noble = piece()
            if noble is None:
                break
            if where == "tile":
                pl.worked[what] += 1
                pl.noble_worked[what] += noble
            elif where == "city":
                pl.city[what] += 1
                if noble:
                    pl.noble_city[what] = pl.noble_city.get(what, 0) + 1
            else:
                pl.san_juan += 1
                pl.noble_san_juan += noble
        for g in range(5):
            barrels = min(state.goods[g], rng.randint(0, 2))
            state.goods[g] -= barrels
            pl.goods[g] += barrels
        pl.doubloons += rng.randint(0, 4)
    for _ in range(state.vp_chips - rng.randint(n, 5 * n)):
        players[rng.randrange(n)].vp += 1
        state.vp_chips -= 1


# Conservation ------------------------------------------------------------------------------


class Totals:
    """What the box holds for this game, taken from the freshly set up table."""

    def __init__(self, state: State) -> None:
        setup = SETUPS[state.num_players]
        self.goods = list(setup.goods)
        self.plantations = list(setup.plantations)
        self.quarries = setup.quarries
        self.chips = state.options["vp_chips"]
        self.new_buildings = uses_new_buildings(state)
        nobles = uses_nobles(state)
        # The Nobles: every colonist of the box (none counted out).
        self.colonists = COLONISTS_IN_BOX if nobles else setup.colonist_supply + setup.colonist_ship
        # With the New Buildings the violet buildings come from the draft (checked as it goes);
        # the Nobles' buildings are laid out besides them.
        self.copies = {
            name: setup.copies(b)
            for name, b in BUILDINGS.items()
            if (b.expansion == "base" and not (self.new_buildings and b.violet))
            or (nobles and b.expansion == "nobles")
        }
        self.nobles = 20 if nobles else 0
        assert state.quarries == self.quarries == (5 if state.num_players == 2 else 8)
        if state.num_players < 5:
            assert self.chips == setup.vp_chips


def assert_invariants(state: State, totals: Totals) -> None:
    n = state.num_players
    players = state.players
    # Goods: supply + players + ships + trading house.
    for g in range(5):
        on_ships = sum(count for _, good, count in state.ships if good == g)
        total = (
            state.goods[g]
            + sum(pl.goods[g] for pl in players)
            + on_ships
            + state.trading_house.count(g)
        )
        assert total == totals.goods[g], f"good {g}: {total} != {totals.goods[g]}"
        assert state.goods[g] >= 0
        assert all(pl.goods[g] >= 0 for pl in players)
    for cap, good, count in state.ships:
        assert 0 <= count <= cap
        assert (good is None) == (count == 0)
    kinds_on_ships = [good for _, good, _ in state.ships if good is not None]
    assert len(kinds_on_ships) == len(set(kinds_on_ships)), "one kind on two ships"
    assert len(state.trading_house) <= 4
    # Colonists: supply + ship + placed + San Juan; nobles likewise.
    assert state.colonist_supply >= 0 and state.colonist_ship >= 0
    colonists = state.colonist_supply + state.colonist_ship
    colonists += sum(pl.colonists() - pl.nobles() for pl in players)
    assert colonists == totals.colonists
    assert state.noble_supply >= 0 and state.noble_ship in (0, 1)
    assert state.noble_supply + state.noble_ship + sum(pl.nobles() for pl in players) == (
        totals.nobles
    )
    for pl in players:
        pairs = zip(pl.noble_worked, pl.worked, strict=True)
        assert all(0 <= m <= w for m, w in pairs), "more nobles than pieces on a tile kind"
        assert all(0 < m <= pl.city[b] for b, m in pl.noble_city.items()), "nobles in the city"
        assert 0 <= pl.noble_san_juan <= pl.san_juan, "more nobles than pieces in San Juan"
    # Island tiles: stack + face-up + discards + islands + forests, per kind; quarries.
    assert all(sum(pl.forest_kinds) == pl.forests for pl in players)
    for k in range(5):
        total = (
            state.stack.count(k)
            + state.face_up.count(k)
            + state.discards.count(k)
            + sum(pl.tiles[k] + pl.forest_kinds[k] for pl in players)
        )
        assert total == totals.plantations[k], f"plantation {k}: {total}"
    assert state.quarries >= 0
    assert state.quarries + sum(pl.tiles[5] for pl in players) == totals.quarries
    # VP chips: every VP is a chip until the chips run out; VP earned after that count on
    # paper (``assert_vp_from_the_chips`` checks each move).
    assert state.vp_chips >= 0
    vp = sum(pl.vp for pl in players)
    if "vp_chips" in state.end_reasons:
        assert state.vp_chips + vp >= totals.chips
    else:
        assert state.vp_chips > 0
        assert state.vp_chips + vp == totals.chips
    # Buildings: board + owned = copies; each building once per player.
    copies_of = dict(totals.copies)
    for name in state.drafted:
        copies_of[name] = SETUPS[n].copies(BUILDINGS[name])
    assert len(set(state.drafted)) == len(state.drafted) <= 17
    assert not {"office", "trading_post"} <= set(state.drafted)
    assert set(state.buildings) == set(copies_of)
    for name, copies in copies_of.items():
        owned = sum(1 for pl in players if name in pl.city)
        assert state.buildings[name] >= 0
        assert state.buildings[name] + owned == copies, name
    # Players' boards.
    for pl in players:
        assert pl.doubloons >= 0
        assert pl.vp >= 0
        assert pl.san_juan >= 0
        assert sum(BUILDINGS[b].spaces for b in pl.city) <= CITY_SPACES
        assert sum(pl.tiles) + pl.forests <= ISLAND_SPACES
        assert pl.forests == 0 or totals.new_buildings
        for k in range(6):
            assert 0 <= pl.worked[k] <= pl.tiles[k]
        for b, c in pl.city.items():
            assert 0 <= c <= BUILDINGS[b].circles
    # Whose turn.
    if state.phase == "over":
        assert state.current is None and state.end_reasons
    else:
        assert state.current in range(n)


def all_circles_full(pl) -> bool:
    return pl.worked == pl.tiles and all(c == BUILDINGS[b].circles for b, c in pl.city.items())


def empty_building_circles(state: State) -> int:
    return sum(BUILDINGS[b].circles - c for pl in state.players for b, c in pl.city.items())


@given(game_configs(), SEEDS, SEEDS, st.booleans())
@settings(PROPERTY, max_examples=40)
def test_random_games_end_properly_and_conserve_everything(config, seed, policy, eager):
    random_games_end_properly_and_conserve_everything(config, seed, policy, eager)


@given(game_configs((NOBLES,)), SEEDS, SEEDS, st.booleans())
@settings(PROPERTY, max_examples=12)
def test_nobles_random_games_end_properly_and_conserve_everything(config, seed, policy, eager):
    random_games_end_properly_and_conserve_everything(config, seed, policy, eager)


@pytest.mark.parametrize("players", pr.PLAYER_COUNTS)
@given(st.data(), SEEDS, SEEDS, st.booleans())
@settings(PROPERTY, max_examples=3)
def test_both_expansions_random_games_end_properly_and_conserve_everything(
    players, data, seed, policy, eager
):
    config = data.draw(game_configs((BOTH,), (players,)))
    random_games_end_properly_and_conserve_everything(config, seed, policy, eager)


def random_games_end_properly_and_conserve_everything(config, seed, policy, eager):
    n, options = config
    nobles = uses_nobles(options)
    first = rules.new_game(n, seed, options)
    totals = Totals(first)
    assert_invariants(first, totals)
    short_refill = False
    trigger_round = None
    decisions = 0
    last = first
    for before, action, after in random_game(n, options, seed, policy, eager):
        decisions += 1
        assert_invariants(after, totals)
        if isinstance(action, Arrange):
            pl = after.players[before.current]
            assert pl.san_juan == 0 or all_circles_full(pl), "colonists idle in San Juan"
        if before.phase == "mayor" and after.phase != "mayor":
            # The ship was refilled: one piece per empty building circle, at least n; with
            # the Nobles one of them a noble while any are left, and no end when short.
            need = max(n, empty_building_circles(after))
            if nobles:
                assert after.noble_ship == (1 if before.noble_supply else 0)
                need -= after.noble_ship
            if after.colonist_ship < need:
                assert after.colonist_supply == 0
                assert ("colonists" in after.end_reasons) != nobles
                short_refill = True
            else:
                assert after.colonist_ship == need
        if "colonists" in after.end_reasons:
            assert short_refill and not nobles, "colonists end without a short refill"
        if "vp_chips" in after.end_reasons and "vp_chips" not in before.end_reasons:
            assert after.vp_chips == 0, "a chips end with chips left"
        assert_vp_from_the_chips(before, after)
        if any(pl.city_spaces_used() == CITY_SPACES for pl in after.players):
            assert "city" in after.end_reasons
        if after.end_reasons and trigger_round is None:
            trigger_round = before.round
        if trigger_round is not None and after.phase != "over":
            assert after.round == trigger_round, "the game went on past the end of the round"
        if before.round != after.round:
            # No seat took a role twice; every role card is free again.
            assert all(taken is None for _, _, taken in after.roles)
        last = after
    assert last.phase == "over"
    assert last.end_reasons
    assert last.round == trigger_round + 1, "the game ends at the end of the triggering round"
    assert decisions < MAX_DECISIONS
    assert rules.legal_actions(last) == []
    for reason in last.end_reasons:
        assert reason in ("colonists", "city", "vp_chips")
        if reason == "colonists":
            assert short_refill
        if reason == "city":
            assert any(pl.city_spaces_used() == CITY_SPACES for pl in last.players)
    table = pr.outcome(last)
    assert [s.seat for s in table] == list(range(n)) and any(s.placement == 1 for s in table)


def assert_vp_from_the_chips(before: State, after: State) -> None:
    """A move's VP come from the chips, and a VP given back goes back to them (the black
    market: "zurück in den entsprechenden Vorrat"); only VP earned once the chips are out
    come from nowhere (they count on paper)."""
    given = before.vp_chips - after.vp_chips
    earned = sum(pl.vp for pl in after.players) - sum(pl.vp for pl in before.players)
    assert earned >= given, f"{given - earned} VP chip(s) lost"
    if earned > given:
        assert after.vp_chips == 0 and "vp_chips" in after.end_reasons, "VP without chips"


def fields(state: State) -> dict:
    """Every field of the state and of its players."""
    data = {name: getattr(state, name) for name in State.__slots__ if name != "players"}
    data["players"] = [
        {name: getattr(pl, name) for name in Player.__slots__} for pl in state.players
    ]
    return data


def assert_json_round_trip(state: State) -> None:
    """Through JSON text and back, the state is the same in every field."""
    restored = pr.from_json(json.loads(json.dumps(state.to_json())))
    assert fields(restored) == fields(state), "the JSON round trip changed the state"


EDITIONS = ("base", "new_buildings", NOBLES, BOTH)
ORDINARY_GAMES = 2
"""Per edition and player count: games from the start (some 150-550 moves each)."""
CROWDED_GAMES = 6
"""Per edition and player count: crowded games (some 15-110 moves each)."""
REACHED: dict[tuple[str, int], tuple[int, ...]] = {(BOTH, 5): (844,)}
"""Seeds of crowded games that reach a situation too rare for the games above to meet, found
by playing this test's crowded games for thousands of seeds. 844: a plantation bought with the
Land office, a noble guest moved onto it, then laid as a forest (once in about 4000 games).
A change to the engine's choices or to the walk may move it to another seed."""


@pytest.mark.parametrize("players", pr.PLAYER_COUNTS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_move_conserves_the_box_and_survives_json(edition, players):
    """Ordinary and crowded games from fixed seeds, for every edition and player count:
    after every move every piece of the box is somewhere (colonists, nobles, barrels,
    plantations and forests, quarries, buildings, VP chips), nothing is negative, and the
    state comes back from JSON unchanged."""
    options = {"edition": edition}
    totals = Totals(rules.new_game(players, 0, options))
    games = [(seed, False) for seed in range(ORDINARY_GAMES)]
    games += [(seed, True) for seed in range(CROWDED_GAMES)]
    games += [(seed, True) for seed in REACHED.get((edition, players), ())]
    for seed, crowded in games:
        for before, _, after in random_game(players, options, seed, seed, crowded=crowded):
            assert_invariants(after, totals)
            assert_vp_from_the_chips(before, after)
            assert_json_round_trip(after)


# Offered exactly when legal -----------------------------------------------------------------

STATIC_CANDIDATES = (
    [ChooseRole(r) for r in ROLES]
    + [Pass(), Hacienda()]
    + [Settle(k, h) for k in range(6) for h in (False, True)]
    + [Build(b, u) for b in BUILDINGS for u in (False, True)]
    + [c(g) for g in range(5) for c in (ExtraGood, Sell, Wharf)]
    + [Load(g, s) for g in range(5) for s in range(-1, 4)]
    + [
        Store(w, kept)
        for w in (None, *range(5))
        for size in range(4)
        for kept in combinations(range(5), size)
    ]
    + [Store(w, (g, g)) for w in (None, *range(5)) for g in range(5)]
    # New Buildings
    + [Draft(b) for b in BUILDINGS]
    + [Forest()]
    + [Settle(k, h, True) for k in range(6) for h in (False, True)]
    + [Sell(g, True) for g in range(5)]
    + [MoveGuest(p) for p in ("corn", "quarry", "library", "storehouse", "guest_house")]
    + [MoveGuest(p, True) for p in ("corn", "library", "guest_house")]
    + [SmallWharf(c) for c in ((1, 0, 0, 0, 0), (2, 1, 0, 0, 0), (0, 0, 0, 0, 0), (0, 1, 1, 1, 1))]
    + [Store(w, (), (g,)) for w in (None, 0, 2) for g in range(5)]
    + [Store(0, (), (0, 1, 2)), Store(1, (0,), (1, 1, 1)), Store(2, (), (0, 0, 0, 0))]
    + [
        Build(b, False, c, g, v)
        for b in ("harbor", "large_warehouse", "small_market", "church")
        for c, g, v in (
            ("san_juan", None, False),
            (None, 1, False),
            (None, None, True),
            ("corn", 0, False),
            ("black_market", None, False),
            ("quarry", 2, True),
        )
    ]
    # The Nobles
    + [BuyPlantation()]
    + [DiscardPlantation(k, o) for k in range(6) for o in OCCUPANTS]
    + [RoyalSupplier(kept) for size in range(4) for kept in combinations(range(5), size)]
    + [RoyalSupplier((g, g)) for g in range(5)]
)


def noble_takes(state: State) -> list[bool]:
    """Whether the seat may or must take the ship's noble: every seat dealt pieces up to the
    last one, which must."""
    if not state.noble_ship:
        return [False]
    if state.current == state.noble_seat:
        return [True]
    n = state.num_players
    before = (state.current - state.chooser) % n < (state.noble_seat - state.chooser) % n
    return [False, True] if before else [False]


def pieces(state: State, a: Arrange) -> tuple[int, int]:
    """Colonists and nobles the seat places with ``a``: the privilege colonists (two with a
    library); the ship's noble for a colonist (the last seat dealt was dealt one colonist
    short)."""
    pl = state.players[state.current]
    extra = min(state.colonist_supply, 2 if occupied(pl, "library") else 1)
    colonists = pl.colonists() - pl.nobles() + a.privilege * extra
    if a.take_noble and state.current != state.noble_seat:
        colonists -= 1
    return colonists, pl.nobles() + a.take_noble


def arrangement_rule(state: State, a: Arrange) -> bool:
    """The mayor's rules, independent of ``mayor.Arrangements``."""
    pl = state.players[state.current]
    if len(a.island) != 6 or len(a.noble_island) not in (0, 6):
        return False
    if (a.noble_island or a.noble_city or a.take_noble) and not uses_nobles(state):
        return False
    if a.take_noble not in noble_takes(state):
        return False
    if a.privilege and (state.turn != 0 or state.colonist_supply == 0):
        return False
    colonists, nobles = pieces(state, a)
    noble_island = a.noble_island or (0,) * 6
    for pairs in (a.city, a.noble_city):
        names = [b for b, _ in pairs]
        if len(set(names)) != len(names):
            return False
        if any(b not in pl.city or c < 0 for b, c in pairs):
            return False
    if any(c < 0 for c in (*a.island, *noble_island)):
        return False
    if any(
        c + m > pl.tiles[k] for k, (c, m) in enumerate(zip(a.island, noble_island, strict=True))
    ):
        return False
    city, noble_city = dict(a.city), dict(a.noble_city)
    if any(city.get(b, 0) + noble_city.get(b, 0) > BUILDINGS[b].circles for b in pl.city):
        return False
    capacity = sum(pl.tiles) + sum(BUILDINGS[b].circles for b in pl.city)
    placed = sum(a.island) + sum(city.values())
    placed_nobles = sum(noble_island) + sum(noble_city.values())
    if placed > colonists or placed_nobles > nobles:
        return False
    return placed + placed_nobles == min(colonists + nobles, capacity)


def brute_arrangements(state: State, limit: int = 3000) -> set[Arrange] | None:
    """Every legal placement by enumeration, or None when there are too many to try."""
    pl = state.players[state.current]
    kinds = [k for k in range(6) if pl.tiles[k]]
    buildings = list(pl.city)
    caps = [pl.tiles[k] for k in kinds] + [BUILDINGS[b].circles for b in buildings]
    with_nobles = pl.nobles() or state.noble_ship
    # Per group: (colonists, nobles) with colonists + nobles <= cap.
    options = [
        [(c, m) for c in range(cap + 1) for m in range(cap + 1 - c) if with_nobles or not m]
        for cap in caps
    ]
    if prod(len(o) for o in options) > limit:
        return None
    privileges = [False]
    if state.turn == 0 and state.colonist_supply > 0:
        privileges.append(True)
    out = set()
    for take in noble_takes(state):
        for privilege in privileges:
            colonists, nobles = pieces(state, Arrange((0,) * 6, (), privilege, take_noble=take))
            target = min(colonists + nobles, sum(caps))
            for counts in product(*options):
                placed = sum(c for c, _ in counts)
                placed_nobles = sum(m for _, m in counts)
                if placed + placed_nobles != target:
                    continue
                if placed > colonists or placed_nobles > nobles:
                    continue
                island, noble_island = [0] * 6, [0] * 6
                for k, (c, m) in zip(kinds, counts, strict=False):
                    island[k], noble_island[k] = c, m
                rest = counts[len(kinds) :]
                city = tuple(zip(buildings, (c for c, _ in rest), strict=True))
                noble_city = tuple(zip(buildings, (m for _, m in rest), strict=True))
                out.add(
                    Arrange(tuple(island), city, privilege, tuple(noble_island), noble_city, take)
                )
    return out


def arrangement_candidates(state: State, offered: Arrangements, rng: random.Random):
    """Offered placements and near misses: a colonist more, less or moved, a foreign building,
    a negative count, a doubled building, the privilege flipped."""
    pl = state.players[state.current]
    foreign = [b for b in BUILDINGS if b not in pl.city]
    out = []
    for _ in range(12):
        base = offered[rng.randrange(len(offered))]
        island = list(base.island)
        city = dict(base.city)
        for b in pl.city:
            city.setdefault(b, 0)
        groups = [("i", k) for k in range(6)] + [("c", b) for b in city]
        move = rng.randrange(7)
        src, dst = rng.choice(groups), rng.choice(groups)

        def bump(group, d, island=island, city=city):
            if group[0] == "i":
                island[group[1]] += d
            else:
                city[group[1]] += d

        privilege = base.privilege
        extra: tuple = ()
        if move == 0:
            bump(src, 1)
        elif move == 1:
            bump(src, -1)
        elif move == 2:
            bump(src, -1)
            bump(dst, 1)
        elif move == 3:
            privilege = not privilege
        elif move == 4 and foreign:
            extra = ((rng.choice(foreign), rng.randint(0, 1)),)
        elif move == 5 and city:
            b = rng.choice(list(city))
            extra = ((b, city[b]),)
        elif move == 6:
            bump(src, -1)
            bump(dst, 2)
            bump(rng.choice(groups), -1)
        out.append(Arrange(tuple(island), (*city.items(), *extra), privilege))
    for _ in range(4):
        island = tuple(rng.randint(0, t + 1) for t in pl.tiles)
        city = tuple((b, rng.randint(0, BUILDINGS[b].circles + 1)) for b in pl.city)
        out.append(Arrange(island, city, rng.random() < 0.5))
    # The Nobles: the ship's noble taken or not, a noble moved, one noble too many.
    for _ in range(4):
        base = offered[rng.randrange(len(offered))]
        out.append(replace(base, take_noble=not base.take_noble))
        nobles = list(base.noble_island or (0,) * 6)
        k = rng.randrange(6)
        nobles[k] += 1
        out.append(replace(base, noble_island=tuple(nobles)))
        if nobles[k] > 1:
            nobles[k] -= 2
            nobles[rng.randrange(6)] += 1
            out.append(replace(base, noble_island=tuple(nobles)))
        if pl.city:
            b = rng.choice(list(pl.city))
            out.append(replace(base, noble_city=(*base.noble_city, (b, 1))))
    return out


def store_outcome(pl, a: Store) -> tuple[int, ...]:
    loose = (a.windrose, *a.storehouse)
    return tuple(pl.goods[g] if g in a.warehouse else loose.count(g) for g in range(5))


def store_rule(state: State, a: Store) -> bool:
    """Keep whole kinds in every occupied warehouse space, then one barrel on the windrose."""
    pl = state.players[state.current]
    room = (1 if pl.city.get("small_warehouse") else 0) + (
        2 if pl.city.get("large_warehouse") else 0
    )
    held = {g for g in range(5) if pl.goods[g]}
    kept = set(a.warehouse)
    if a.storehouse or len(kept) != len(a.warehouse) or not kept <= held:
        return False
    if len(kept) != min(room, len(held)):
        return False
    if a.windrose is None:
        return held <= kept
    return a.windrose in held and a.windrose not in kept


def occupied(pl, building: str) -> bool:
    return pl.city.get(building, 0) > 0


def noble_on(pl, building: str) -> bool:
    return pl.noble_city.get(building, 0) > 0


def colonist_on(pl, building: str) -> bool:
    return occupied(pl, building) and not noble_on(pl, building)  # one circle


def discards(pl) -> set:
    """The plantations a seat may give up: kind and what stands on it."""
    out = set()
    for k in range(5):
        nobles = pl.noble_worked[k]
        for occupant, n in (
            ("empty", pl.tiles[k] - pl.worked[k]),
            ("colonist", pl.worked[k] - nobles),
            ("noble", nobles),
        ):
            if n:
                out.add(DiscardPlantation(k, occupant))
    return out


def expected_offer(state: State) -> set | None:
    """The legal actions of the role, settler, builder, trader, captain and craftsman phases,
    written from the rulebook independently of the phase modules."""
    seat = state.current
    pl = state.players[seat] if seat is not None else None
    out: set = set()
    if uses_new_buildings(state):
        return None  # (the New Buildings: offered = accepted below, and the rulebook tests)
    if state.phase == "role":
        return {ChooseRole(r) for r, _, taken in state.roles if taken is None}
    if state.phase == "settler":
        if sum(pl.tiles) < ISLAND_SPACES:
            if occupied(pl, "hacienda") and not state.hacienda_used and state.stack:
                out.add(Hacienda())
            kinds = set(state.face_up)
            if state.quarries and (seat == state.chooser or occupied(pl, "construction_hut")):
                kinds.add(QUARRY)
            hospice = occupied(pl, "hospice") and state.colonist_supply + state.colonist_ship
            for k in kinds:
                out.add(Settle(k))
                if hospice:
                    out.add(Settle(k, True))
        return out | {Pass()}
    if state.phase == "builder":
        free = CITY_SPACES - sum(BUILDINGS[b].spaces for b in pl.city)
        university = occupied(pl, "university") and state.colonist_supply + state.colonist_ship
        for name in state.buildings:
            b = BUILDINGS[name]
            cost = b.cost - min(pl.worked[QUARRY], b.column) - (seat == state.chooser)
            if colonist_on(pl, "building_office") and b.column < 4:
                cost -= 1
            if noble_on(pl, "building_office") and b.column == 4:
                cost -= 2
            if (
                state.buildings.get(name)
                and name not in pl.city
                and b.spaces <= free
                and max(cost, 0) <= pl.doubloons
            ):
                out.add(Build(name))
                if university:
                    out.add(Build(name, True))
        return out | {Pass()}
    if state.phase == "hunting_lodge":
        return discards(pl) | {Pass()}
    if state.phase == "trader":
        if not state.land_office_used:
            room = sum(pl.tiles) < ISLAND_SPACES
            if colonist_on(pl, "land_office") and state.stack and pl.doubloons and room:
                out.add(BuyPlantation())
            if noble_on(pl, "land_office"):
                out |= discards(pl)
        if len(state.trading_house) < 4:
            for g in range(5):
                if pl.goods[g] and (occupied(pl, "office") or g not in state.trading_house):
                    out.add(Sell(g))
        return out | {Pass()}
    if state.phase == "craftsman":
        return {ExtraGood(g) for g in state.produced if state.goods[g]} | {Pass()}
    if state.phase == "captain":
        for g in range(5):
            have = pl.goods[g]
            if not have:
                continue
            carrying = [i for i, (_, good, _) in enumerate(state.ships) if good == g]
            if carrying:
                cap, _, count = state.ships[carrying[0]]
                if count < cap:
                    out.add(Load(g, carrying[0]))
                continue
            empty = {
                i: min(cap, have) for i, (cap, good, _) in enumerate(state.ships) if good is None
            }
            for i, amount in empty.items():
                if amount == max(empty.values()):
                    out.add(Load(g, i))
        if not out:
            out.add(Pass())
        if occupied(pl, "wharf") and not state.wharf_used[seat]:
            out |= {Wharf(g) for g in range(5) if pl.goods[g]}
        if occupied(pl, "royal_supplier") and state.supplier_ready[seat]:
            held = [g for g in range(5) if pl.goods[g]]
            for size in range(1, min(pl.nobles(), len(held)) + 1):
                out |= {RoyalSupplier(c) for c in combinations(held, size)}
        return out
    return None


def assert_refused_changes_nothing(state: State, refused: list) -> None:
    before = state.to_json()
    for action in refused:
        for inplace in (False, True):
            try:
                rules.apply(state, action, inplace=inplace)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"apply accepted the refused {action}")
    assert state.to_json() == before, "a refused action changed the state"


def assert_offer_matches_rules(state: State, rng: random.Random) -> None:
    offered = rules.legal_actions(state)
    if state.phase == "over":
        assert list(offered) == []
        for action in STATIC_CANDIDATES:
            try:
                rules.check(state, action)
            except IllegalAction:
                continue
            raise AssertionError(f"{action} accepted after the game")
        return
    assert len(offered) > 0
    refused = []
    if state.phase == "mayor":
        assert isinstance(offered, Arrangements)
        size = len(offered)
        assert size > 0
        indices = {0, size - 1, *(rng.randrange(size) for _ in range(6))}
        members = [offered[i] for i in sorted(indices)]
        assert offered[-1] == offered[size - 1]
        try:
            offered[size]
        except IndexError:
            pass
        else:
            raise AssertionError("Arrangements has a member past its end")
        brute = brute_arrangements(state)
        if brute is not None:
            listed = list(offered)
            assert len(listed) == size == len(brute)
            assert set(listed) == brute
        for a in members:
            assert arrangement_rule(state, a), a
            rules.check(state, a)
            action_roundtrip(a)
        for a in members[:3]:
            assert_apply_accepts(state, a)
        for a in arrangement_candidates(state, offered, rng) + STATIC_CANDIDATES:
            legal = isinstance(a, Arrange) and arrangement_rule(state, a)
            if brute is not None and isinstance(a, Arrange):
                assert legal == (a in brute), a
            if not legal:
                refused.append(a)
            assert_check(state, a, legal)
    else:
        offered_set = set(offered)
        assert len(offered_set) == len(offered), "an action is offered twice"
        expected = expected_offer(state)
        if expected is not None:
            assert offered_set == expected, f"{state.phase}: offered != the rules"
        if state.phase != "role" and not state.hacienda_used:
            # (Right after its hacienda draw a seat may be left with nothing but passing.)
            assert offered_set != {Pass()}, f"{state.phase}: a seat without a choice is asked"
        for a in offered:
            rules.check(state, a)
            action_roundtrip(a)
            assert_apply_accepts(state, a)
        storehouse = state.phase == "storage" and occupied(
            state.players[state.current], "storehouse"
        )
        if state.phase == "storage" and not storehouse:
            pl = state.players[state.current]
            stores = [a for a in offered if isinstance(a, Store)]  # (and guest moves)
            outcomes = [store_outcome(pl, a) for a in stores]
            assert len(set(outcomes)) == len(outcomes), "two offered stores keep the same"
            ruled = [a for a in STATIC_CANDIDATES if isinstance(a, Store) and store_rule(state, a)]
            assert {store_outcome(pl, a) for a in ruled} == set(outcomes)
            assert set(stores) <= set(ruled)
            # (A guest moved into a warehouse in this phase may leave the seat one choice.)
            guests = "guest_house" in pl.city
            assert len(stores) > 1 or guests, "a seat without a choice is asked to store"
        for a in STATIC_CANDIDATES:
            if storehouse and isinstance(a, Store):
                continue  # (several Store actions keep the same: only the offered are listed)
            if state.phase == "storage" and not isinstance(a, MoveGuest):
                legal = isinstance(a, Store) and store_rule(state, a)
            else:
                legal = a in offered_set
            if not legal:
                refused.append(a)
            assert_check(state, a, legal)
    assert_refused_changes_nothing(state, refused)


def assert_check(state: State, action, legal: bool) -> None:
    try:
        rules.check(state, action)
    except IllegalAction as error:
        assert not legal, f"{state.phase}: the legal {action} is refused: {error}"
        assert str(error), "a refusal must name the rule"
    else:
        assert legal, f"{state.phase}: the illegal {action} is accepted"


def assert_apply_accepts(state: State, action) -> None:
    before = state.to_json()
    after = rules.apply(state, action)
    assert after is not state
    assert state.to_json() == before, "apply without inplace changed its input"
    clone = state.clone()
    rules.apply(clone, action, inplace=True)
    assert clone.to_json() == after.to_json(), "inplace and copying apply differ"


def action_roundtrip(action) -> None:
    data = json.loads(json.dumps(action_to_json(action)))
    assert action_from_json(data) == action


@given(game_configs(), SEEDS, SEEDS, st.booleans())
@settings(PROPERTY, max_examples=12)
def test_offered_actions_are_exactly_the_legal_ones(config, seed, policy, eager):
    offered_actions_are_exactly_the_legal_ones(config, seed, policy, eager)


@given(game_configs((NOBLES,)), SEEDS, SEEDS, st.booleans())
@settings(PROPERTY, max_examples=5)
def test_nobles_offered_actions_are_exactly_the_legal_ones(config, seed, policy, eager):
    offered_actions_are_exactly_the_legal_ones(config, seed, policy, eager)


@given(game_configs((BOTH,)), SEEDS, SEEDS, st.booleans())
@settings(PROPERTY, max_examples=3)
def test_both_expansions_offered_actions_are_exactly_the_legal_ones(config, seed, policy, eager):
    offered_actions_are_exactly_the_legal_ones(config, seed, policy, eager)


def offered_actions_are_exactly_the_legal_ones(config, seed, policy, eager):
    n, options = config
    rng = random.Random(policy ^ 0x5EED)
    state = None
    for before, _, after in random_game(n, options, seed, policy, eager):
        # Every storage and mayor decision, and a sample of the others.
        if before.phase in ("mayor", "storage") or rng.random() < 0.35:
            assert_offer_matches_rules(before, rng)
        state = after
    assert_offer_matches_rules(state, rng)


@given(game_configs(), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=25)
def test_arrangements_count_and_order(config, seed, policy):
    arrangements_count_and_order(config, seed, policy)


@given(game_configs((NOBLES,)), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=8)
def test_nobles_arrangements_count_and_order(config, seed, policy):
    arrangements_count_and_order(config, seed, policy)


@given(game_configs((BOTH,)), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=4)
def test_both_expansions_arrangements_count_and_order(config, seed, policy):
    arrangements_count_and_order(config, seed, policy)


def arrangements_count_and_order(config, seed, policy):
    """``len`` matches a brute-force count, members are distinct, and indexing agrees with
    iteration, on every mayor decision small enough to enumerate."""
    n, options = config
    for before, _, _ in random_game(n, options, seed, policy):
        if before.phase != "mayor":
            continue
        offered = rules.legal_actions(before)
        brute = brute_arrangements(before, limit=1500)
        if brute is None:
            continue
        listed = list(offered)
        assert len(offered) == len(brute) == len(set(listed))
        assert set(listed) == brute
        assert offered[:] == listed
        assert [offered[i] for i in range(-len(listed), 0)] == listed


# Determinism and JSON -------------------------------------------------------------------------


def assert_same_offer(offered, expected) -> None:
    """The same legal actions; of a mayor's placements (with nobles, up to millions) the
    number and a sample spread over them."""
    assert len(offered) == len(expected)
    if isinstance(offered, Arrangements):
        step = max(1, len(offered) // 50)
        assert offered[::step] == expected[::step]
    else:
        assert list(offered) == list(expected)


def play_out(state: State, actions: list) -> State:
    for action in actions:
        state = rules.apply(state, action)
    return state


@given(game_configs(), SEEDS, SEEDS, st.data())
@settings(PROPERTY, max_examples=20)
def test_same_seed_and_actions_same_game_and_json_round_trip(config, seed, policy, data):
    same_seed_and_actions_same_game_and_json_round_trip(config, seed, policy, data)


@given(game_configs((NOBLES,)), SEEDS, SEEDS, st.data())
@settings(PROPERTY, max_examples=6)
def test_nobles_same_seed_and_actions_same_game_and_json_round_trip(config, seed, policy, data):
    same_seed_and_actions_same_game_and_json_round_trip(config, seed, policy, data)


@given(game_configs((BOTH,)), SEEDS, SEEDS, st.data())
@settings(PROPERTY, max_examples=3)
def test_both_expansions_same_seed_and_actions_same_game_and_json_round_trip(
    config, seed, policy, data
):
    same_seed_and_actions_same_game_and_json_round_trip(config, seed, policy, data)


def same_seed_and_actions_same_game_and_json_round_trip(config, seed, policy, data):
    n, options = config
    states = [rules.new_game(n, seed, options)]
    actions = []
    for _, action, after in random_game(n, options, seed, policy):
        actions.append(action)
        states.append(after)
    final = states[-1].to_json()
    # Same seed, same actions: the same game, step by step.
    replay = rules.new_game(n, seed, options)
    assert replay.to_json() == states[0].to_json()
    for action, expected in zip(actions, states[1:], strict=True):
        replay = rules.apply(replay, action)
        assert replay.to_json() == expected.to_json()
    # Round trips through real JSON text at random points, then play on from them.
    points = data.draw(
        st.lists(st.integers(0, len(actions)), min_size=1, max_size=4, unique=True),
        label="round trip points",
    )
    for k in points:
        text = json.dumps(states[k].to_json())
        restored = pr.from_json(json.loads(text))
        assert restored.to_json() == states[k].to_json()
        assert json.dumps(restored.to_json()) == text
        assert_same_offer(rules.legal_actions(restored), rules.legal_actions(states[k]))
        assert play_out(restored, actions[k:]).to_json() == final


# What a seat may see --------------------------------------------------------------------------


def assert_view(state: State, seat: int | None) -> dict:
    view = pr.player_view(state, seat)
    text = json.dumps(view)
    assert "rng" not in view and '"rng"' not in text
    assert view["plantations"]["stack"] == len(state.stack)
    assert view["seat"] == seat
    hidden = state.options["hidden_vp"] and state.phase != "over"
    for i, pl in enumerate(view["players"]):
        if hidden and i != seat:
            assert pl["vp"] is None
        else:
            assert pl["vp"] == state.players[i].vp
    full = state.to_json()
    if state.drawn_hidden and seat != state.current:  # a tile only its drawer has seen
        full["phase_state"]["drawn"] = None
    for key in full:
        if key not in ("rng", "plantations", "players"):
            assert view[key] == full[key], key
    return view


def relabel_secrets(state: State, rnd: random.Random) -> tuple[State, set[int]]:
    """The same table but for what only one seat has seen: its forests laid from tiles drawn
    face down, and the tile it has just drawn, of other kinds. Also: who has seen them."""
    other = state.clone()
    owners = set()
    for seat, pl in enumerate(other.players):
        secret = list(pl.secret_forest_kinds)
        for k in [g for g in ALL_GOODS for _ in range(secret[g])]:
            new = rnd.choice(ALL_GOODS)
            secret[k] -= 1
            secret[new] += 1
            pl.forest_kinds[k] -= 1
            pl.forest_kinds[new] += 1
            owners.add(seat)
        pl.secret_forest_kinds = tuple(secret)
    if other.drawn_hidden:
        pl = other.players[other.current]
        new = rnd.choice(ALL_GOODS)
        pl.tiles[other.drawn] -= 1
        pl.tiles[new] += 1
        other.drawn = new
        owners.add(other.current)
    return other, owners


@given(game_configs(), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=15)
def test_player_view_hides_stack_rng_and_vp(config, seed, policy):
    player_view_hides_stack_rng_and_vp(config, seed, policy)


@given(game_configs((NOBLES,)), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=5)
def test_nobles_player_view_hides_stack_rng_and_vp(config, seed, policy):
    player_view_hides_stack_rng_and_vp(config, seed, policy)


@given(game_configs((BOTH,)), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=3)
def test_both_expansions_player_view_hides_stack_rng_and_vp(config, seed, policy):
    player_view_hides_stack_rng_and_vp(config, seed, policy)


def player_view_hides_stack_rng_and_vp(config, seed, policy):
    n, options = config
    rnd = random.Random(policy + 1)
    last = None
    for before, _, after in random_game(n, options, seed, policy):
        last = after
        secrets = before.drawn_hidden or any(any(p.secret_forest_kinds) for p in before.players)
        if rnd.random() > 0.1 and not secrets:  # every position with a secret is looked at
            continue
        views = {seat: assert_view(before, seat) for seat in [*range(n), None]}
        # Another order of the face-down stack and another seed: nobody sees a difference.
        other = before.clone()
        rnd.shuffle(other.stack)
        other.stack.reverse()
        other.rng = rnd.getrandbits(63)
        for seat, view in views.items():
            assert pr.player_view(other, seat) == view
        # Other kinds of the tiles only their drawers have seen: nobody else sees a difference.
        other, owners = relabel_secrets(before, rnd)
        for seat, view in views.items():
            if seat not in owners:
                assert pr.player_view(other, seat) == view
    assert last is not None and last.phase == "over"
    for seat in [*range(n), None]:
        view = assert_view(last, seat)
        assert [pl["vp"] for pl in view["players"]] == [pl.vp for pl in last.players]


# The log ------------------------------------------------------------------------------------

DRAWN_FROM_THE_STACK = {"hacienda", "plantations_drawn", "land_office_buy"}
"""Events that show tiles as they come off the face-down stack (then they lie open)."""


@given(game_configs(), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=10)
def test_events_carry_their_fields_and_nothing_hidden(config, seed, policy):
    events_carry_their_fields_and_nothing_hidden(config, seed, policy)


@given(game_configs((NOBLES,)), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=4)
def test_nobles_events_carry_their_fields_and_nothing_hidden(config, seed, policy):
    events_carry_their_fields_and_nothing_hidden(config, seed, policy)


@given(game_configs((BOTH,)), SEEDS, SEEDS)
@settings(PROPERTY, max_examples=3)
def test_both_expansions_events_carry_their_fields_and_nothing_hidden(config, seed, policy):
    events_carry_their_fields_and_nothing_hidden(config, seed, policy)


def events_carry_their_fields_and_nothing_hidden(config, seed, policy):
    """Every event has the documented fields, seats as numbers, and survives JSON; with
    another order of the face-down stack and another seed, the same action tells the same
    story except for the tiles then drawn."""
    n, options = config
    rnd = random.Random(policy + 2)
    for before, action, _ in random_game(n, options, seed, policy):
        log: list[dict] = []
        rules.apply(before, action, log=log)
        assert json.loads(json.dumps(log)) == log
        for event in log:
            assert set(event) == FIELDS[event["event"]], event
            seats = [event.get("seat")] + [s["seat"] for s in event.get("shares", [])]
            assert all(type(s) is int and 0 <= s < n for s in seats if s is not None), event
        other = before.clone()
        rnd.shuffle(other.stack)
        other.rng = rnd.getrandbits(63)
        other_log: list[dict] = []
        rules.apply(other, action, log=other_log)
        public = [e for e in log if e["event"] not in DRAWN_FROM_THE_STACK]
        assert [e for e in other_log if e["event"] not in DRAWN_FROM_THE_STACK] == public


# Small helpers' own sanity ---------------------------------------------------------------------


def test_candidates_cover_every_kind_of_action():
    kinds = {type(a) for a in STATIC_CANDIDATES}
    assert kinds == {
        ChooseRole,
        Pass,
        Hacienda,
        Settle,
        Build,
        ExtraGood,
        Sell,
        Wharf,
        Load,
        Store,
        Draft,
        Forest,
        SmallWharf,
        MoveGuest,
        BuyPlantation,
        DiscardPlantation,
        RoyalSupplier,
    }


def _position(phase: str) -> State:
    state = rules.new_game(4, 0)
    state.phase = phase
    state.chooser = state.current = 0
    state.turn = 0
    return state


def test_store_naming_a_kind_twice_is_refused():
    """Found by the candidates above: (corn, corn) passed as two warehouse kinds."""
    state = _position("storage")
    pl = state.players[0]
    pl.goods = [2, 2, 2, 0, 0]
    pl.city = {"large_warehouse": 1}
    bad = Store(1, (0, 0))
    assert not store_rule(state, bad)
    assert_check(state, bad, legal=False)
    assert_refused_changes_nothing(state, [bad])
    assert {store_outcome(pl, a) for a in rules.legal_actions(state)} == {
        (2, 2, 1, 0, 0),
        (2, 1, 2, 0, 0),
        (1, 2, 2, 0, 0),
    }


def test_arrangement_with_a_negative_count_or_a_building_twice_is_refused():
    """Found by the candidates above: both passed ``check`` and corrupted the board."""
    state = _position("mayor")
    pl = state.players[0]
    pl.tiles = [1, 0, 0, 0, 0, 0]
    pl.worked = [0, 0, 0, 0, 0, 0]
    pl.city = {"indigo_plant": 0}
    pl.san_juan = 2
    for bad in (
        Arrange((-1, 0, 0, 0, 0, 0), (("indigo_plant", 3),)),
        Arrange((1, 0, 0, 0, 0, 0), (("indigo_plant", 3), ("indigo_plant", -2))),
        Arrange((0, 0, 0, 0, 0, 0), (("indigo_plant", 1), ("indigo_plant", 1))),
    ):
        assert not arrangement_rule(state, bad)
        assert_check(state, bad, legal=False)
        assert_refused_changes_nothing(state, [bad])
