"""The authentication backend: allauth's (itself Django's ``ModelBackend``, logging in by
username or email, the admin too), refusing suspended or banned users. One backend, so a wrong
password is hashed once, not once per backend.

``user_can_authenticate`` is the hook every way in asks: a password login (the form, the
admin, HTTP Basic on the API) and every request of a session (``get_user``), so a user
suspended while logged in is logged out with their next request."""

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.contrib.auth import get_user_model

from moderation.models import barred_standing


class AuthenticationBackend(AllauthBackend):
    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and barred_standing(user) is None

    def get_user(self, user_id):
        """The session's user with their standing, in the one query a request spends on it."""
        user = get_user_model()._default_manager.select_related("standing").filter(pk=user_id)
        user = user.first()
        return user if user is not None and self.user_can_authenticate(user) else None
