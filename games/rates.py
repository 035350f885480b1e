"""Per-user rate limits: at most so many of one thing in each fixed window of time (the chat's
messages a minute, the imports an hour), counted in the default cache (Redis) like the login
lockout, so every web process shares the counts."""

from __future__ import annotations

import math
import time

from django.core.cache import cache

from games.services import GameError


class TooFast(GameError):
    """Over a rate limit; ``retry_after``: the seconds until the window ends (``Retry-After``)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, "throttled")
        self.retry_after = retry_after


def count(name: str, user, limit: int, seconds: int) -> int:
    """Count one more ``name`` for ``user`` in the current window of ``seconds``: 0 while the
    count is within ``limit``, else the seconds until the next window (then it counts anew)."""
    now = time.time()
    window = int(now // seconds)
    key = f"rate:{name}:{user.pk}:{window}"
    cache.add(key, 0, seconds)
    if cache.incr(key) <= limit:
        return 0
    return math.ceil((window + 1) * seconds - now)
