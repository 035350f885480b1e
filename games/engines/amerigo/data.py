"""The game's numbers: those the rulebook's text gives, and those it shows only in pictures.

Every value marked ``APPROXIMATION`` is invented: the printed game shows it only in a picture
(island tiles, tile shapes and values, track thresholds, pirate values, marker counts). They
are all here, in one place, so that the printed values can replace them.
"""

from __future__ import annotations

# --- From the rulebook's text -------------------------------------------------------------

PLAYER_COUNTS = (2, 3, 4)
ROUNDS = 5
"""Durchgänge; each has one turn (Runde) per colour of the rondel."""
COLOURS = ("blue", "black", "red", "brown", "green", "yellow", "white")
"""The rondel, clockwise from the first supply field; one action per colour: shipping,
cannons, planning, progress, building, goods markers, order / special action."""
CUBES_PER_COLOUR = 7
ISLAND_TILES = {2: (3, 3), 3: (3, 4), 4: (4, 4)}
"""Island tiles (rows, columns) by player count."""
FRAMES = {2: (4, 0), 3: (4, 2), 4: (4, 4)}
"""Frame pieces by player count: (corner pieces of 3 water fields, small pieces of 1)."""
LARGE_ISLAND = 20
"""Islands of this many land fields or more are large islands and get a treasure chest."""
CHESTS = 5
"""Treasure chests, one per large island: a landscape has at most this many large islands."""
GOLD_MAX = 12
CANNON_MAX = 12
"""The rulebook's example: 10 cannons and 5 AP give only 2 cannons."""
TRACK_END_GOLD = 2
DISCOVERER_VP = 3
COMPLETION_VP = 3
CHEST_GOLD = 3
GOLD_PER_CUBES = 3
GOODS = ("cotton", "tobacco", "sugar", "coconuts", "coffee")
RAW_PER_KIND = 8
TRADING_POSTS = 12
SHIPS = 2
TIME_MARKERS = (5, 4, 3, 2, 1)
"""The top time marker in rounds 1-5: the markers 2-5 stacked on the printed 1."""
PROGRESS_FIELDS = 8
"""Progress markers on the central board: a left area of 4 and a right area of 4."""
GOODS_FIELDS = {2: 6, 3: 8, 4: 10}
"""Goods markers laid out each round: 30, 40 or 50 markers in 5 equal parts."""
PIRATES_FACE_DOWN = 5

# --- APPROXIMATIONS of the printed game (pictures only) ----------------------------------

TILE_SIZE = 6
"""APPROXIMATION: an island tile is 6 by 6 fields."""
LAND_SHARE = 0.42
"""APPROXIMATION: the share of land in the generated landscape."""
ISLAND_SIZES = (8, 30)
"""APPROXIMATION: the range of island sizes the generator aims for (fields)."""
POSTS_PER_FIELDS = 6
"""APPROXIMATION: one trading-post field (with its anchor field) per 6 land fields, at least 2."""
RAW_FIELDS = {2: 5, 3: 6, 4: 8}
"""APPROXIMATION: raw-material fields of each kind on the islands, by player count."""

TIME_VALUE = dict(zip(range(1, ROUNDS + 1), TIME_MARKERS, strict=True))

COMPLETION_TABLE = (0, 1, 3, 6, 10, 15)
"""By trading posts on the completed island; 1 → 1 and 2 → 3 from the rulebook's example,
APPROXIMATION beyond (more than 5 posts count as 5)."""

PIRATES = (2, 3, 4, 4, 5, 6)
"""APPROXIMATION: the values of the 6 pirate markers."""

PROGRESS_TRACK_END = 27
PROGRESS_VP = {3: 1, 6: 2, 9: 3, 12: 4, 15: 6, 18: 8, 21: 10, 24: 12, 27: 15}
"""APPROXIMATION: the progress track's fields 0-27 and the VP printed on some of them (the
track ends at 15 VP). Reaching or passing a field with printed VP takes a progress marker.
Printed VP on every third field is the one even spacing under which both of the rulebook's
examples hold: 5 AP from field 0 pass the 1 VP field only (one marker), and 3 fields from the
third printed field reach the fourth (one marker, "seinen vierten")."""
ORDER_TRACK = (
    ("white", 0),
    ("blue", 0),
    ("black", 1),
    ("red", 1),
    ("brown", 2),
    ("green", 2),
    ("yellow", 3),
    ("blue", 3),
    ("black", 4),
    ("red", 4),
    ("brown", 5),
    ("green", 5),
    ("yellow", 6),
    ("any", 8),
)
"""APPROXIMATION: the special-action track, each field's colour and printed VP; the last
field turns the white cubes into any colour."""

SHAPES = {
    "1": ((0, 0),),
    "2": ((0, 0), (0, 1)),
    "3I": ((0, 0), (0, 1), (0, 2)),
    "3L": ((0, 0), (1, 0), (1, 1)),
    "4L": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "4O": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "4T": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "5L": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "5P": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "6R": ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),
    "6L": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (3, 2)),
}
"""APPROXIMATION: the tile shapes (row, column offsets)."""

LANDSCAPES = {
    "1": 6,
    "2": 7,
    "3I": 3,
    "3L": 3,
    "4L": 3,
    "4O": 2,
    "4T": 2,
    "5L": 2,
    "5P": 3,
    "6R": 3,
    "6L": 3,
}
"""APPROXIMATION: how many of the 37 general landscape tiles have each shape. Each costs
its size in AP (1-6, from the rulebook)."""

VILLAGES = {"V1": ("1", 4), "V2": ("2", 4), "V3": ("3L", 4), "V4": ("4O", 4)}
"""APPROXIMATION: each player's 16 village tiles: shape and count. Each costs 1 AP."""


def landscape_vp(size: int) -> tuple[int, int]:
    """APPROXIMATION: (small island, large island) VP of a general landscape tile; the 2-tile's
    large value 3 fits the rulebook's building example (3 + 3 + 4 = 10 on a large island)."""
    return size, size + (size + 1) // 2


def village_vp(size: int) -> tuple[int, int]:
    """APPROXIMATION: (small, large) VP of a village tile; large = size fits both rulebook
    examples (a 2-village scores 2 on a large island)."""
    return (size + 1) // 2, size


GOODS_MARKERS = {2: ((2, 2), (3, 2), (4, 2)), 3: ((3, 1), (4, 1)), 4: ((2, 1), (3, 1))}
"""APPROXIMATION: per kind, the goods markers (cost, count) added at each player count;
per kind 3 cost 2, 4 cost 3 and 3 cost 4 in all (the rulebook's 50), 30 for 2 players and
40 for 3."""

PROGRESS_MARKERS = {
    "ap2_blue": 1,
    "ap2_black": 1,
    "ap2_red": 1,
    "ap2_brown": 1,
    "ap2_green": 1,
    "ap2_yellow": 1,
    "ap2_white": 1,
    "ap1_blue_green": 1,
    "ap1_red_yellow": 1,
    "pirates_plus2": 1,
    "half_damage": 1,
    "ship8": 1,
    "repel_gold": 1,
    "two_landscapes": 1,
    "swap_plan_build": 1,
    "leader": 1,
    "gold3": 1,
    "gold5": 1,
    "post_gold": 1,
    "gold_2to1": 1,
    "cube_vp": 1,
    "end_posts": 1,
    "end_7": 1,
    "end_gold": 1,
}
"""APPROXIMATION: how many of the 24 progress markers show each effect (the effects are the
rulebook's; which actions the AP markers picture is invented)."""
ONE_TIME_MARKERS = ("ship8", "leader", "gold3", "gold5", "cube_vp")
END_MARKERS = ("end_posts", "end_7", "end_gold")
MARKER_GOLD = {"gold3": 3, "gold5": 5}
