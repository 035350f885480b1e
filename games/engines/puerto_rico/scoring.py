"""Final scores: VP chips + building VP + bonuses of occupied large buildings; ties go to
the most doubloons + goods."""

from __future__ import annotations

from typing import Any

from .data import BUILDINGS, LARGE_PRODUCTION, RESIDENCE_BONUS, SMALL_PRODUCTION
from .state import Player, State


def large_building_bonuses(pl: Player) -> dict[str, int]:
    """The extra VP of each occupied large building the player owns."""
    out = {}
    if pl.city.get("guild_hall", 0):
        out["guild_hall"] = sum(1 for b in pl.city if b in SMALL_PRODUCTION) + sum(
            2 for b in pl.city if b in LARGE_PRODUCTION
        )
    if pl.city.get("residence", 0):
        out["residence"] = RESIDENCE_BONUS.get(sum(pl.tiles), 4)
    if pl.city.get("fortress", 0):
        out["fortress"] = pl.colonists() // 3
    if pl.city.get("customs_house", 0):
        out["customs_house"] = pl.vp // 4
    if pl.city.get("city_hall", 0):
        out["city_hall"] = sum(1 for b in pl.city if BUILDINGS[b].violet)
    return out


def score(pl: Player) -> dict[str, Any]:
    bonuses = large_building_bonuses(pl)
    buildings = sum(BUILDINGS[b].vp for b in pl.city)
    return {
        "chips": pl.vp,
        "buildings": buildings,
        "bonuses": bonuses,
        "total": pl.vp + buildings + sum(bonuses.values()),
        "tiebreak": pl.doubloons + sum(pl.goods),
    }


def scores(state: State) -> list[dict[str, Any]]:
    """A per-seat breakdown (meaningful at any time; final once the game is over)."""
    return [score(pl) for pl in state.players]


def winners(state: State) -> list[int]:
    """The seats with the most VP, then the most doubloons + goods (several on a full tie)."""
    table = scores(state)
    best = max((s["total"], s["tiebreak"]) for s in table)
    return [i for i, s in enumerate(table) if (s["total"], s["tiebreak"]) == best]
