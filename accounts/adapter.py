"""How allauth treats puerto's accounts."""

from types import SimpleNamespace
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import lockout
from accounts.models import DELETED_USERNAME_PREFIX, User
from puerto.mail import message_id


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        """Names of deleted accounts (``deleted-<id>``) stay reserved for them."""
        if username.lower().startswith(DELETED_USERNAME_PREFIX):
            raise forms.ValidationError(_("This username is not available."))
        return super().clean_username(username, shallow=shallow)

    def save_user(self, request, user, form, commit=True):
        """A new player keeps the language the site spoke to them in while they signed up
        (their browser's, or the one they switched to); the profile changes it later."""
        if translation.get_language() in User.Language.values:
            user.language = translation.get_language()
        return super().save_user(request, user, form, commit=commit)

    def render_mail(self, template_prefix, email, context, headers=None):
        """allauth's mails greet from the site's name and address (``PUERTO_SITE_URL``), not
        from the host the request happened to reach (a proxy's, or ``127.0.0.1:8000``), with
        a Message-ID in the site's domain."""
        site = SimpleNamespace(name="puerto", domain=urlsplit(settings.PUERTO_SITE_URL).netloc)
        headers = {"Message-ID": message_id(), **(headers or {})}
        return super().render_mail(
            template_prefix, email, {**context, "current_site": site}, headers
        )

    def pre_authenticate(self, request, **credentials):
        """Failed password logins count in ``accounts.lockout``, shared with the API's HTTP
        Basic, instead of allauth's own counter: a locked account or address is refused before
        its password is hashed, with allauth's message."""
        if lockout.wait(request, _login(credentials)):
            raise self.validation_error("too_many_login_attempts")

    def authentication_failed(self, request, **credentials):
        lockout.failed(request, _login(credentials))


def _login(credentials: dict) -> str:
    """What the player typed to name their account (re-authentication passes both)."""
    return credentials.get("username") or credentials.get("email") or ""
