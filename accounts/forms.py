"""The profile form and the account deletion form."""

import functools
import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@functools.cache
def time_zone_choices() -> list[tuple[str, str]]:
    names = sorted(
        name for name in zoneinfo.available_timezones() if name not in {"Factory", "localtime"}
    )
    return [(name, name.replace("_", " ")) for name in names]


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=time_zone_choices,
        help_text=_("Times on the site are shown in it."),
    )

    class Meta:
        model = User
        fields = [
            "display_name",
            "time_zone",
            "language",
            "turn_email",
            "reminder_email",
            "game_over_email",
        ]
        labels = {
            "display_name": _("Display name"),
            "language": _("Language"),
            "turn_email": _("Email me when it is my move"),
            "reminder_email": _("Reminders"),
            "game_over_email": _("Game over"),
        }
        help_texts = {
            "display_name": _("The name other players see. Empty: your username."),
            "reminder_email": _("Remind me when most of my move time is used."),
            "game_over_email": _("Email me the result when a game of mine ends."),
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
