"""The default cache: Redis, and while Redis is unreachable a per-process memory cache.

Django's ``RedisCache`` raises on a connection error, and the only user of the cache, allauth's
rate limits, takes its lock with ``cache.add``: a cache that answers a miss with a falsy ``add``
(django-redis's ``IGNORE_EXCEPTIONS`` returns None) would make every login wait for the lock
and then refuse it as throttled. So this backend does not swallow errors: it hands the call to
a ``LocMemCache`` with the same options. Misses for what Redis held, and rate limits still
counted, per process, as without ``REDIS_URL``. After a failure it leaves Redis alone for
``RETRY_AFTER`` seconds, so a Redis that does not answer costs a request one timeout at most.
Only the stock backends' public methods are used.

What is written during an outage stays in the process; what was deleted then may come back
from Redis afterwards. Rate limits are the cache's only content, and for them that is harmless.
"""

import logging
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis import RedisError

log = logging.getLogger(__name__)

RETRY_AFTER = 5.0
"""Seconds after a Redis error during which calls go straight to the memory cache."""


class RedisOrMemoryCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.fallback = LocMemCache(f"redis-fallback:{server}", params)
        self.down_until = 0.0

    def through(self, operation: str, *args: Any, **kwargs: Any) -> Any:
        """``operation`` on Redis; on the memory cache while Redis is (or just was) down."""
        if time.monotonic() >= self.down_until:
            try:
                return getattr(super(), operation)(*args, **kwargs)
            except RedisError as error:
                self.down_until = time.monotonic() + RETRY_AFTER
                fields = {
                    "event": "cache_unavailable",
                    "operation": operation,
                    "error": repr(error),
                }
                log.warning(
                    "cache_unavailable operation=%(operation)s error=%(error)s",
                    fields,
                    extra=fields,
                )
        return getattr(self.fallback, operation)(*args, **kwargs)

    def add(self, *args: Any, **kwargs: Any) -> bool:
        return self.through("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self.through("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> None:
        return self.through("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> bool:
        return self.through("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> bool:
        return self.through("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return self.through("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> bool:
        return self.through("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> int:
        return self.through("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> list[str]:
        return self.through("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> None:
        return self.through("delete_many", *args, **kwargs)

    def clear(self) -> None:
        self.fallback.clear()
        return self.through("clear")
