"""The whole game state, and its JSON form (documented in ``docs/amerigo.md``).

Plain mutable classes with ``__slots__``: the rules mutate a clone, random play mutates in
place, so cloning must be cheap. The landscape (``islands.Map``) never changes and is shared
between clones; what is built on it lives in ``built`` and the players' ``posts``, and
``cover`` (one int per field) is derived from them for fast placement checks.
"""

from __future__ import annotations

from typing import Any

from .data import COLOURS, GOODS, SHIPS, TRADING_POSTS, VILLAGES
from .islands import Map

FORMAT_VERSION = 1
FREE, GENERAL = 0, 1
VILLAGE, POST = 2, 10
"""``cover`` values: free, a general landscape tile, seat s's village tile (2 + s), seat s's
trading post (10 + s)."""


class Player:
    """One seat's board and supply."""

    __slots__ = (
        "cannons",
        "chests",
        "gold",
        "goods",
        "landscapes",
        "markers",
        "moved",
        "posts",
        "progress",
        "raw",
        "ships",
        "used",
        "villages",
        "villages_held",
        "vp",
    )

    def __init__(self) -> None:
        self.vp = 0
        self.gold = 0
        self.cannons = 0
        self.progress = 0
        self.moved = False
        """The order disc has left the first field of the special-action track."""
        self.posts: list[int] = []
        """Fields of this seat's trading posts, in the order they were placed."""
        self.ships = [-1] * SHIPS
        self.landscapes: list[str] = []
        """General landscape tiles beside the board."""
        self.villages = {k: n for k, (_, n) in VILLAGES.items()}
        """Village tiles still in the supply (face down)."""
        self.villages_held = dict.fromkeys(VILLAGES, 0)
        self.raw = [0] * len(GOODS)
        self.goods: list[list[Any]] = []
        """Bought goods markers, ``[kind, cost]`` (the printed one of each kind not listed)."""
        self.markers: list[str] = []
        self.used: list[str] = []
        """One-time progress markers already used (turned over)."""
        self.chests = 0

    def clone(self) -> Player:
        p = Player.__new__(Player)
        p.vp, p.gold, p.cannons = self.vp, self.gold, self.cannons
        p.progress, p.moved, p.chests = self.progress, self.moved, self.chests
        p.posts = self.posts[:]
        p.ships = self.ships[:]
        p.landscapes = self.landscapes[:]
        p.villages = self.villages.copy()
        p.villages_held = self.villages_held.copy()
        p.raw = self.raw[:]
        p.goods = self.goods[:]
        p.markers = self.markers[:]
        p.used = self.used[:]
        return p

    def unused(self, marker: str) -> bool:
        return self.markers.count(marker) > self.used.count(marker)

    def posts_left(self) -> int:
        return TRADING_POSTS - len(self.posts)

    def to_json(self) -> dict[str, Any]:
        return {
            "vp": self.vp,
            "gold": self.gold,
            "cannons": self.cannons,
            "progress": self.progress,
            "moved": self.moved,
            "posts": self.posts[:],
            "ships": self.ships[:],
            "landscapes": self.landscapes[:],
            "villages": dict(self.villages),
            "villages_held": dict(self.villages_held),
            "raw": dict(zip(GOODS, self.raw, strict=True)),
            "goods": [list(g) for g in self.goods],
            "markers": self.markers[:],
            "used": self.used[:],
            "chests": self.chests,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Player:
        p = cls()
        for name in ("vp", "gold", "cannons", "progress", "moved", "chests"):
            setattr(p, name, data[name])
        p.posts = list(data["posts"])
        p.ships = list(data["ships"])
        p.landscapes = list(data["landscapes"])
        p.villages = dict(data["villages"])
        p.villages_held = dict(data["villages_held"])
        p.raw = [data["raw"][k] for k in GOODS]
        p.goods = [list(g) for g in data["goods"]]
        p.markers = list(data["markers"])
        p.used = list(data["used"])
        return p


class State:
    __slots__ = (
        "act",
        "built",
        "chests",
        "completed",
        "cover",
        "discovered",
        "field",
        "final",
        "goods",
        "goods_discarded",
        "goods_stacks",
        "landscapes",
        "map",
        "num_players",
        "options",
        "order_track",
        "phase",
        "pirates_down",
        "pirates_unseen",
        "pirates_up",
        "players",
        "progress",
        "progress_discarded",
        "progress_stack",
        "queue",
        "raw_left",
        "rng",
        "round",
        "supply",
        "tower",
        "turn",
    )

    def clone(self) -> State:
        s = State.__new__(State)
        s.map = self.map
        s.num_players = self.num_players
        s.options = self.options
        s.rng = self.rng
        s.round, s.turn, s.phase = self.round, self.turn, self.phase
        s.queue = self.queue[:]
        s.act = dict(self.act) if self.act is not None else None
        if s.act is not None:
            s.act["sailed"] = s.act["sailed"][:]
        s.tower, s.supply, s.field = self.tower[:], self.supply[:], self.field[:]
        s.players = [p.clone() for p in self.players]
        s.order_track = [stack[:] for stack in self.order_track]
        s.landscapes = self.landscapes.copy()
        s.progress = self.progress[:]
        s.progress_stack = self.progress_stack[:]
        s.progress_discarded = self.progress_discarded[:]
        s.goods = self.goods[:]
        s.goods_stacks = [stack[:] for stack in self.goods_stacks]
        s.goods_discarded = self.goods_discarded[:]
        s.pirates_up = self.pirates_up[:]
        s.pirates_down = self.pirates_down[:]
        s.pirates_unseen = self.pirates_unseen
        s.built = self.built[:]
        s.cover = self.cover[:]
        s.raw_left = set(self.raw_left)
        s.chests = self.chests[:]
        s.discovered = self.discovered[:]
        s.completed = self.completed[:]
        s.final = self.final
        return s

    def colour(self) -> str:
        return COLOURS[self.turn]

    def current(self) -> int | None:
        return self.queue[0] if self.queue and self.phase != "over" else None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "num_players": self.num_players,
            "options": dict(self.options),
            "rng": self.rng,
            "round": self.round,
            "turn": self.turn,
            "phase": self.phase,
            "queue": self.queue[:],
            "act": None if self.act is None else {**self.act, "sailed": self.act["sailed"][:]},
            "map": self.map.to_json(),
            "tower": dict(zip(COLOURS, self.tower, strict=True)),
            "supply": dict(zip(COLOURS, self.supply, strict=True)),
            "field": dict(zip(COLOURS, self.field, strict=True)),
            "players": [p.to_json() for p in self.players],
            "order_track": [stack[:] for stack in self.order_track],
            "landscapes": dict(self.landscapes),
            "progress": self.progress[:],
            "progress_stack": self.progress_stack[:],
            "progress_discarded": self.progress_discarded[:],
            "goods": [None if g is None else list(g) for g in self.goods],
            "goods_stacks": [[list(g) for g in stack] for stack in self.goods_stacks],
            "goods_discarded": [list(g) for g in self.goods_discarded],
            "pirates": {
                "face_up": self.pirates_up[:],
                "face_down": self.pirates_down[:],
                "unseen": self.pirates_unseen,
            },
            "built": [dict(b, cells=b["cells"][:]) for b in self.built],
            "raw_left": sorted(self.raw_left),
            "chests": self.chests[:],
            "discovered": self.discovered[:],
            "completed": self.completed[:],
            "final": self.final,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        s = cls.__new__(cls)
        s.map = Map.from_json(data["map"])
        s.num_players = data["num_players"]
        s.options = dict(data["options"])
        s.rng = data["rng"]
        s.round, s.turn, s.phase = data["round"], data["turn"], data["phase"]
        s.queue = list(data["queue"])
        act = data["act"]
        s.act = None if act is None else {**act, "sailed": list(act["sailed"])}
        s.tower = [data["tower"][c] for c in COLOURS]
        s.supply = [data["supply"][c] for c in COLOURS]
        s.field = [data["field"][c] for c in COLOURS]
        s.players = [Player.from_json(p) for p in data["players"]]
        s.order_track = [list(stack) for stack in data["order_track"]]
        s.landscapes = dict(data["landscapes"])
        s.progress = list(data["progress"])
        s.progress_stack = list(data["progress_stack"])
        s.progress_discarded = list(data["progress_discarded"])
        s.goods = [None if g is None else list(g) for g in data["goods"]]
        s.goods_stacks = [[list(g) for g in stack] for stack in data["goods_stacks"]]
        s.goods_discarded = [list(g) for g in data["goods_discarded"]]
        pirates = data["pirates"]
        s.pirates_up = list(pirates["face_up"])
        s.pirates_down = list(pirates["face_down"])
        s.pirates_unseen = pirates["unseen"]
        s.built = [dict(b, cells=list(b["cells"])) for b in data["built"]]
        s.raw_left = set(data["raw_left"])
        s.chests = list(data["chests"])
        s.discovered = list(data["discovered"])
        s.completed = list(data["completed"])
        s.final = data["final"]
        s.cover = derive_cover(s)
        return s


def derive_cover(s: State) -> list[int]:
    cover = [FREE] * (s.map.rows * s.map.cols)
    for b in s.built:
        value = VILLAGE + b["seat"] if b["tile"] in VILLAGES else GENERAL
        for cell in b["cells"]:
            cover[cell] = value
    for seat, p in enumerate(s.players):
        for cell in p.posts:
            cover[cell] = POST + seat
    return cover
