"""Personal API tokens: made, found and revoked here; the API reads them through
``accounts.authentication.TokenAuthentication``.

A token carries 32 random bytes, so one SHA-256 keeps it safe at rest: a slow password hash
(Argon2, about half a second here) guards guessable secrets, and would cost every API request.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.utils import timezone

from accounts.models import ApiToken, User

PREFIX = "puerto_"
MAX_TOKENS = 20
"""Tokens one account may hold at once."""
TOUCH_EVERY = timedelta(minutes=1)
"""``last_used_at`` is written at most this often: not one write per request."""


class TokenError(ValueError):
    """Why a token cannot be made, in the reader's words."""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create(user: User, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token of ``user`` and its text, which is shown this once and never stored."""
    from django.utils.translation import gettext

    if user.api_tokens.count() >= MAX_TOKENS:
        raise TokenError(
            gettext("you have %(count)s tokens already: revoke one first") % {"count": MAX_TOKENS}
        )
    prefix = secrets.token_hex(6)
    text = f"{PREFIX}{prefix}_{secrets.token_urlsafe(32)}"
    token = ApiToken.objects.create(
        user=user, name=name, prefix=prefix, digest=digest(text), scopes=sorted(set(scopes))
    )
    return token, text


def prefix_of(text: str) -> str | None:
    """The prefix a token's text names, or None for text that is no token of ours."""
    if not text.startswith(PREFIX):
        return None
    prefix, _, secret = text[len(PREFIX) :].partition("_")
    return prefix if prefix and secret else None


def find(text: str) -> ApiToken | None:
    """The live token ``text`` is (the digest compared in constant time), else None; its use
    is noted."""
    prefix = prefix_of(text)
    token = (
        ApiToken.objects.select_related("user").filter(prefix=prefix).first() if prefix else None
    )
    if token is None or not hmac.compare_digest(token.digest, digest(text)):
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
