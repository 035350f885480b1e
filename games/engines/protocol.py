"""What the platform (lobby, seats, moves, AI scheduling) needs from a game engine.

An engine is a module with these functions; the platform never names anything of a
particular game. States are opaque to it except through their JSON form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class SeatOutcome:
    """One seat's standing, as the game's rulebook ranks the seats: what the platform keeps
    of a finished game (``games.models.Result``) and what a score chart draws."""

    seat: int
    placement: int
    """1 is first; seats the rulebook cannot part share a placement, and the next one
    skips (1, 1, 3)."""
    score: int
    parts: Mapping[str, int | Mapping[str, int]]
    """What the score is made of, named as the game names it; a part may be split further
    (by building, say). The parts add up to ``score``."""
    tiebreak: Mapping[str, int]
    """What the rulebook compares between equal scores, the more the better: not part of
    ``score``."""


def placements(keys: Sequence[Any]) -> list[int]:
    """Each seat's placement by its key (the higher the better): 1 + the seats with a higher
    key, so equal keys share a placement and the next one skips (1, 1, 3)."""
    return [1 + sum(other > key for other in keys) for key in keys]


class Engine(Protocol):
    NAME: str
    PLAYER_COUNTS: tuple[int, ...]
    OPTIONS: tuple[dict[str, Any], ...]
    """Each option: ``name``, ``label``, ``help``, ``type`` ("bool" or "choice"), ``default``,
    ``choices`` for a choice, ``players`` when it applies to some player counts only."""
    ACTION_SCHEMA: dict[str, Any]
    """Every action ``action_from_json`` reads, as a JSON Schema in the keywords JSON Schema
    2020-12 and OpenAPI share: ``{"oneOf": [...], "description": ...}``, one object member per
    action ``type``. An API describes its moves with it; a bot builds its actions from it."""

    def new_game(
        self, num_players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> Any: ...

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """Every legal action of the seat to act: a list, or a sequence computed on demand
        where a choice has thousands (Puerto Rico's mayor). An engine with such a sequence
        also has ``legal_schema(state)``: the choice as JSON a client builds its action
        from, where the sequence is no list (None elsewhere)."""
        ...

    def apply(
        self,
        state: Any,
        action: Any,
        *,
        log: list[dict[str, Any]] | None = None,
        inplace: bool = False,
    ) -> Any:
        """The state after the current seat's ``action``. With ``log``, one JSON-ready event per
        thing that happened is appended (``{"event": kind, "seat": n, ...}``): public facts
        only, for the game's UI to tell in the reader's language. A refused action raises a
        ``ValueError`` with ``code`` and ``params`` (the rule broken) and changes nothing."""
        ...

    def current_player(self, state: Any) -> int | None: ...

    def is_over(self, state: Any) -> bool: ...

    def outcome(self, state: Any) -> tuple[SeatOutcome, ...]:
        """Each seat's standing, in seat order, as it is now: final once ``is_over``."""
        ...

    def player_view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def reveals(self, state: Any, action: Any) -> bool:
        """Whether ``action`` (legal in ``state``) turns hidden information face up: a card
        drawn, a tile revealed, a shuffle. The platform never lets a player take back such a
        decision, nor any before it."""
        ...

    def known_scores(self, state: Any, seat: int | None) -> list[int | None]:
        """Each seat's score as ``seat`` (``None``: a spectator) may know it now; ``None``
        for a score that holds something hidden from that viewer."""
        ...

    def round_number(self, state: Any) -> int:
        """The round being played, counted from 1: the steps of a score chart."""
        ...

    def determinize(self, view: dict[str, Any], seed: int) -> Any:
        """A complete state agreeing with a seat's ``player_view``, its hidden parts guessed
        from ``seed``: what an AI player searches from."""
        ...

    def to_json(self, state: Any) -> dict[str, Any]: ...

    def from_json(self, data: dict[str, Any]) -> Any: ...

    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    def action_from_json(self, data: Any) -> Any:
        """The action ``data`` stands for, or a ``ValueError`` with ``code`` and ``params``:
        ``bad_text`` for a NUL character or a lone surrogate anywhere in it
        (``games.engines.text``), which no database column or UTF-8 answer can hold."""
        ...
