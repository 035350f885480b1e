"""How allauth treats puerto's accounts."""

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import DELETED_USERNAME_PREFIX


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        """Names of deleted accounts (``deleted-<id>``) stay reserved for them."""
        if username.lower().startswith(DELETED_USERNAME_PREFIX):
            raise forms.ValidationError(_("This username is not available."))
        return super().clean_username(username, shallow=shallow)
