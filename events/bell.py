"""The bell a stream waits on: after a change commits, ``ring`` publishes the keys of the
streams it concerns on one Redis channel; each web process that serves streams over ASGI
keeps one subscriber (``Listener``) that wakes the streams waiting on those keys. Without
Redis (the embedded default) nothing rings and streams look at the journal every
``EVENTS_POLL_SECONDS``. A ring that is lost only delays: a stream looks at the journal at
least every ``EVENTS_KEEPALIVE_SECONDS`` anyway."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from collections import defaultdict

import redis
import redis.asyncio
from django.conf import settings

log = logging.getLogger(__name__)

CHANNEL = "puerto:events"


def key(user_id: int | None, game_id: int) -> str:
    """The key of a user's stream, or of a game's stream for ``user_id`` None."""
    return f"user:{user_id}" if user_id else f"game:{game_id}"


_client: redis.Redis | None = None


def ring(keys: list[str]) -> None:
    """Wake the streams of ``keys``; a Redis that is down is logged, never the change's
    failure (the streams find the events at their next look)."""
    global _client
    if not settings.REDIS_URL or not keys:
        return
    if _client is None:
        _client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
    try:
        _client.publish(CHANNEL, json.dumps(keys))
    except redis.RedisError as error:
        log.warning("events.ring_failed", extra={"error": str(error)})


class Listener:
    """One subscription to the bell per event loop, shared by every stream the loop serves:
    an idle stream costs a waiting coroutine, not a connection."""

    def __init__(self) -> None:
        self.waiting: dict[str, set[asyncio.Event]] = defaultdict(set)
        self.connected = False
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        if self.task is None and settings.REDIS_URL:
            self.task = asyncio.get_running_loop().create_task(self.listen())

    async def listen(self) -> None:
        """Subscribe, wake the streams of each ring, and subscribe again after a failure."""
        while True:
            client = redis.asyncio.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    self.connected = True
                    async for message in pubsub.listen():
                        if message["type"] == "message":
                            self.wake(json.loads(message["data"]))
            except (redis.RedisError, OSError) as error:
                log.warning("events.listen_failed", extra={"error": str(error)})
            finally:
                self.connected = False
                await client.aclose()
            self.wake_all()  # they look at the journal themselves while the bell is down
            await asyncio.sleep(settings.EVENTS_POLL_SECONDS)

    def wake(self, keys: list[str]) -> None:
        for name in keys:
            for event in self.waiting.get(name, ()):
                event.set()

    def wake_all(self) -> None:
        self.wake(list(self.waiting))

    def subscribe(self, name: str) -> asyncio.Event:
        """A stream's bell: set when ``name`` rings, from now until ``unsubscribe``."""
        self.start()
        event = asyncio.Event()
        self.waiting[name].add(event)
        return event

    def unsubscribe(self, name: str, event: asyncio.Event) -> None:
        self.waiting[name].discard(event)
        if not self.waiting[name]:
            del self.waiting[name]

    async def wait(self, event: asyncio.Event) -> bool:
        """Whether the bell rang (a ring that came while the stream was busy counts), or
        False when the stream's next keepalive or look at the journal is due."""
        timeout = (
            settings.EVENTS_KEEPALIVE_SECONDS if self.connected else settings.EVENTS_POLL_SECONDS
        )
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
        rung = event.is_set()
        event.clear()
        return rung


_listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Listener] = (
    weakref.WeakKeyDictionary()
)


def listener() -> Listener:
    """The running event loop's listener."""
    loop = asyncio.get_running_loop()
    if loop not in _listeners:
        _listeners[loop] = Listener()
    return _listeners[loop]
