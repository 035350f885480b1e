"""The Redis cache with one client, holding one connection, per process and server.

Django's Redis backend builds a new ``redis.Redis`` for every cache call, and each one sets up
its table of response callbacks (about 0.3 ms here); a signed-in request makes two calls (the
session and the user). Each call also took a connection from the pool and gave it back,
with a check of the socket, about a quarter of a call's time. Here each process keeps one
client per server, bound to a single connection, which a lock guards should threads share
it; a process made by ``fork`` makes its own, so no two processes share a socket.
"""

import os

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[tuple[int, int], object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get((os.getpid(), index))
        if client is None:
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(
                    self._servers[index], **self._pool_options
                )
            client = self._client(connection_pool=self._pools[index], single_connection_client=True)
            self._clients[(os.getpid(), index)] = client
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
