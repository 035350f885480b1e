"""Authentication backends that serve the signed-in user from the shared cache.

Every signed-in request looks its user up by the id in the session; with
``PUERTO_CACHE_USERS`` (on when Redis is the cache) that look-up is a cache read instead of a
query. Any save or deletion of a user drops their entry, at once and again after the
transaction commits, so no request keeps an old row for long; entries also expire.
"""

from contextvars import ContextVar

from allauth.account import auth_backends as allauth_backends
from django.conf import settings
from django.contrib.auth import backends as django_backends
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

USER_CACHE_SECONDS = 300

prefetched_user: ContextVar[tuple[str, object] | None] = ContextVar("prefetched_user", default=None)
"""(user id, their cached row or None) read together with the session (``accounts.sessions``)
for the look-up that follows."""


def user_cache_key(user_id) -> str:
    return f"puerto:user:{user_id}"


class CachedUserMixin:
    def get_user(self, user_id):
        if not settings.PUERTO_CACHE_USERS:
            return super().get_user(user_id)
        prefetched = prefetched_user.get()
        prefetched_user.set(None)
        if prefetched is not None and prefetched[0] == str(user_id):
            user = prefetched[1]  # read with the session (accounts.sessions)
        else:
            user = cache.get(user_cache_key(user_id))
        if user is None:
            user = super().get_user(user_id)  # None for unknown or inactive users
            if user is not None:
                cache.set(user_cache_key(user_id), user, USER_CACHE_SECONDS)
        return user


class ModelBackend(CachedUserMixin, django_backends.ModelBackend):
    """Django's username and password log-in (the admin's)."""


class AuthenticationBackend(CachedUserMixin, allauth_backends.AuthenticationBackend):
    """allauth's log-in by username or email."""


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.forget_user")
@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.forget_deleted")
def forget_cached_user(sender, instance, **kwargs) -> None:
    """After commit too: a request between the save and the commit may have cached the old
    row again."""
    key = user_cache_key(instance.pk)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
