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
