"""The island landscape: generated at random under the rulebook's two setup rules, since the
printed island tiles are known only from pictures.

The landscape is a grid of ``rows`` by ``cols`` fields: the island tiles inside, one ring of
fields around them for the frame. Only the frame pieces' fields of that ring exist (a corner
piece has 3 water fields, a small piece 1). Fields are numbered row by row (``r * cols + c``).

Rules kept: (1) no water field is enclosed by land (all water joins the frame), (2) each
island is one orthogonally connected area of land with water all around it (islands never
touch, not even diagonally). There are at most 5 large islands: one treasure chest marks each.
"""

from __future__ import annotations

import random
from typing import Any

from .data import (
    CHESTS,
    FRAMES,
    GOODS,
    ISLAND_SIZES,
    ISLAND_TILES,
    LAND_SHARE,
    LARGE_ISLAND,
    POSTS_PER_FIELDS,
    RAW_FIELDS,
    SHAPES,
    TILE_SIZE,
)

VOID, FRAME, WATER, LAND = " ", "f", "~", "L"


class Map:
    """The static landscape (it never changes during a game) and lookups derived from it."""

    __slots__ = (
        "anchor_post",
        "cells",
        "cols",
        "frame",
        "island",
        "island_cells",
        "neighbours",
        "placements_cache",
        "posts",
        "raw",
        "rows",
        "sizes",
        "touching_cache",
    )

    def __init__(
        self,
        rows: int,
        cols: int,
        cells: str,
        island: list[int],
        posts: list[list[int]],
        raw: dict[int, str],
    ) -> None:
        self.rows, self.cols, self.cells, self.island = rows, cols, cells, island
        self.posts = [tuple(p) for p in posts]
        """(trading-post field, its anchor field) pairs."""
        self.raw = raw
        """Raw-material field → kind."""
        self.anchor_post = {a: p for p, a in self.posts}
        count = max(island) + 1 if island else 0
        self.island_cells: list[list[int]] = [[] for _ in range(count)]
        for i, k in enumerate(island):
            if k >= 0:
                self.island_cells[k].append(i)
        self.sizes = [len(c) for c in self.island_cells]
        self.frame = [i for i, k in enumerate(cells) if k == FRAME]
        # The ring of void fields round the frame keeps every real field off the grid's edge
        # except frame fields, whose outward steps are checked.
        size = rows * cols
        self.neighbours: list[tuple[int, ...]] = [
            tuple(
                j
                for j in (
                    i - cols,
                    i + cols,
                    i - 1 if i % cols else -1,
                    i + 1 if (i + 1) % cols else -1,
                )
                if 0 <= j < size and cells[j] != VOID
            )
            for i in range(size)
        ]
        self.placements_cache: dict[str, list[tuple[int, ...]]] = {}
        self.touching_cache: dict[str, dict[int, list[int]]] = {}

    def touching(self, shape: str) -> dict[int, list[int]]:
        """Field → the numbers (in ``placements(shape)``) of the placements covering it."""
        found = self.touching_cache.get(shape)
        if found is None:
            found = {}
            for number, cells in enumerate(self.placements(shape)):
                for cell in cells:
                    found.setdefault(cell, []).append(number)
            self.touching_cache[shape] = found
        return found

    def placements(self, shape: str) -> list[tuple[int, ...]]:
        """Every way to lay ``shape`` (turned or flipped) with all its fields on land: the
        fields, sorted. Computed once per landscape and shape."""
        found = self.placements_cache.get(shape)
        if found is None:
            found = []
            land, rows, cols = self.cells, self.rows, self.cols
            starts = [divmod(i, cols) for i, k in enumerate(land) if k == LAND]
            for form in orientations(SHAPES[shape]):
                # Lay the form's first field on each land field in turn.
                r0, c0 = form[0]
                steps = [(dr - r0, dc - c0) for dr, dc in form]
                for r, c in starts:
                    cells = []
                    for dr, dc in steps:
                        rr, cc = r + dr, c + dc
                        if not (0 <= rr < rows and 0 <= cc < cols) or land[rr * cols + cc] != LAND:
                            break
                        cells.append(rr * cols + cc)
                    else:
                        found.append(tuple(sorted(cells)))
            found = sorted(set(found))
            self.placements_cache[shape] = found
        return found

    def large(self, island: int) -> bool:
        return self.sizes[island] >= LARGE_ISLAND

    def is_water(self, cell: int) -> bool:
        return self.cells[cell] in (WATER, FRAME)

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "cells": [self.cells[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)],
            "posts": [list(p) for p in self.posts],
            "raw": {str(k): v for k, v in sorted(self.raw.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Map:
        rows, cols = data["rows"], data["cols"]
        cells = "".join(data["cells"])
        return cls(
            rows,
            cols,
            cells,
            label_islands(cells, rows, cols),
            data["posts"],
            {int(k): v for k, v in data["raw"].items()},
        )


def orientations(shape: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], ...]]:
    """The shape turned four ways and flipped (a tile may be laid either side up), each
    moved to the top left corner; duplicates dropped."""
    forms = set()
    cells = list(shape)
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            top = min(r for r, _ in cells)
            left = min(c for _, c in cells)
            forms.add(tuple(sorted((r - top, c - left) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]
    return sorted(forms)


def label_islands(cells: str, rows: int, cols: int) -> list[int]:
    """Island number of each land field (orthogonally connected land), -1 elsewhere."""
    island = [-1] * (rows * cols)
    count = 0
    for start, kind in enumerate(cells):
        if kind != LAND or island[start] >= 0:
            continue
        island[start] = count
        todo = [start]
        while todo:
            i = todo.pop()
            r, c = divmod(i, cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = rr * cols + cc
                if 0 <= rr < rows and 0 <= cc < cols and cells[j] == LAND and island[j] < 0:
                    island[j] = count
                    todo.append(j)
        count += 1
    return island


def frame_fields(num_players: int, rows: int, cols: int) -> set[tuple[int, int]]:
    """The ring's fields that frame pieces cover: 3 at each corner, 1 mid-side per small piece
    (with two small pieces, on the long sides)."""
    corners, small = FRAMES[num_players]
    out: set[tuple[int, int]] = set()
    for r, c, dr, dc in (
        (0, 0, 1, 1),
        (0, cols - 1, 1, -1),
        (rows - 1, 0, -1, 1),
        (rows - 1, cols - 1, -1, -1),
    )[:corners]:
        out |= {(r, c), (r + dr, c), (r, c + dc)}
    sides = [(0, cols // 2), (rows - 1, cols // 2), (rows // 2, 0), (rows // 2, cols - 1)]
    if cols < rows:
        sides = sides[2:] + sides[:2]
    out |= set(sides[:small])
    return out


def generate(num_players: int, rng: random.Random) -> Map:
    """A random landscape for ``num_players``; retried until both setup rules hold."""
    while True:
        found = _attempt(num_players, rng)
        if found is not None:
            return found


def _attempt(num_players: int, rng: random.Random) -> Map | None:
    tr, tc = ISLAND_TILES[num_players]
    rows, cols = tr * TILE_SIZE + 2, tc * TILE_SIZE + 2
    frame = frame_fields(num_players, rows, cols)
    grid = [[VOID] * cols for _ in range(rows)]
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            grid[r][c] = WATER
    for r, c in frame:
        grid[r][c] = FRAME
    owner = [[-1] * cols for _ in range(rows)]
    halo = [[-1] * cols for _ in range(rows)]
    """The island whose land lies among a field's 8 neighbours (-2: two islands)."""
    # Land never on the outermost row or column of the island tiles: a sea lane round them.
    inner = [(r, c) for r in range(2, rows - 2) for c in range(2, cols - 2)]
    target = int(LAND_SHARE * len(inner))

    def free(r: int, c: int, island: int) -> bool:
        """Water that may become land of ``island``: no other island's land in its 8 cells."""
        return (
            2 <= r < rows - 2
            and 2 <= c < cols - 2
            and owner[r][c] < 0
            and halo[r][c] in (-1, island)
        )

    def claim(r: int, c: int, island: int) -> None:
        owner[r][c] = island
        for rr in (r - 1, r, r + 1):
            for cc in (c - 1, c, c + 1):
                h = halo[rr][cc]
                halo[rr][cc] = island if h in (-1, island) else -2

    land, islands, failures = 0, 0, 0
    while land < target and failures < 60:
        r, c = inner[rng.randrange(len(inner))]
        if not free(r, c, islands):
            failures += 1
            continue
        want = rng.randint(*ISLAND_SIZES)
        saved = [row[:] for row in halo]
        body = [(r, c)]
        claim(r, c, islands)
        frontier = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        while len(body) < want and frontier:
            fr, fc = frontier.pop(rng.randrange(len(frontier)))
            if not free(fr, fc, islands):
                continue
            claim(fr, fc, islands)
            body.append((fr, fc))
            frontier += [(fr - 1, fc), (fr + 1, fc), (fr, fc - 1), (fr, fc + 1)]
        if len(body) < ISLAND_SIZES[0] // 2:
            for br, bc in body:
                owner[br][bc] = -1
            halo = saved
            failures += 1
            continue
        land += len(body)
        islands += 1
    for r in range(rows):
        for c in range(cols):
            if owner[r][c] >= 0:
                grid[r][c] = LAND
    if not _fill_enclosed_water(grid, owner):
        return None
    cells = "".join("".join(row) for row in grid)
    island = label_islands(cells, rows, cols)
    m = Map(rows, cols, cells, island, [], {})
    if sum(size >= LARGE_ISLAND for size in m.sizes) > CHESTS:
        return None
    posts = _place_posts(m, rng)
    if posts is None:
        return None
    taken = {p for p, _ in posts}
    free_land = [i for i, k in enumerate(island) if k >= 0 and i not in taken]
    rng.shuffle(free_land)
    per_kind = RAW_FIELDS[num_players]
    m.posts = posts
    m.anchor_post = {a: p for p, a in posts}
    m.raw = {
        cell: GOODS[n // per_kind] for n, cell in enumerate(free_land[: per_kind * len(GOODS)])
    }
    return m


def _fill_enclosed_water(grid: list[list[str]], owner: list[list[int]]) -> bool:
    """Water no path joins to the frame becomes land of the one island around it (rule 1);
    False if such water touches two islands (then the attempt is dropped)."""
    rows, cols = len(grid), len(grid[0])
    seen = [[False] * cols for _ in range(rows)]
    todo = [(1, 1)]
    seen[1][1] = True
    while todo:
        r, c = todo.pop()
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            inside = 1 <= rr < rows - 1 and 1 <= cc < cols - 1
            if inside and not seen[rr][cc] and grid[rr][cc] == WATER:
                seen[rr][cc] = True
                todo.append((rr, cc))
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            if grid[r][c] == WATER and not seen[r][c]:
                pocket, around, todo = [(r, c)], set(), [(r, c)]
                seen[r][c] = True
                while todo:
                    pr, pc = todo.pop()
                    for rr, cc in ((pr - 1, pc), (pr + 1, pc), (pr, pc - 1), (pr, pc + 1)):
                        if grid[rr][cc] == LAND:
                            around.add(owner[rr][cc])
                        elif not seen[rr][cc]:
                            seen[rr][cc] = True
                            pocket.append((rr, cc))
                            todo.append((rr, cc))
                if len(around) != 1:
                    return False
                (isl,) = around
                for pr, pc in pocket:
                    grid[pr][pc] = LAND
                    owner[pr][pc] = isl
    return True


def _place_posts(m: Map, rng: random.Random) -> list[tuple[int, int]] | None:
    """Trading-post fields on each island's coast, each with its own anchor field; an anchor
    field touches no other trading-post field, so the post it serves is never in doubt."""
    chosen: list[tuple[int, int]] = []
    posts: set[int] = set()
    anchors: set[int] = set()
    for cells in m.island_cells:
        want = max(2, len(cells) // POSTS_PER_FIELDS)
        pairs = [(p, a) for p in cells for a in m.neighbours[p] if m.cells[a] == WATER]
        rng.shuffle(pairs)
        got = 0
        for p, a in pairs:
            if got == want:
                break
            if p in posts or a in anchors or any(n in posts for n in m.neighbours[a]):
                continue
            if any(n in anchors for n in m.neighbours[p]):
                continue
            chosen.append((p, a))
            posts.add(p)
            anchors.add(a)
            got += 1
        if got == 0:
            return None
    return chosen
