from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    """Django's user admin with the profile a player sets on the site."""

    fieldsets = (
        *DjangoUserAdmin.fieldsets,
        (
            _("Profile"),
            {"fields": User.PROFILE_FIELDS},
        ),
    )
