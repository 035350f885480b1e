"""People who play on puerto."""

from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """Our own user model from the first migration, so profile fields can be added later
    without the painful switch away from ``auth.User``."""
