"""The Redis cache keeps one client per connection pool, and its values are in Redis."""

import os

import pytest
import redis

from puerto.cache import RedisCache


@pytest.mark.redis
def test_every_cache_call_uses_the_same_client_and_reaches_redis():
    url = os.environ["REDIS_URL"]
    cache = RedisCache(url, {"KEY_PREFIX": "puerto-test-cache"})
    cache.set("board", {"version": 7}, 30)
    client = cache._cache.get_client("board")
    assert cache._cache.get_client("other", write=True) is client  # one server, one pool
    assert cache.get("board") == {"version": 7}
    assert redis.Redis.from_url(url).exists(cache.make_key("board")) == 1
    cache.delete("board")
    assert cache.get("board") is None


@pytest.mark.redis
def test_the_calls_of_a_process_share_one_connection():
    cache = RedisCache(os.environ["REDIS_URL"], {"KEY_PREFIX": "puerto-test-cache"})
    for n in range(20):
        cache.set(f"k{n}", n, 30)
        assert cache.get(f"k{n}") == n
    client = cache._cache.get_client()
    assert client.connection is not None
    assert len(client.connection_pool._available_connections) == 0
    assert len(client.connection_pool._in_use_connections) == 1


@pytest.mark.redis
def test_a_forked_process_talks_to_redis_on_its_own_connection():
    cache = RedisCache(os.environ["REDIS_URL"], {"KEY_PREFIX": "puerto-test-cache"})
    cache.set("parent", 1, 30)
    parent_socket = cache._cache.get_client().connection._sock
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its own client and socket, and the values are there
        try:
            client = cache._cache.get_client()
            ok = client.connection._sock is not parent_socket and cache.get("parent") == 1
            cache.set("child", 2, 30)
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1"
    assert cache.get("child") == 2 and cache.get("parent") == 1
