"""How allauth treats puerto's accounts."""

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.models import DELETED_USERNAME_PREFIX, User


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
