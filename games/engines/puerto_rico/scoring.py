"""Final scores: VP chips + building VP + bonuses of occupied large buildings (+ 1 VP per
noble with the Nobles); ties go to the most doubloons + goods."""

from __future__ import annotations

from typing import Any

from .data import BUILDINGS
from .powers import HOOKS, SCORING
from .state import Player, State


def large_building_bonuses(pl: Player) -> dict[str, int]:
    """The extra VP of each occupied building with a scoring power the player owns."""
    city = pl.city
    return {b: fn(pl) for b, fn, _ in HOOKS[SCORING] if city.get(b)}


def score(pl: Player) -> dict[str, Any]:
    bonuses = large_building_bonuses(pl)
    buildings = sum(BUILDINGS[b].vp for b in pl.city)
    nobles = pl.nobles()
    return {
        "chips": pl.vp,
        "buildings": buildings,
        "bonuses": bonuses,
        "nobles": nobles,
        "total": pl.vp + buildings + sum(bonuses.values()) + nobles,
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
