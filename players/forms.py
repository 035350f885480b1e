"""The leaderboard's query parameters, read by a Django form: a bad one is a 400 that says
what is wrong, in the page and in the API alike."""

from django import forms
from django.utils.translation import gettext_lazy as _

ACTIVE_CHOICES = [
    ("30", _("the last 30 days")),
    ("90", _("the last 90 days")),
    ("365", _("the last year")),
    ("all", _("any time")),
]
DEFAULT_ACTIVE = "90"
LAST_PAGE = 100_000
"""Far past any real leaderboard, and small enough for any database's OFFSET."""


class LeaderboardForm(forms.Form):
    """``active``: only players with a rated game in the last N days (or ``all``);
    ``page``: the page of the list, from 1. Both may be left out."""

    active = forms.ChoiceField(
        label=_("Active in"),
        choices=ACTIVE_CHOICES,
        required=False,
        error_messages={"invalid_choice": _("'active' must be 30, 90, 365 or all.")},
    )
    page = forms.IntegerField(
        min_value=1,
        max_value=LAST_PAGE,
        required=False,
        error_messages={
            "invalid": _("'page' must be a page number: 1, 2, 3, …"),
            "min_value": _("'page' must be a page number: 1, 2, 3, …"),
            "max_value": _("'page' must be a page number: 1, 2, 3, …"),
        },
    )

    def clean_active(self) -> str:
        return self.cleaned_data["active"] or DEFAULT_ACTIVE

    def clean_page(self) -> int:
        return self.cleaned_data["page"] or 1

    def first_error(self) -> str:
        """The reason to give a reader who sent bad parameters."""
        return next(str(e) for errors in self.errors.values() for e in errors)
