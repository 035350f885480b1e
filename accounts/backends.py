"""The authentication backends: Django's and allauth's, refusing suspended or banned users.

``user_can_authenticate`` is the hook every way in asks: a password login (the form, the
admin, HTTP Basic on the API) and every request of a session (``get_user``), so a user
suspended while logged in is logged out with their next request."""

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend

from moderation.models import barred_standing


class RefuseBarred:
    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and barred_standing(user) is None

    def get_user(self, user_id):
        """The session's user with their standing, in the one query a request spends on it."""
        user = get_user_model()._default_manager.select_related("standing").filter(pk=user_id)
        user = user.first()
        return user if user is not None and self.user_can_authenticate(user) else None


class ModelBackend(RefuseBarred, DjangoModelBackend):
    pass


class AuthenticationBackend(RefuseBarred, AllauthBackend):
    pass
