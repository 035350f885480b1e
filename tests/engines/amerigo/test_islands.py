"""The island generator keeps the rulebook's two setup rules over 1,500 seeds (500 per player
count): (1) no water field enclosed by land, (2) each island one orthogonally connected land
area with water all around. Checked here with flood fills of their own."""

from __future__ import annotations

import random

import pytest

from games.engines import amerigo as am
from games.engines.amerigo.data import FRAMES, GOODS, LARGE_ISLAND, RAW_FIELDS, RAW_PER_KIND
from games.engines.amerigo.islands import FRAME, LAND, VOID, WATER, generate

SEEDS = 500


STRAIGHT = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONAL = (*STRAIGHT, (-1, -1), (-1, 1), (1, -1), (1, 1))


def _areas(cells: str, cols: int, kinds: str, steps) -> list[int]:
    """Area number of each field of ``kinds`` (joined by ``steps``), -1 elsewhere."""
    rows = len(cells) // cols
    area = [-1] * len(cells)
    count = 0
    for start, kind in enumerate(cells):
        if kind not in kinds or area[start] >= 0:
            continue
        area[start] = count
        todo = [start]
        while todo:
            r, c = divmod(todo.pop(), cols)
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                j = rr * cols + cc
                if 0 <= rr < rows and 0 <= cc < cols and area[j] < 0 and cells[j] in kinds:
                    area[j] = count
                    todo.append(j)
        count += 1
    return area


def _check(m, num_players: int) -> None:
    cells, cols = m.cells, m.cols
    corners, small = FRAMES[num_players]
    assert cells.count(FRAME) == 3 * corners + small
    # Rule 1: all water (with the frame) is one area joined orthogonally.
    water = _areas(cells, cols, WATER + FRAME, STRAIGHT)
    assert max(water) == 0
    # Rule 2: land areas are the same orthogonally and diagonally (islands never touch), and
    # every land field has water (never the void beyond the frame) all around it.
    straight = _areas(cells, cols, LAND, STRAIGHT)
    islands = max(straight) + 1
    assert max(_areas(cells, cols, LAND, DIAGONAL)) + 1 == islands
    for j, k in enumerate(cells):
        if k == LAND:
            r, c = divmod(j, cols)
            assert all(cells[(r + dr) * cols + c + dc] != VOID for dr, dc in DIAGONAL)
    assert islands == len(m.sizes)
    for post, anchor in m.posts:
        assert cells[post] == LAND and cells[anchor] == WATER and anchor in m.neighbours[post]
    assert {m.island[p] for p, _ in m.posts} == set(range(islands))
    assert len(m.raw) == RAW_FIELDS[num_players] * len(GOODS)
    assert all(list(m.raw.values()).count(kind) <= RAW_PER_KIND for kind in GOODS)
    assert all(cells[c] == LAND for c in m.raw)


@pytest.mark.parametrize("num_players", am.PLAYER_COUNTS)
def test_generated_islands_keep_both_setup_rules(num_players):
    for seed in range(SEEDS):
        _check(generate(num_players, random.Random(seed)), num_players)


def test_large_islands_get_a_treasure_chest():
    for seed in range(20):
        state = am.new_game(4, seed)
        assert state.chests == [int(size >= LARGE_ISLAND) for size in state.map.sizes]


def test_one_seed_one_landscape():
    assert generate(3, random.Random(5)).cells == generate(3, random.Random(5)).cells
    assert generate(3, random.Random(5)).cells != generate(3, random.Random(6)).cells
