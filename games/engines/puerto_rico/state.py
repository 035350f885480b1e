"""The whole game state, and its JSON form (documented in ``docs/engine.md``).

State is a pair of plain mutable classes with ``__slots__``: the rules mutate a clone, and
random play and search mutate in place, so cloning and reading must be cheap. Goods and island
kinds are indexed by the integers of ``data``; JSON uses their names.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .data import (
    ALL_GOODS,
    ALL_ISLAND_KINDS,
    BUILDINGS,
    CIRCLES,
    GOOD_INDEX,
    GOODS,
    ISLAND_INDEX,
    ISLAND_KINDS,
    ROLES,
    SPACES,
)

FORMAT_VERSION = 1
PHASES = (
    "draft",
    "role",
    "settler",
    "mayor",
    "builder",
    "craftsman",
    "trader",
    "captain",
    "storage",
    "hunting_lodge",
    "guests",
    "over",
)


class RoleCard(NamedTuple):
    """A role card on the table: immutable, so cloning the table copies only the list."""

    role: str
    doubloons: int
    taken_by: int | None


class Ship(NamedTuple):
    """A cargo ship: ``capacity`` barrels of one ``good`` (None while empty), ``count`` on it."""

    capacity: int
    good: int | None
    count: int


class Player:
    """One seat's board: windrose (doubloons, goods, VP chips), island, city and San Juan.

    ``tiles[k]`` is how many island tiles of kind ``k`` (five plantations, then quarry) the
    player has and ``worked[k]`` how many of them carry a colonist: tiles of one kind are
    interchangeable, and where a tile lies plays no role. ``city`` maps building name to the
    colonists on it, in building order. ``forests`` (New Buildings) counts island spaces
    filled with a tile laid face down: never worked, never a plantation again;
    ``forest_kinds[g]`` how many of them are plantations of good ``g`` (the Nobles' Hunting
    lodge returns a forest to the discard pile as the plantation it is), and
    ``secret_forest_kinds[g]`` how many of those only the owner knows: tiles drawn face down
    (hacienda, Land office) and laid as forests unseen by the others. A tuple, replaced
    when it changes, so that clones share it.

    With the Nobles, ``worked``, ``city`` and ``san_juan`` count every piece, colonist or
    noble (the rules treat a noble as a colonist unless they say otherwise), and
    ``noble_worked``, ``noble_city`` and ``noble_san_juan`` say how many of them are nobles.
    """

    __slots__ = (
        "city",
        "doubloons",
        "forest_kinds",
        "forests",
        "goods",
        "noble_city",
        "noble_san_juan",
        "noble_worked",
        "san_juan",
        "secret_forest_kinds",
        "tiles",
        "vp",
        "worked",
    )

    def __init__(self) -> None:
        self.doubloons = 0
        self.vp = 0
        self.goods = [0] * len(ALL_GOODS)
        self.tiles = [0] * len(ALL_ISLAND_KINDS)
        self.worked = [0] * len(ALL_ISLAND_KINDS)
        self.city: dict[str, int] = {}
        self.san_juan = 0
        self.forests = 0
        self.forest_kinds = [0] * len(ALL_GOODS)
        self.secret_forest_kinds = (0,) * len(ALL_GOODS)
        self.noble_worked = [0] * len(ALL_ISLAND_KINDS)
        self.noble_city: dict[str, int] = {}
        self.noble_san_juan = 0

    def clone(self) -> Player:
        p = Player.__new__(Player)
        p.doubloons = self.doubloons
        p.vp = self.vp
        p.goods = self.goods[:]
        p.tiles = self.tiles[:]
        p.worked = self.worked[:]
        p.city = self.city.copy()
        p.san_juan = self.san_juan
        p.forests = self.forests
        p.forest_kinds = self.forest_kinds[:]
        p.secret_forest_kinds = self.secret_forest_kinds
        p.noble_worked = self.noble_worked[:]
        p.noble_city = self.noble_city.copy()
        p.noble_san_juan = self.noble_san_juan
        return p

    # Derived facts the rules ask about often.
    def occupied(self, building: str) -> bool:
        return self.city.get(building, 0) > 0

    def island_filled(self) -> int:
        return sum(self.tiles) + self.forests

    def city_spaces_used(self) -> int:
        return sum(map(SPACES.__getitem__, self.city))

    def colonists(self) -> int:
        return sum(self.worked) + sum(self.city.values()) + self.san_juan

    def empty_building_circles(self) -> int:
        return sum(map(CIRCLES.__getitem__, self.city)) - sum(self.city.values())

    # Nobles (Expansion II).
    def nobles(self) -> int:
        """Every noble the player owns, on the island, in the city and in San Juan: the nobles
        "auf seiner Insel" of the Jeweler, the Royal supplier and the Royal garden ("gleichgültig,
        wo sie sich befinden: auf einem Gebäude, einer Plantage oder der Windrose")."""
        return sum(self.noble_worked) + sum(self.noble_city.values()) + self.noble_san_juan

    def noble_on(self, building: str) -> bool:
        return self.noble_city.get(building, 0) > 0

    def colonist_on(self, building: str) -> bool:
        return self.city.get(building, 0) > self.noble_city.get(building, 0)

    def to_json(self, nobles: bool = False) -> dict[str, Any]:
        """``nobles``: the Nobles are played; colonist counts then leave the nobles out and
        the nobles are listed beside them."""
        noble_worked = self.noble_worked
        noble_city = self.noble_city
        island = {}
        for k, kind in enumerate(ISLAND_KINDS):
            if self.tiles[k]:
                island[kind] = {"tiles": self.tiles[k], "colonists": self.worked[k]}
                if nobles:
                    island[kind]["colonists"] -= noble_worked[k]
                    island[kind]["nobles"] = noble_worked[k]
        data = {
            "doubloons": self.doubloons,
            "vp": self.vp,
            "goods": dict(zip(GOODS, self.goods, strict=True)),
            "island": island,
            "city": {b: n - noble_city.get(b, 0) for b, n in self.city.items()},
            "san_juan": self.san_juan - self.noble_san_juan,
            "forests": self.forests,
        }
        if any(self.forest_kinds):
            data["forest_kinds"] = {GOODS[g]: n for g, n in enumerate(self.forest_kinds) if n}
        if any(self.secret_forest_kinds):
            data["secret_forest_kinds"] = {
                GOODS[g]: n for g, n in enumerate(self.secret_forest_kinds) if n
            }
        if nobles:
            data["city_nobles"] = {b: n for b, n in noble_city.items() if n}
            data["san_juan_nobles"] = self.noble_san_juan
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Player:
        p = cls()
        p.doubloons = data["doubloons"]
        p.vp = data["vp"]
        for name, n in data["goods"].items():
            p.goods[GOOD_INDEX[name]] = n
        for kind, tile in data["island"].items():
            i = ISLAND_INDEX[kind]
            p.tiles[i] = tile["tiles"]
            p.noble_worked[i] = tile.get("nobles", 0)
            p.worked[i] = tile["colonists"] + p.noble_worked[i]
        for name, n in data["city"].items():
            if name not in BUILDINGS:
                raise ValueError(f"unknown building {name!r}")
            p.city[name] = n
        for name, n in data.get("city_nobles", {}).items():
            if name not in p.city:
                raise ValueError(f"nobles on {name!r}, which the player does not own")
            p.noble_city[name] = n
            p.city[name] += n
        p.noble_san_juan = data.get("san_juan_nobles", 0)
        p.san_juan = data["san_juan"] + p.noble_san_juan
        p.forests = data.get("forests", 0)
        for name, n in data.get("forest_kinds", {}).items():
            p.forest_kinds[GOOD_INDEX[name]] = n
        secret = [0] * len(ALL_GOODS)
        for name, n in data.get("secret_forest_kinds", {}).items():
            secret[GOOD_INDEX[name]] = n
        p.secret_forest_kinds = tuple(secret)
        return p


class State:
    """Everything on the table, plus whose decision it is and the phase's bookkeeping.

    ``current`` is the seat that must act; ``chooser`` the seat that took the role being
    played (in the role phase, the seat choosing). ``turn`` counts the turns taken in a
    phase that goes round once; in the captain phase ``idle`` counts consecutive seats that
    did not load, and the phase ends when it reaches the player count. ``captain_bonus``
    says whether the captain has had his privilege VP; ``produced`` lists the kinds the
    craftsman produced, from which he may take his extra barrel.

    New Buildings: ``drafted`` lists the violet buildings drafted onto the board, in order;
    ``drawn`` the tile the hacienda (or Land office) just drew: it may still be laid as a
    forest; ``drawn_hidden``: its drawer had an occupied forest house, so that only he has
    seen it ("darf er das Plättchen anschauen, bevor er es ggf. als Wald auslegt") until it
    lies face up (his turn ends, a guest moves onto it) or face down as a forest;
    ``drawn_guest`` says what stands on it: None, or a guest ``"colonist"`` or
    ``"noble"`` moved onto it (tiles of a kind are interchangeable, and a guest works an older
    free tile of its kind first: it takes the drawn one only as the kind's last); ``extras``
    the craftsman's extra barrels taken (two with a library); ``made`` the craftsman's barrels
    per good this phase, extras included (specialty factory); ``small_wharf_used`` per seat.
    In a guest window (phase ``guests``) ``guests_queue`` holds the seats after ``current``
    still to be considered, and ``guests_then`` where the game goes on afterwards.

    The Nobles: ``noble_supply`` and ``noble_ship`` count nobles like ``colonist_*`` count
    colonists; in the mayor phase ``noble_seat`` is the seat the ship's noble goes to unless a
    seat before it takes it. ``land_office_used``: the trader has used his Land office this
    turn; ``supplier_ready[seat]``: the seat has not yet had its first turn of the captain
    phase (the Royal supplier acts then).
    """

    __slots__ = (
        "buildings",
        "captain_bonus",
        "chooser",
        "colonist_ship",
        "colonist_supply",
        "current",
        "discards",
        "drafted",
        "drawn",
        "drawn_guest",
        "drawn_hidden",
        "end_reasons",
        "extras",
        "face_up",
        "goods",
        "governor",
        "guests_queue",
        "guests_then",
        "hacienda_used",
        "idle",
        "land_office_used",
        "made",
        "noble_seat",
        "noble_ship",
        "noble_supply",
        "num_players",
        "options",
        "phase",
        "players",
        "produced",
        "quarries",
        "rng",
        "roles",
        "roles_chosen",
        "round",
        "ships",
        "small_wharf_used",
        "stack",
        "supplier_ready",
        "trading_house",
        "turn",
        "vp_chips",
        "wharf_used",
    )

    def clone(self) -> State:
        s = State.__new__(State)
        s.num_players = self.num_players
        s.options = self.options  # never mutated after setup
        s.rng = self.rng
        s.round = self.round
        s.governor = self.governor
        s.phase = self.phase
        s.current = self.current
        s.chooser = self.chooser
        s.roles = self.roles[:]
        s.roles_chosen = self.roles_chosen
        s.colonist_supply = self.colonist_supply
        s.colonist_ship = self.colonist_ship
        s.vp_chips = self.vp_chips
        s.goods = self.goods[:]
        s.quarries = self.quarries
        s.stack = self.stack[:]
        s.face_up = self.face_up[:]
        s.discards = self.discards[:]
        s.buildings = self.buildings.copy()
        s.ships = self.ships[:]
        s.trading_house = self.trading_house[:]
        s.end_reasons = self.end_reasons[:]
        s.players = [p.clone() for p in self.players]
        s.turn = self.turn
        s.hacienda_used = self.hacienda_used
        s.idle = self.idle
        s.captain_bonus = self.captain_bonus
        s.wharf_used = self.wharf_used[:]
        s.produced = self.produced[:]
        s.drafted = self.drafted[:]
        s.drawn = self.drawn
        s.drawn_guest = self.drawn_guest
        s.drawn_hidden = self.drawn_hidden
        s.extras = self.extras
        s.made = self.made[:]
        s.small_wharf_used = self.small_wharf_used[:]
        s.noble_supply = self.noble_supply
        s.noble_ship = self.noble_ship
        s.noble_seat = self.noble_seat
        s.land_office_used = self.land_office_used
        s.supplier_ready = self.supplier_ready[:]
        s.guests_queue = self.guests_queue  # a tuple
        s.guests_then = self.guests_then
        return s

    def seat(self, offset: int) -> int:
        """The seat ``offset`` places clockwise from the chooser."""
        return (self.chooser + offset) % self.num_players

    def role_taken_by(self, role: str) -> int | None:
        for name, _, taken_by in self.roles:
            if name == role and taken_by is not None:
                return taken_by
        return None

    def to_json(self) -> dict[str, Any]:
        """The complete state as JSON-ready data; ``from_json`` restores it exactly."""

        def good(g: int | None) -> str | None:
            return None if g is None else GOODS[g]

        nobles = self.options.get("edition") in ("nobles", "both")
        data = {
            "game": "puerto_rico",
            "format": FORMAT_VERSION,
            "num_players": self.num_players,
            "options": dict(self.options),
            "rng": self.rng,
            "round": self.round,
            "governor": self.governor,
            "phase": self.phase,
            "current": self.current,
            "chooser": self.chooser,
            "roles": [{"role": r, "doubloons": d, "taken_by": t} for r, d, t in self.roles],
            "roles_chosen": self.roles_chosen,
            "colonists": {"supply": self.colonist_supply, "ship": self.colonist_ship},
            "vp_chips": self.vp_chips,
            "goods": dict(zip(GOODS, self.goods, strict=True)),
            "quarries": self.quarries,
            "plantations": {
                "stack": [GOODS[k] for k in self.stack],
                "face_up": [GOODS[k] for k in self.face_up],
                "discards": [GOODS[k] for k in self.discards],
            },
            "buildings": dict(self.buildings),
            "ships": [{"capacity": c, "good": good(g), "count": n} for c, g, n in self.ships],
            "trading_house": [GOODS[g] for g in self.trading_house],
            "end_reasons": list(self.end_reasons),
            "drafted": list(self.drafted),
            "phase_state": {
                "turn": self.turn,
                "hacienda_used": self.hacienda_used,
                "idle": self.idle,
                "captain_bonus": self.captain_bonus,
                "wharf_used": list(self.wharf_used),
                "produced": [GOODS[g] for g in self.produced],
                "drawn": good(self.drawn),
                "drawn_guest": self.drawn_guest,
                "drawn_hidden": self.drawn_hidden,
                "extras": self.extras,
                "made": list(self.made),
                "small_wharf_used": list(self.small_wharf_used),
            },
            "players": [p.to_json(nobles) for p in self.players],
        }
        if self.phase == "guests":
            data["phase_state"]["guests"] = {
                "queue": list(self.guests_queue),
                "then": self.guests_then,
            }
        if nobles:
            data["nobles"] = {"supply": self.noble_supply, "ship": self.noble_ship}
            data["phase_state"].update(
                noble_seat=self.noble_seat,
                land_office_used=self.land_office_used,
                supplier_ready=list(self.supplier_ready),
            )
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        if data.get("game") != "puerto_rico":
            raise ValueError("not a Puerto Rico state")
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unsupported state format {data.get('format')!r}")
        s = cls.__new__(cls)
        s.num_players = data["num_players"]
        s.options = dict(data["options"])
        s.rng = data["rng"]
        s.round = data["round"]
        s.governor = data["governor"]
        s.phase = data["phase"]
        if s.phase not in PHASES:
            raise ValueError(f"unknown phase {s.phase!r}")
        s.current = data["current"]
        s.chooser = data["chooser"]
        s.roles = []
        for r in data["roles"]:
            if r["role"] not in ROLES:
                raise ValueError(f"unknown role {r['role']!r}")
            s.roles.append(RoleCard(r["role"], r["doubloons"], r["taken_by"]))
        s.roles_chosen = data["roles_chosen"]
        s.colonist_supply = data["colonists"]["supply"]
        s.colonist_ship = data["colonists"]["ship"]
        s.vp_chips = data["vp_chips"]
        s.goods = [data["goods"][g] for g in GOODS]
        s.quarries = data["quarries"]
        plantations = data["plantations"]
        s.stack = [GOOD_INDEX[k] for k in plantations["stack"]]
        s.face_up = [GOOD_INDEX[k] for k in plantations["face_up"]]
        s.discards = [GOOD_INDEX[k] for k in plantations["discards"]]
        s.buildings = dict(data["buildings"])
        s.ships = [
            Ship(
                ship["capacity"],
                None if ship["good"] is None else GOOD_INDEX[ship["good"]],
                ship["count"],
            )
            for ship in data["ships"]
        ]
        s.trading_house = [GOOD_INDEX[g] for g in data["trading_house"]]
        s.end_reasons = list(data["end_reasons"])
        ps = data["phase_state"]
        s.turn = ps["turn"]
        s.hacienda_used = ps["hacienda_used"]
        s.idle = ps["idle"]
        s.captain_bonus = ps["captain_bonus"]
        s.wharf_used = list(ps["wharf_used"])
        s.produced = [GOOD_INDEX[g] for g in ps["produced"]]
        # New Buildings; absent from states written before the expansion.
        s.drafted = list(data.get("drafted", []))
        s.drawn = None if ps.get("drawn") is None else GOOD_INDEX[ps["drawn"]]
        s.drawn_guest = ps.get("drawn_guest")
        if s.drawn_guest not in (None, "colonist", "noble"):
            raise ValueError(f"unknown guest {s.drawn_guest!r} on the drawn tile")
        s.drawn_hidden = bool(ps.get("drawn_hidden", False))
        s.extras = ps.get("extras", 0)
        s.made = list(ps.get("made", [0] * len(ALL_GOODS)))
        s.small_wharf_used = list(ps.get("small_wharf_used", [False] * s.num_players))
        nobles = data.get("nobles", {})
        s.noble_supply = nobles.get("supply", 0)
        s.noble_ship = nobles.get("ship", 0)
        s.noble_seat = ps.get("noble_seat")
        s.land_office_used = ps.get("land_office_used", False)
        s.supplier_ready = list(ps.get("supplier_ready", [False] * s.num_players))
        window = ps.get("guests", {})
        s.guests_queue = tuple(window.get("queue", ()))
        s.guests_then = window.get("then")
        s.players = [Player.from_json(p) for p in data["players"]]
        if len(s.players) != s.num_players:
            raise ValueError("players do not match num_players")
        return s
