"""The new-game form, built from what the engine says about its player counts and options."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django import forms
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


class NewGameForm(forms.Form):
    num_players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    move_time = forms.ChoiceField(
        label=_("Move time"),
        choices=[
            (STANDARD, _("3 days, or none against AI players only")),
            (NO_LIMIT, _("no limit")),
        ]
        + [(str(int(t.total_seconds())), label) for t, label in MOVE_TIMES],
        required=False,
        initial=STANDARD,
        help_text=_("How long each player has for a turn; a reminder comes at 80 %."),
    )
    on_timeout = forms.ChoiceField(
        label=_("When a player runs out of time"),
        choices=Game.OnTimeout.choices,
        required=False,
        initial=Game.OnTimeout.AI,
    )

    chat_public = forms.BooleanField(
        label=_("Spectators may read the chat"),
        required=False,
        initial=False,
        help_text=_("Only the players write in it."),
    )

    def __init__(self, *args, engine: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
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
                initial=PERSON,
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

    def seats(self) -> list[forms.BoundField]:
        return [self[name] for _, name in self.seat_names]

    def options(self) -> list[forms.BoundField]:
        return [self[name] for name, _ in self.option_names]

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
