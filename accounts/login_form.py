"""allauth's login form, saying why a suspended or banned user is refused. (Its own module:
``accounts.forms`` is imported by allauth's forms, for sign-up, so it cannot import them.)"""

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.utils import formats, timezone
from django.utils.translation import gettext

from moderation.models import barred_standing


class LoginForm(AllauthLoginForm):
    def clean(self):
        """The backends refuse a barred user, but with the right password allauth still
        finds them (to show an inactive account its page): only then are they told why, so
        nobody learns another person's standing without their password."""
        cleaned_data = super().clean()
        standing = barred_standing(getattr(self, "user", None))
        if standing is None:
            return cleaned_data
        if standing.banned:
            message = gettext("Your account is banned. The reason: %(reason)s")
        else:
            message = gettext("Your account is suspended until %(until)s. The reason: %(reason)s")
        until = standing.suspended_until and timezone.localtime(standing.suspended_until)
        raise forms.ValidationError(
            message,
            params={
                "reason": standing.reason,
                "until": until and formats.date_format(until, "DATETIME_FORMAT"),
            },
        )
