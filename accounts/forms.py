"""The profile form, the account deletion form, and what sign-up adds to allauth's."""

import functools
import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import ApiToken, User

REGIONS = {
    "Africa": _("Africa"),
    "America": _("America"),
    "Antarctica": _("Antarctica"),
    "Arctic": _("Arctic"),
    "Asia": _("Asia"),
    "Atlantic": _("Atlantic"),
    "Australia": _("Australia"),
    "Europe": _("Europe"),
    "Indian": _("Indian Ocean"),
    "Pacific": _("Pacific"),
}
"""The regions of the zone names, in the order of the list; every other name is under "Other"."""


@functools.cache
def time_zone_choices() -> list:
    """UTC, then the zones by region (each named by its place), then the rest (old aliases)."""
    grouped: dict[str, list[tuple[str, str]]] = {region: [] for region in REGIONS}
    other = []
    for name in sorted(zoneinfo.available_timezones() - {"Factory", "localtime", "UTC"}):
        region, _slash, place = name.partition("/")
        if region in grouped and place:
            grouped[region].append((name, place.replace("_", " ").replace("/", " / ")))
        else:
            other.append((name, name.replace("_", " ")))
    return (
        [("UTC", "UTC")]
        + [(REGIONS[region], zones) for region, zones in grouped.items()]
        + [(_("Other"), other)]
    )


def valid_time_zone(name: str) -> bool:
    return name in zoneinfo.available_timezones()


class BrowserTimeZone(forms.Select):
    """The zone list; a few lines of script choose the browser's zone while the player's is
    still the default (UTC) and say so."""

    template_name = "accounts/widgets/time_zone.html"

    def __init__(self, attrs=None, choices=()) -> None:
        note = _("Your browser's time zone is selected: save to keep it.")
        super().__init__({"data-browser-zone-note": note, **(attrs or {})}, choices)


class BrowserTimeZoneHidden(forms.HiddenInput):
    """At sign-up: the browser's zone, filled in by the same script."""

    template_name = "accounts/widgets/time_zone_hidden.html"


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices,
        help_text=_("Times on the site are shown in it."),
        widget=BrowserTimeZone,
    )

    class Meta:
        model = User
        fields = User.PROFILE_FIELDS
        labels = {
            "display_name": _("Display name"),
            "language": _("Language"),
            "turn_email": _("Email me when it is my move"),
            "reminder_email": _("Reminders"),
            "game_over_email": _("Game over"),
            "turn_sound": _("Sound"),
            "turn_notification": _("Browser notification"),
            "games_public": _("Show my games to others"),
        }
        help_texts = {
            "games_public": _(
                "On your player page, anyone sees your finished and running games. Off: only "
                "you do; your ratings stay public."
            ),
            "display_name": _("The name other players see. Empty: your username."),
            "reminder_email": _("Remind me when most of my move time is used."),
            "game_over_email": _("Email me the result when a game of mine ends."),
            "turn_notification": _(
                "Show a browser notification when it becomes my move while the game's tab is"
                " in the background. Your browser asks for permission."
            ),
        }
        widgets = {"turn_email": forms.RadioSelect}

    def clean_display_name(self) -> str:
        return self.cleaned_data["display_name"].strip()


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user: User, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password


class ResendConfirmationForm(forms.Form):
    email = forms.EmailField(label=_("Your email address"))


class SignupForm(forms.Form):
    """What allauth's sign-up form leaves out: the time zone, the browser's (``UTC`` when the
    browser says none, or none we know)."""

    time_zone = forms.CharField(required=False, widget=BrowserTimeZoneHidden)

    def signup(self, request, user) -> None:
        zone = self.cleaned_data.get("time_zone", "")
        user.time_zone = zone if valid_time_zone(zone) else "UTC"
        user.save(update_fields=["time_zone"])


class ApiTokenForm(forms.Form):
    """A new personal API token: its name and what it may change."""

    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        help_text=_("What the token is for, say the name of your bot."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("It may also"),
        choices=ApiToken.Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Every token reads what your account may read."),
    )


class BecomeBotForm(forms.Form):
    """Turning the account into a bot account, which cannot be undone."""

    confirm = forms.BooleanField(
        label=_("I understand: a program will play this account, and it stays a bot account"),
    )
