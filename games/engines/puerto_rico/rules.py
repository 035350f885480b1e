"""The game's entry points: set up, list the legal actions, apply one, ask who acts.

Every phase module offers ``legal(state)``, ``check(state, action)`` (raises
``IllegalAction`` naming the rule) and ``play(state, action, log)``; ``apply`` checks before it
changes anything, so a refused action leaves the state as it was.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from . import builder, captain, craftsman, draft, guests, mayor, settler, trader
from .actions import PASS, Action, ChooseRole, IllegalAction
from .common import end_round, finish_phase, privileges, uses_new_buildings, uses_nobles
from .data import (
    ALL_GOODS,
    BASE,
    BUILDINGS,
    COLONISTS_IN_BOX,
    GUEST_HOUSE,
    NOBLES,
    NOBLES_IN_BOX,
    ROLES,
    SETUPS,
    VP_CHIPS_5P_OPTIONS,
)
from .options import EDITIONS
from .state import Player, RoleCard, Ship, State

_CHOOSE_ROLE = {role: ChooseRole(role) for role in ROLES}

PHASE_MODULES: dict[str, ModuleType] = {
    "settler": settler,
    "mayor": mayor,
    "builder": builder,
    "craftsman": craftsman,
    "trader": trader,
    "captain": captain,
    "storage": captain,
    "draft": draft,
    "hunting_lodge": settler,
}
DEFAULT_OPTIONS = {"hidden_vp": True, "vp_chips": None, "edition": EDITIONS[0]}
"""``hidden_vp``: VP chips lie face down (others' VP hidden until the end).
``vp_chips``: for five players, 122 (first edition, default) or 126 (2011 edition).
``edition``: ``base``, ``new_buildings``, ``nobles`` or ``both`` (``options.EDITIONS``)."""


def new_game(num_players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
    """Set up the table; seat 0 is the first governor (the site seats players at random)."""
    if num_players not in SETUPS:
        raise ValueError("Puerto Rico is played by 2 to 5 players here")
    opts = {**DEFAULT_OPTIONS, **(options or {})}
    unknown = set(opts) - set(DEFAULT_OPTIONS)
    if unknown:
        raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
    setup = SETUPS[num_players]
    chips = setup.vp_chips
    if opts["vp_chips"] is not None:
        if num_players != 5 or opts["vp_chips"] not in VP_CHIPS_5P_OPTIONS:
            raise ValueError("the vp_chips option is 122 or 126, for five players")
        chips = opts["vp_chips"]
    opts["vp_chips"] = chips
    opts["hidden_vp"] = bool(opts["hidden_vp"])
    if opts["edition"] not in EDITIONS:
        raise ValueError(f"the edition option is one of {', '.join(EDITIONS)}")
    nobles = uses_nobles(opts)
    expansions = (BASE, NOBLES) if nobles else (BASE,)

    rng = random.Random(seed)
    s = State.__new__(State)
    s.num_players = num_players
    s.options = opts
    s.round = 1
    s.governor = s.chooser = s.current = 0
    s.phase = "role"
    s.roles = [RoleCard(r, 0, None) for r in setup.roles]
    s.roles_chosen = 0
    s.colonist_supply = setup.colonist_supply
    s.colonist_ship = setup.colonist_ship
    # The Nobles: one noble on the ship instead of a colonist, 19 beside the supply, and every
    # colonist of the box in the supply (none counted out: running out ends nothing).
    s.noble_ship = 1 if nobles else 0
    s.noble_supply = NOBLES_IN_BOX - s.noble_ship if nobles else 0
    s.colonist_ship -= s.noble_ship
    if nobles:
        s.colonist_supply = COLONISTS_IN_BOX - s.colonist_ship
    s.noble_seat = None
    s.land_office_used = False
    s.supplier_ready = [False] * num_players
    s.vp_chips = chips
    s.goods = list(setup.goods)
    s.quarries = setup.quarries
    tiles = list(setup.plantations)
    s.players = []
    for seat in range(num_players):
        pl = Player()
        pl.doubloons = setup.doubloons
        kind = setup.starting_plantations[seat]
        pl.tiles[kind] = 1
        tiles[kind] -= 1
        s.players.append(pl)
    s.stack = [k for k in ALL_GOODS for _ in range(tiles[k])]
    rng.shuffle(s.stack)
    s.face_up = sorted(s.stack.pop() for _ in range(setup.face_up))
    s.discards = []
    s.rng = rng.getrandbits(63)
    new_buildings = uses_new_buildings(opts)
    s.buildings = {
        b.name: setup.copies(b)
        for b in BUILDINGS.values()
        if b.expansion in expansions and not (new_buildings and b.violet and b.expansion == BASE)
    }
    s.ships = [Ship(cap, None, 0) for cap in setup.ships]
    s.trading_house = []
    s.end_reasons = []
    s.turn = 0
    s.hacienda_used = False
    s.idle = 0
    s.captain_bonus = False
    s.wharf_used = [False] * num_players
    s.produced = []
    s.drafted = []
    s.drawn = None
    s.drawn_guest = None
    s.drawn_hidden = False
    s.extras = 0
    s.made = [0] * len(ALL_GOODS)
    s.small_wharf_used = [False] * num_players
    s.guests_queue = ()
    s.guests_then = None
    if new_buildings:
        s.phase = "draft"
    return s


def current_player(state: State) -> int | None:
    """The seat that must act, or None when the game is over."""
    return state.current


def is_over(state: State) -> bool:
    return state.phase == "over"


def legal_actions(state: State) -> Sequence[Action]:
    """Every legal choice of the seat to act, optional ones (pass, decline) included.

    In the mayor phase this is an ``Arrangements`` sequence: indexable and iterable, but its
    members are computed on demand.
    """
    phase = state.phase
    if phase == "role":
        actions = [_CHOOSE_ROLE[name] for name, _, taken_by in state.roles if taken_by is None]
        if len(state.roles) > len(ROLES):  # two prospectors (five players): each role once
            actions = [*dict.fromkeys(actions)]
    elif phase == "over":
        return []
    elif phase == "guests":
        return [*guests.legal(state), PASS]
    else:
        actions = PHASE_MODULES[phase].legal(state)
        if phase in guests.NO_MOVES:
            return actions
    if GUEST_HOUSE in state.buildings:  # a game without it (most) has no guests to ask about
        moves = guests.legal(state)
        if moves:
            return [*actions, *moves]
    return actions


def legal_schema(state: State) -> dict[str, Any] | None:
    """Where ``legal_actions`` is computed on demand (the mayor's placements, thousands of
    them), what a client builds its action from (``mayor.schema``); else None."""
    return mayor.schema(state) if state.phase == "mayor" else None


def check(state: State, action: Action) -> None:
    """Raise ``IllegalAction`` with the rule broken if ``action`` is not legal now."""
    if state.phase == "over":
        raise IllegalAction("game_over")
    if action.type == "move_guest":
        guests.check(state, action)
        return
    if state.phase == "guests":
        if action.type != "pass":
            raise IllegalAction("wrong_action", phase=state.phase)
        return
    if state.phase == "role":
        if action.type != "choose_role":
            raise IllegalAction("role_expected")
        role = action.role
        in_game = False
        for name, _, taken_by in state.roles:
            if name == role:
                if taken_by is None:
                    return
                in_game = True
        if not in_game:
            raise IllegalAction("role_not_in_game", role=role, players=state.num_players)
        raise IllegalAction("role_taken", role=role)
    PHASE_MODULES[state.phase].check(state, action)


def apply(
    state: State, action: Action, *, log: list[dict] | None = None, inplace: bool = False
) -> State:
    """Apply the current seat's ``action`` and return the new state.

    The given state is left untouched unless ``inplace`` (for fast random play and search).
    The events of what happened (``docs/engine.md``) are appended to ``log`` when one is given.
    """
    check(state, action)
    s = state if inplace else state.clone()
    if action.type == "move_guest":
        guests.play(s, action, log)
        if s.phase == "guests" and not guests.legal(s):
            _close_window(s, log)  # nothing left to move: the window closes by itself
    elif s.phase == "guests":
        _close_window(s, log)
    elif s.phase == "role":
        _choose_role(s, action.role, log)
    else:
        PHASE_MODULES[s.phase].play(s, action, log)
    return s


def _choose_role(state: State, role: str, log: list[dict] | None) -> None:
    seat = state.current
    # Of two free prospectors the seat takes the one with more doubloons on it.
    roles = state.roles
    pick = None
    for i, card in enumerate(roles):
        if (
            card.role == role
            and card.taken_by is None
            and (pick is None or card.doubloons > roles[pick].doubloons)
        ):
            pick = i
    bonus = roles[pick].doubloons
    roles[pick] = RoleCard(role, 0, seat)
    state.players[seat].doubloons += bonus
    state.chooser = seat
    if log is not None:
        log.append({"event": "role", "seat": seat, "role": role, "doubloons": bonus})
    if role == "prospector":
        pay = privileges(state, seat)
        state.players[seat].doubloons += pay
        if log is not None:
            log.append({"event": "prospect", "seat": seat, "doubloons": pay})
        finish_phase(state)
        return
    # No windows in the mayor phase; the chooser's comes last, after seeing the others'.
    if role in guests.NO_MOVES or not guests.open_windows(state, seat + 1, role):
        PHASE_MODULES[role].start(state, log)


def _close_window(state: State, log: list[dict] | None) -> None:
    """The seat asked is done with its guest window; after the last one the game goes on
    where the windows interrupted it."""
    then = state.guests_then
    if guests.close_window(state):
        return
    if then == guests.GAME_END:
        end_round(state)
    elif then == guests.STORAGE:
        captain.start_storage(state, log)
    else:
        PHASE_MODULES[then].start(state, log)
