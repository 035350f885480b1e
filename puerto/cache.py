"""The Redis cache with one client per connection pool.

Django's Redis backend builds a new ``redis.Redis`` for every cache call, and each one sets up
its table of response callbacks (about 0.3 ms here); a signed-in request makes two calls (the
session and the user). A client is safe to share between threads: each command takes a
connection from the pool, and the pool starts afresh in a forked process.
"""

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(write)
            client = self._clients[index] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
