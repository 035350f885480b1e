"""The shelf: every game the site offers, each declared once in a ``GameSpec``.

A game is a rules engine (pure Python, ``games/engines/``), a UI that draws its board and
reads its forms and log (``games/ui/``), and its AI players (``games/bots/``). One module per
game (``games/shelf/<game>.py``) puts them together in a ``GameSpec``; the setting
``PUERTO_GAMES`` lists those modules, and ``GamesConfig.ready`` registers each one's ``GAME``.
The lobby, the forms, the routes, the home page and the AI levels read the registry, so the
platform itself names no game. A test registers a game of its own with ``register``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engines.protocol import Engine

Bot = Callable[..., Any]
"""``bot(state, view, legal, seed, *, budget, simulations)``: see ``games.bots``."""


@dataclass(frozen=True)
class Ladder:
    """One list of ratings: the games of these player counts are rated against each other
    (``players.ratings``). A game whose player counts play alike has one ladder; one whose
    small table is another game (two-player Puerto Rico) has a ladder for it."""

    key: str
    """Stored in ``Rating.ladder`` and in addresses: never change it once games are rated."""
    title: Any
    """Its name as players read it (a lazy translation)."""
    player_counts: tuple[int, ...]


@dataclass(frozen=True)
class GameSpec:
    """What the platform needs of a game; every part is the game's own.

    What a seat may not see is the engine's business: its ``player_view`` strips it, and
    the board, the AI players and the API see a seat's view only."""

    name: str
    """The engine's name, stored in ``Game.engine``: never change it once games exist."""
    title: str
    """The game's name as players read it (a lazy translation)."""
    engine: Engine
    bots: Mapping[str, Bot]
    """The AI players by level (``Seat.AI``'s values): the lobby offers these levels."""
    template: Any
    """The board's template: a name, or a template object (a game that lives in tests)."""
    board_context: Callable[..., dict[str, Any]]
    """``board_context(view, names, legal=None, posted=None)``: what ``template`` draws of
    ``view``, the ``player_view`` of the viewer (its ``seat``; None: a spectator). It is
    never handed the state: the platform calls it through ``seat_board_context``."""
    moderator_board_context: Callable[[Any, list[str]], dict[str, Any]]
    """``moderator_board_context(state, names)``: what ``template`` draws for a moderator,
    who may see what any seat sees: the one board handed the whole state."""
    action_from_post: Callable[[Any], Any]
    """A posted board form as the engine's action JSON, or ``ValueError`` in words."""
    describe_event: Callable[[dict[str, Any], list[str]], str]
    """One event of the engine's log in the reader's language."""
    describe_refusal: Callable[[str, dict[str, Any]], str]
    """An engine refusal (its code and parameters) in the reader's language."""
    rules_template: Any
    """The rules page (``/games/rules/<slug>/``): a template name or object."""
    rules_context: Callable[[], dict[str, Any]] = dict
    option_texts: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Each engine option's label and help in the reader's language, by option name."""
    option_choice_names: Mapping[str, Mapping[Any, str]] = field(default_factory=dict)
    """The words for an option's named choices (the edition), shown beside the game's name."""
    outcome_parts: Mapping[str, str] = field(default_factory=dict)
    """The label of each part and tie-break of a seat's result (the engine's ``outcome``), in
    the order of the final table."""
    log_heading: Callable[[dict[str, Any], list[str]], str | None] = lambda event, names: None
    """The heading one event of the engine's log opens in the reader's language (the role a
    player takes), or None: the log groups each round's moves under these headings."""
    summary: str = ""
    """One or two sentences on the game for the front page, in the reader's language."""
    picture: str = ""
    """A static file showing the game's board on puerto, for the front page."""
    ladders: tuple[Ladder, ...] = ()
    """The game's rating ladders, each for some of its player counts; none declared: one
    ladder for every count, named as the game."""
    analyst: Callable[..., Any] | None = None
    """How the hard player's search judges a seat's choices (``games.bots.Analyst``): what
    hints and post-game reviews show. None: the game offers neither."""
    describe_action: Callable[[Any, int, Any], str] | None = None
    """``describe_action(state, seat, action)``: one action in the reader's language, as the
    board's button for it says (what a hint or a review says the AI would do); ``state``
    agrees with the seat's view."""

    @property
    def slug(self) -> str:
        """The game in addresses: ``puerto-rico``."""
        return self.name.replace("_", "-")

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(self.engine.PLAYER_COUNTS)

    @property
    def rating_ladders(self) -> tuple[Ladder, ...]:
        return self.ladders or (Ladder(self.name, self.title, self.player_counts),)

    def ladder_for(self, num_players: int) -> Ladder:
        """The ladder a game of ``num_players`` is rated on."""
        return next(x for x in self.rating_ladders if num_players in x.player_counts)

    def seat_board_context(
        self, state: Any, position: int | None, names: list[str], posted=None, may_act=True
    ) -> dict[str, Any]:
        """The board for the viewer at ``position`` (None: a spectator). ``board_context`` is
        handed that seat's ``player_view`` and, when the seat may move now, its legal actions
        asked of the whole state, so it cannot show what the seat may not know. ``may_act`` is
        False when the engine waits for the seat but its person may not move (an AI plays it,
        the game was cancelled, a replay); ``posted``: the fields of a refused move, to show
        them again as entered."""
        rules = self.engine
        acts = may_act and position is not None and position == rules.current_player(state)
        legal = rules.legal_actions(state) if acts else None
        return self.board_context(rules.player_view(state, position), names, legal, posted)

    def describe_options(self, options: Mapping[str, Any]) -> str:
        """The game's named choices (the edition, say) in words, for its page and lists; an
        option absent from ``options`` has its default."""
        names = self.option_choice_names
        return ", ".join(
            str(names[o["name"]][options.get(o["name"], o["default"])])
            for o in self.engine.OPTIONS
            if o["name"] in names
        )


_SHELF: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    """Offer ``spec``'s game on the site; a second game of the same name is refused."""
    if spec.name in _SHELF and _SHELF[spec.name] is not spec:
        raise ValueError(f"a game named {spec.name!r} is registered already")
    if spec.name != spec.engine.NAME:
        raise ValueError(f"the engine of {spec.name!r} calls itself {spec.engine.NAME!r}")
    _SHELF[spec.name] = spec


def unregister(name: str) -> None:
    """Take a game off the shelf (a test's own game, after the test)."""
    _SHELF.pop(name, None)


def is_offered(name: object) -> bool:
    return isinstance(name, str) and name in _SHELF


def get_game(name: str) -> GameSpec:
    try:
        return _SHELF[name]
    except KeyError:
        raise LookupError(f"no game {name!r} on the shelf") from None


def get_engine(name: str) -> Engine:
    """The rules engine of the game ``name``: what most of the platform needs of a game."""
    return get_game(name).engine


def shelf() -> list[GameSpec]:
    """Every game on offer, in the order of ``PUERTO_GAMES`` (the first is the default)."""
    return list(_SHELF.values())


def by_slug(slug: str) -> GameSpec | None:
    return next((spec for spec in _SHELF.values() if spec.slug == slug), None)


def ladders() -> list[Ladder]:
    """Every rating ladder of the shelf, game by game."""
    return [ladder for spec in _SHELF.values() for ladder in spec.rating_ladders]


def get_ladder(key: str) -> Ladder | None:
    return next((ladder for ladder in ladders() if ladder.key == key), None)
