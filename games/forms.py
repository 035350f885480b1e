"""The new-game form, built from what the engine says about its player counts and options."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms

from games.clocks import MOVE_TIMES
from games.engines import get_engine
from games.models import Game, Seat


def _seconds_to_duration(value: str) -> timedelta:
    return timedelta(seconds=int(value))


class NewGameForm(forms.Form):
    num_players = forms.TypedChoiceField(label="Players", coerce=int)
    ai_seats = forms.TypedChoiceField(
        label="AI players",
        coerce=int,
        initial=0,
        help_text="Seats filled by AI players at once; the rest wait for people to join.",
    )
    ai_level = forms.ChoiceField(
        label="AI strength",
        choices=[(level, label) for level, label in Seat.AI.choices if level],
        initial=Seat.AI.MEDIUM,
        required=False,
    )
    move_time = forms.TypedChoiceField(
        label="Move time",
        choices=[("", "no limit")] + [(int(t.total_seconds()), label) for t, label in MOVE_TIMES],
        coerce=_seconds_to_duration,
        empty_value=None,
        required=False,
        initial=int(timedelta(days=3).total_seconds()),
        help_text="How long each player has for a turn; a reminder comes at 80 %.",
    )
    on_timeout = forms.ChoiceField(
        label="When a player runs out of time",
        choices=Game.OnTimeout.choices,
        required=False,
        initial=Game.OnTimeout.AI,
    )

    def __init__(self, *args, engine: str = "puerto_rico", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        rules = get_engine(engine)
        counts = rules.PLAYER_COUNTS
        self.fields["num_players"].choices = [(n, str(n)) for n in counts]
        self.fields["num_players"].initial = 4 if 4 in counts else counts[0]
        self.fields["ai_seats"].choices = [(n, str(n)) for n in range(max(counts))]
        self.option_names = []
        for option in rules.OPTIONS:
            name = f"option_{option['name']}"
            help_text = option["help"]
            if "players" in option:
                only = ", ".join(str(n) for n in option["players"])
                help_text += f" (games of {only} players)"
            if option["type"] == "bool":
                field = forms.BooleanField(
                    label=option["label"],
                    required=False,
                    initial=option["default"],
                    help_text=help_text,
                )
            else:
                field = forms.TypedChoiceField(
                    label=option["label"],
                    coerce=int,
                    required=False,
                    empty_value=option["default"],
                    initial=option["default"],
                    choices=[(c, str(c)) for c in option["choices"]],
                    help_text=help_text,
                )
            self.fields[name] = field
            self.option_names.append((name, option))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        n, ai = data.get("num_players"), data.get("ai_seats")
        if n is not None and ai is not None and ai >= n:
            self.add_error("ai_seats", "leave at least one seat for yourself")
        return data

    def game_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        n = data["num_players"]
        options = {
            option["name"]: data[name]
            for name, option in self.option_names
            if n in option.get("players", (n,))
        }
        return {
            "engine": self.engine,
            "num_players": n,
            "ai_seats": data["ai_seats"],
            "ai_level": data.get("ai_level") or Seat.AI.MEDIUM,
            "options": options,
            "move_time": data.get("move_time"),
            "on_timeout": data.get("on_timeout") or Game.OnTimeout.AI,
        }
