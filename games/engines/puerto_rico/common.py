"""Small pieces several phases share: colonists from the supply, VP chips, ending a phase."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import guests
from .actions import COLONIST, EMPTY, FOREST_TILE, NOBLE, Action, DiscardPlantation, IllegalAction
from .data import ALL_GOODS, GOODS, ISLAND_KINDS, SETUPS
from .powers import DOUBLE_PRIVILEGE, HOOKS, LAY_FOREST, has
from .state import Player, RoleCard, State

END_COLONISTS = "colonists"
END_CITY = "city"
END_VP_CHIPS = "vp_chips"


def colonist_available(state: State) -> bool:
    return state.colonist_supply > 0 or state.colonist_ship > 0


def take_colonist(state: State) -> bool:
    """Hospice and university: a colonist from the supply, else from the ship, else none."""
    if state.colonist_supply:
        state.colonist_supply -= 1
        return True
    if state.colonist_ship:
        state.colonist_ship -= 1
        return True
    return False


# Expansions ---------------------------------------------------------------------------------


def uses_nobles(state_or_options: State | Mapping[str, Any]) -> bool:
    """Expansion II, the Nobles, is played (edition "nobles" or "both")."""
    options = getattr(state_or_options, "options", state_or_options)
    return options.get("edition") in ("nobles", "both")


def discard_choices(pl: Player, forests: bool = False) -> list[Action]:
    """Each different plantation the player may give up: a kind, and what stands on it;
    ``forests``: a forest too (the Hunting lodge's "oder einen Wald", both expansions)."""
    out: list[Action] = []
    for k in ALL_GOODS:
        tiles = pl.tiles[k]
        if tiles:
            nobles = pl.noble_worked[k]
            colonists = pl.worked[k] - nobles
            for occupant, n in (
                (EMPTY, tiles - pl.worked[k]),
                (COLONIST, colonists),
                (NOBLE, nobles),
            ):
                if n:
                    out.append(DiscardPlantation(k, occupant))
        if forests and pl.forest_kinds[k]:
            out.append(DiscardPlantation(k, FOREST_TILE))
    return out


def check_discard(pl: Player, action: DiscardPlantation, forests: bool = False) -> None:
    if action.tile not in ALL_GOODS:
        raise IllegalAction("not_a_plantation")
    if DiscardPlantation(action.tile, action.occupant) not in discard_choices(pl, forests):
        raise IllegalAction("no_plantation", tile=GOODS[action.tile], occupant=action.occupant)


def discard_plantation(
    state: State, seat: int, action: DiscardPlantation, event: str, log: list[dict] | None
) -> None:
    """The plantation (or forest) goes on the discard pile, its colonist or noble to San
    Juan; the log tells it as ``event`` (the building that did it)."""
    pl = state.players[seat]
    k = action.tile
    if action.occupant == FOREST_TILE:
        pl.forests -= 1
        pl.forest_kinds[k] -= 1
        if pl.forest_kinds[k] < pl.secret_forest_kinds[k]:
            # No forest of this kind the others know of is left: a secret one goes (face up
            # on the open discard pile); otherwise a known one, and the secrets stay kept.
            _count_secret_forest(pl, k, -1)
    else:
        pl.tiles[k] -= 1
    if action.occupant in (COLONIST, NOBLE):
        pl.worked[k] -= 1
        pl.san_juan += 1
    if action.occupant == NOBLE:
        pl.noble_worked[k] -= 1
        pl.noble_san_juan += 1
    state.discards.append(k)
    if log is not None:
        log.append({"event": event, "seat": seat, "tile": GOODS[k], "occupant": action.occupant})


def lay_forest(
    state: State,
    seat: int,
    kind: int,
    piece: str | None,
    log: list[dict] | None,
    secret: bool = False,
) -> None:
    """The new tile lies face down as a forest; the piece on it (``piece``: None, COLONIST
    or NOBLE) goes to San Juan as what it is: forests are never worked. ``secret``: only the
    owner has seen the tile, so the log names none (``tile`` null)."""
    pl = state.players[seat]
    pl.tiles[kind] -= 1
    pl.forests += 1
    pl.forest_kinds[kind] += 1
    if secret:
        _count_secret_forest(pl, kind, 1)
    if piece is not None:
        pl.worked[kind] -= 1
        pl.san_juan += 1
    if piece == NOBLE:
        pl.noble_worked[kind] -= 1
        pl.noble_san_juan += 1
    if log is not None:
        log.append(
            {"event": "forest", "seat": seat, "tile": None if secret else ISLAND_KINDS[kind]}
        )


def _count_secret_forest(pl: Player, kind: int, change: int) -> None:
    secret = list(pl.secret_forest_kinds)
    secret[kind] += change
    pl.secret_forest_kinds = tuple(secret)


def draw_plantation(state: State, event: str, log: list[dict] | None) -> None:
    """The current seat takes the top face-down plantation onto its island (hacienda, Land
    office). With an occupied forest house it may still lay the tile as a forest, having
    looked at it ("darf er das Plättchen anschauen, bevor er es ggf. als Wald auslegt"): until
    it lies face up, only this seat knows its kind, and the log's ``event`` names none (``tile``
    null)."""
    seat = state.current
    pl = state.players[seat]
    kind = state.stack.pop()
    pl.tiles[kind] += 1
    state.drawn = kind
    state.drawn_hidden = has(pl, _LAY_FOREST)
    if log is not None:
        tile = None if state.drawn_hidden else ISLAND_KINDS[kind]
        log.append({"event": event, "seat": seat, "tile": tile})


def show_drawn(state: State, log: list[dict] | None) -> None:
    """The drawn tile lies face up on the island now (the turn is over, or a guest stands on
    it): everyone sees its kind."""
    if state.drawn_hidden:
        state.drawn_hidden = False
        if log is not None:
            log.append(
                {"event": "drawn_shown", "seat": state.current, "tile": ISLAND_KINDS[state.drawn]}
            )


def lay_drawn_forest(state: State, log: list[dict] | None) -> None:
    """``Forest()``: the tile just drawn (hacienda, Land office) becomes a forest, and the
    guest moved onto it, if any, goes to San Juan; unseen by the others if they never saw it."""
    lay_forest(state, state.current, state.drawn, state.drawn_guest, log, state.drawn_hidden)
    state.drawn_hidden = False
    forget_drawn(state, log)


def forget_drawn(state: State, log: list[dict] | None) -> None:
    """The seat's turn is over (or its drawn tile a forest): no tile is just drawn, and one
    kept as a plantation lies face up."""
    show_drawn(state, log)
    state.drawn = None
    state.drawn_guest = None


def trigger_end(state: State, reason: str, log: list[dict] | None) -> None:
    """The game ends with this round; the log says so when it first becomes true."""
    if reason not in state.end_reasons:
        state.end_reasons.append(reason)
        if log is not None:
            log.append({"event": "game_ends", "reason": reason})


def award_vp(state: State, seat: int, vp: int, log: list[dict] | None) -> None:
    """VP chips from the supply; VP earned after the last chip still count (on paper)."""
    state.players[seat].vp += vp
    state.vp_chips -= vp
    if state.vp_chips <= 0:
        state.vp_chips = 0
        trigger_end(state, END_VP_CHIPS, log)


def next_seat_to_decide(state: State, has_choice: Callable[[State, int], bool]) -> bool:
    """In a phase that goes round once, make the next seat with a choice the one to act,
    passing over seats with nothing to decide. False when every seat has had its turn."""
    while state.turn < state.num_players:
        seat = state.seat(state.turn)
        if has_choice(state, seat):
            state.current = seat
            return True
        state.turn += 1
    return False


def roles_per_round(num_players: int) -> int:
    """Each player chooses one role a round; with two players, three each, alternately."""
    return num_players * SETUPS[num_players].roles_per_player


def finish_phase(state: State) -> None:
    """The role's action is done: the next seat chooses a role, or the round ends; at the
    game's end the guests may still move, from the governor on, before the scoring."""
    n = state.num_players
    state.roles_chosen += 1
    if state.roles_chosen < roles_per_round(n):
        state.phase = "role"
        state.chooser = state.current = (state.governor + state.roles_chosen) % n
        return
    if state.end_reasons and guests.open_windows(state, state.governor, guests.GAME_END):
        return
    end_round(state)


def end_round(state: State) -> None:
    """Money on the roles not taken, the next governor; the game is over if it ends now."""
    n = state.num_players
    state.roles = [
        RoleCard(card.role, card.doubloons + 1 if card.taken_by is None else card.doubloons, None)
        for card in state.roles
    ]
    state.roles_chosen = 0
    state.governor = (state.governor + 1) % n
    state.round += 1
    if state.end_reasons:
        state.phase = "over"
        state.current = None
    else:
        state.phase = "role"
        state.chooser = state.current = state.governor


# Expansion I, "Die neuen Gebäude" ---------------------------------------------------------


_DOUBLE_PRIVILEGE = HOOKS[DOUBLE_PRIVILEGE]
_LAY_FOREST = HOOKS[LAY_FOREST]


def uses_new_buildings(state_or_options: State | Mapping[str, Any]) -> bool:
    """The game is played with the New Buildings (edition "new_buildings" or "both")."""
    options = getattr(state_or_options, "options", state_or_options)
    return options.get("edition", "base") in ("new_buildings", "both")


def privileges(state: State, seat: int) -> int:
    """How often ``seat`` gets the privilege of the role being played: 0 for the others, 1
    for the chooser, 2 for a chooser with an occupied library (its double privilege)."""
    if seat != state.chooser:
        return 0
    return 2 if has(state.players[seat], _DOUBLE_PRIVILEGE) else 1
