"""The new-game form, built from what the engine says about its player counts and options."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django import forms
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.clocks import MOVE_TIMES
from games.models import Game, Seat
from games.registry import get_game, is_offered, shelf
from games.transfer import MAX_IMPORT_BYTES

STANDARD = "standard"
"""The move time chosen unless the creator picks one: ``STANDARD_MOVE_TIME`` against people,
none against AI players only (an AI player never keeps anyone waiting)."""
STANDARD_MOVE_TIME = timedelta(days=3)
NO_LIMIT = "none"
PERSON = ""
"""A seat left for a person to join, as opposed to an AI level."""


MAX_NUMBER = 2**31 - 1
"""Past every version and id the site stores (and PostgreSQL's ``integer``)."""


def whole_number(value: str | None, error: str, required: bool = False) -> int | None:
    """``value`` read as a whole number from 0 to ``MAX_NUMBER`` by Django's own field, or
    None when absent or empty and not ``required``; ``ValueError(error)`` for anything else.
    (``"²".isdigit()`` is true but ``int("²")`` fails, and ``int`` refuses 5,000 digits.)"""
    field = forms.IntegerField(min_value=0, max_value=MAX_NUMBER, required=required)
    try:
        return field.clean(value)
    except forms.ValidationError:
        raise ValueError(error) from None


def chosen_game(data) -> str:
    """The game the lobby form is for (its ``game`` field or query parameter);
    ``ValueError`` for a game the site does not offer."""
    name = data.get("game") or shelf()[0].name
    if not is_offered(name):
        raise ValueError(_("There is no such game."))
    return name


def ai_levels(engine: str) -> list[tuple[str, str]]:
    """The AI levels the game has players for, as (level, label)."""
    known = get_game(engine).bots
    return [(level, label) for level, label in Seat.AI.choices if level in known]


AGAINST_AI = Seat.AI.MEDIUM
"""The level a game against the AI starts with: a fair opponent for one who knows the rules."""


class NewGameForm(forms.Form):
    num_players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    move_time = forms.ChoiceField(
        label=_("Move time"),
        choices=[
            (STANDARD, _("standard (3 days)")),
            (NO_LIMIT, _("no limit")),
        ]
        + [(str(int(t.total_seconds())), label) for t, label in MOVE_TIMES],
        required=False,
        initial=STANDARD,
        help_text=_(
            "How long each player has for a turn; a reminder comes at 80 %. The standard: 3 days,"
            " no limit when everyone else is an AI player."
        ),
    )
    on_timeout = forms.ChoiceField(
        label=_("When a player runs out of time"),
        choices=Game.OnTimeout.choices,
        required=False,
        initial=Game.OnTimeout.AI,
        help_text=_(
            "An AI player takes the seat over at once, or the others may vote to hand it to one."
            " A player whose seat an AI player took over may take it back; a seat voted to an AI"
            " player stays with it."
        ),
    )

    chat_public = forms.BooleanField(
        label=_("Spectators may read the chat"),
        required=False,
        initial=False,
        help_text=_("Only the players write in it."),
    )
    rated = forms.BooleanField(
        label=_("Rated game"),
        required=False,
        initial=False,
        help_text=_(
            "Counts for the players' ratings. Needs at least two persons, and nobody may take "
            "a move back."
        ),
    )
    spectators = forms.BooleanField(
        label=_("Anyone may watch"),
        required=False,
        initial=True,
        help_text=_(
            "Off: once the game has started, only its players see it, and it is not listed "
            "under the games to watch nor in the archive."
        ),
    )
    bots_allowed = forms.BooleanField(
        label=_("Bot accounts may join"),
        required=False,
        initial=False,
        help_text=_("Programs playing through the API, marked with a bot badge."),
    )

    def __init__(self, *args, engine: str, against_ai: bool = False, **kwargs) -> None:
        """``against_ai``: every further seat starts as an AI player of ``AGAINST_AI``, the
        front page's "play against the AI now"."""
        super().__init__(*args, **kwargs)
        self.engine = engine
        self.against_ai = against_ai
        spec = get_game(engine)
        self.games = [
            {
                "name": game.name,
                "title": game.title,
                "chosen": game.name == engine,
            }
            for game in shelf()
        ]
        self.rules_url = reverse("games:rules", args=[spec.slug])
        rules = spec.engine
        counts = spec.player_counts
        self.fields["num_players"].choices = [(n, str(n)) for n in counts]
        self.fields["num_players"].initial = 4 if 4 in counts else counts[0]
        # Seat 1 is the creator's; each further seat is a person who joins or an AI player.
        levels = [(PERSON, _("a person who joins")), *ai_levels(engine)]
        self.seat_names = []
        for number in range(2, max(counts) + 1):
            name = f"seat_{number}"
            self.fields[name] = forms.ChoiceField(
                label=format_lazy(_("Seat {number}"), number=number),
                choices=levels,
                required=False,
                initial=AGAINST_AI if against_ai else PERSON,
            )
            self.seat_names.append((number, name))
        self.option_names = []
        texts = spec.option_texts
        choice_names = spec.option_choice_names
        for option in rules.OPTIONS:
            name = f"option_{option['name']}"
            label, help_text = texts.get(option["name"], (option["label"], option["help"]))
            if "players" in option:
                only = ", ".join(str(n) for n in option["players"])
                help_text = format_lazy(
                    _("{help} (games of {players} players)"), help=help_text, players=only
                )
            if option["type"] == "bool":
                field = forms.BooleanField(
                    label=label,
                    required=False,
                    initial=option["default"],
                    help_text=help_text,
                )
            else:
                words = choice_names.get(option["name"], {})
                field = forms.TypedChoiceField(
                    label=label,
                    coerce=type(option["default"]),  # 122/126 chips, or an edition's name
                    required=False,
                    empty_value=option["default"],
                    initial=option["default"],
                    choices=[(c, words.get(c, str(c))) for c in option["choices"]],
                    help_text=help_text,
                )
            self.fields[name] = field
            self.option_names.append((name, option))

    def seats(self) -> list[dict[str, Any]]:
        """Each further seat with the player counts it is part of (``for_players``)."""
        counts = self.fields["num_players"].choices
        return [
            self._for_players(self[name], [n for n, _ in counts if n >= number])
            for number, name in self.seat_names
        ]

    def options(self) -> list[dict[str, Any]]:
        """Each option with the player counts it is for."""
        counts = [n for n, _ in self.fields["num_players"].choices]
        return [
            self._for_players(self[name], option.get("players", counts))
            for name, option in self.option_names
        ]

    def _for_players(self, field: forms.BoundField, counts) -> dict[str, Any]:
        """A field shown only for some player counts: hidden at first unless the number of
        players the form shows now is one of them (``static/js/lobby.js`` follows changes)."""
        return {
            "field": field,
            "players": " ".join(str(n) for n in counts),
            "hidden": self.players_shown() not in counts,
        }

    def players_shown(self) -> int:
        """The number of players the form shows: as posted, else the initial choice."""
        try:
            return int(self["num_players"].value())
        except (TypeError, ValueError):
            return self.fields["num_players"].initial

    def game_arguments(self) -> dict[str, Any]:
        """Seats beyond the chosen number of players are left out, as are the options of
        other player counts."""
        data = self.cleaned_data
        n = data["num_players"]
        options = {
            option["name"]: data[name]
            for name, option in self.option_names
            if n in option.get("players", (n,))
        }
        ai_levels = [data[name] for number, name in self.seat_names if number <= n and data[name]]
        chosen = data.get("move_time") or STANDARD
        if chosen == STANDARD:
            move_time = None if len(ai_levels) == n - 1 else STANDARD_MOVE_TIME
        else:
            move_time = None if chosen == NO_LIMIT else timedelta(seconds=int(chosen))
        return {
            "engine": self.engine,
            "num_players": n,
            "ai_levels": ai_levels,
            "options": options,
            "move_time": move_time,
            "on_timeout": data.get("on_timeout") or Game.OnTimeout.AI,
            "chat_public": data["chat_public"],
            "rated": data["rated"],
            "spectators": data["spectators"],
            "bots_allowed": data["bots_allowed"],
        }


class ImportGameForm(forms.Form):
    """A game file exported from puerto (``docs/export.md``), read as JSON here and replayed
    by ``transfer.import_game``."""

    file = forms.FileField(label=_("Game file (JSON)"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MB."), code="too_large")
        try:
            return json.loads(upload.read())
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError too
            raise forms.ValidationError(_("The file is not JSON.")) from None


def named_choices() -> list[tuple[Any, list[tuple[str, str]]]]:
    """Each game's named option choices (its editions), grouped under the game's name, as
    ``game:option:choice`` values: what the archive offers to search by."""
    groups = []
    for spec in shelf():
        words = spec.option_choice_names
        choices = [
            (f"{spec.name}:{option['name']}:{choice}", words[option["name"]][choice])
            for option in spec.engine.OPTIONS
            if option["name"] in words
            for choice in option["choices"]
        ]
        if choices:
            groups.append((spec.title, choices))
    return groups


class PageForm(forms.Form):
    """A list's page number (a GET parameter): absent, the first page; past the last, the
    last."""

    page = forms.IntegerField(
        label=_("Page"),
        required=False,
        min_value=1,
        max_value=MAX_NUMBER,
        help_text=_("From 1; past the last page, the last."),
    )


class ArchiveForm(PageForm):
    """The archive's search (a GET form): every field may be left empty."""

    RATED, CASUAL = "rated", "casual"

    player = forms.CharField(
        label=_("Player's name"),
        required=False,
        max_length=150,
        help_text=_("Part of a username or a display name."),
    )
    game = forms.ChoiceField(label=_("Game"), required=False)
    edition = forms.ChoiceField(label=_("Edition"), required=False)
    players = forms.TypedChoiceField(label=_("Number of players"), required=False, coerce=int)
    kind = forms.ChoiceField(
        label=_("Rated or casual"),
        required=False,
        choices=[("", _("both")), (RATED, _("rated only")), (CASUAL, _("casual only"))],
    )
    finished_from = forms.DateField(
        label=_("Finished from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    finished_to = forms.DateField(
        label=_("Finished until"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        games = shelf()
        self.fields["game"].choices = [("", _("any")), *((g.name, g.title) for g in games)]
        self.fields["edition"].choices = [("", _("any")), *named_choices()]
        counts = sorted({n for g in games for n in g.player_counts})
        self.fields["players"].choices = [("", _("any")), *((n, str(n)) for n in counts)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        edition, game = data.get("edition"), data.get("game")
        if edition and game and edition.split(":")[0] != game:
            self.add_error("edition", _("This edition is not one of the chosen game's."))
        start, end = data.get("finished_from"), data.get("finished_to")
        if start and end and start > end:
            self.add_error("finished_to", _("The end comes before the start."))
        return data

    def filter(self, games: models.QuerySet) -> models.QuerySet:
        """``games`` narrowed to what the valid form asks for."""
        data = self.cleaned_data
        if data["player"]:
            word = data["player"]
            named = Seat.objects.filter(game=models.OuterRef("pk")).filter(
                Q(user__username__icontains=word)
                | Q(user__display_name__icontains=word)
                | Q(imported_name__icontains=word)
            )
            games = games.filter(models.Exists(named))
        if data["game"]:
            games = games.filter(engine=data["game"])
        if data["edition"]:
            games = games.filter(_edition_filter(data["edition"]))
        if data["players"]:
            games = games.filter(num_players=data["players"])
        if data["kind"]:
            games = games.filter(rated=data["kind"] == self.RATED)
        if data["finished_from"]:
            games = games.filter(finished_at__date__gte=data["finished_from"])
        if data["finished_to"]:
            games = games.filter(finished_at__date__lte=data["finished_to"])
        return games


def _edition_filter(value: str) -> Q:
    """The games of one named choice (``game:option:choice``, a value of ``named_choices``):
    a game stored without the option has its default."""
    engine, name, choice = value.split(":", 2)
    option = next(o for o in get_game(engine).engine.OPTIONS if o["name"] == name)
    typed = next(c for c in option["choices"] if str(c) == choice)
    chosen = Q(**{f"options__{name}": typed})
    if typed == option["default"]:
        chosen |= ~Q(options__has_key=name)
    return Q(engine=engine) & chosen
