"""Final scores: VP chips + building VP + bonuses of occupied large buildings (+ 1 VP per
noble with the Nobles). "Bei Gleichstand gewinnt von diesen derjenige, der noch die größere
Menge Dublonen und Waren besitzt (1 Ware = 1 Dublone)"; the rulebook says no more, so seats
equal in that too share their placement."""

from __future__ import annotations

from ..protocol import SeatOutcome, placements
from .common import uses_nobles
from .data import BUILDINGS
from .powers import HOOKS, SCORING
from .state import Player, State


def large_building_bonuses(pl: Player) -> dict[str, int]:
    """The extra VP of each occupied building with a scoring power the player owns."""
    city = pl.city
    return {b: fn(pl) for b, fn, _ in HOOKS[SCORING] if city.get(b)}


def outcome(state: State) -> tuple[SeatOutcome, ...]:
    """Each seat's score, its parts and its placement (meaningful at any time; final once
    the game is over)."""
    nobles = uses_nobles(state)
    table = []
    for pl in state.players:
        bonuses = large_building_bonuses(pl)
        parts = {
            "chips": pl.vp,
            "buildings": sum(BUILDINGS[b].vp for b in pl.city),
            "bonuses": bonuses,
        }
        if nobles:
            parts["nobles"] = pl.nobles()
        score = pl.vp + parts["buildings"] + sum(bonuses.values()) + parts.get("nobles", 0)
        table.append((score, pl.doubloons + sum(pl.goods), parts))
    ranks = placements([(score, tiebreak) for score, tiebreak, _ in table])
    return tuple(
        SeatOutcome(seat, ranks[seat], score, parts, {"doubloons_and_goods": tiebreak})
        for seat, (score, tiebreak, parts) in enumerate(table)
    )
