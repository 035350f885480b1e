"""The event streams' endpoints: ``GET /api/events/`` (the requester's) and
``GET /api/games/<id>/events/`` (a game's), as ``text/event-stream``.

The views check who asks and answer at once; the stream is the response's iterator. Under an
ASGI server (uvicorn, the ``events`` process in production) it is asynchronous: a stream that
waits holds no thread and no database connection, only a coroutine woken by ``events.bell``.
Under WSGI (the development server, the tests' live server) a stream holds its thread, looks
at the journal every ``EVENTS_POLL_SECONDS`` and ends after ``EVENTS_WSGI_SECONDS``; the
client connects again with ``Last-Event-ID``, as every Server-Sent Events client does.
"""

from __future__ import annotations

import functools
import threading
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings

from events import bell
from events.models import Event
from events.streams import Stream
from games.models import Game
from puerto import refusals
from puerto.metrics import OPEN_STREAMS

LOOK_SECONDS = 60
"""With the bell up, a waiting stream still looks at the journal this often."""
CHECKS_AT_ONCE = 8
_checking = threading.BoundedSemaphore(CHECKS_AT_ONCE)


def _refusal(status: int, message: str, **headers) -> JsonResponse:
    response = JsonResponse(refusals.body(status, message), status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _requester(request: HttpRequest):
    """The user the API's own authentication finds (a token, the session or Basic), or a
    refusal as the API answers it."""
    authenticators = [cls() for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES]
    try:
        return Request(request, authenticators=authenticators).user
    except exceptions.Throttled as error:
        return _refusal(429, str(error.detail), Retry_After=str(int(error.wait or 1)))
    except exceptions.APIException as error:
        return _refusal(
            401, str(error.detail), WWW_Authenticate=authenticators[0].authenticate_header(request)
        )


LAST_ID_DIGITS = 18
"""An event id's most digits: the journal's ids stay far below."""


def _last_id(request: HttpRequest) -> int | JsonResponse | None:
    """The id of the last event the client saw: the ``Last-Event-ID`` header (what a browser
    sends when it reconnects), else the query parameter; each one sent must be an id."""
    texts = [request.headers.get("Last-Event-ID"), *request.GET.getlist("last_event_id")]
    texts = [text for text in texts if text is not None]
    for text in texts:
        if not (text.isascii() and text.isdecimal()) or len(text) > LAST_ID_DIGITS:
            return _refusal(400, _("Last-Event-ID must be the id of an event this stream sent"))
    return int(texts[0]) if texts else None


def _taking_turns(view):
    """Under ASGI Django runs a request's sync code on a thread of the request's own, with a
    database connection of its own: streams opening all at once (every client connecting
    again after a restart) would each open one, past PostgreSQL's limit. Their checks take
    turns, ``CHECKS_AT_ONCE`` at a time, and close their connection when done."""

    @functools.wraps(view)
    def taking_turns(request: HttpRequest, *args, **kwargs):
        if not isinstance(request, ASGIRequest):
            return view(request, *args, **kwargs)
        with _checking:
            try:
                return view(request, *args, **kwargs)
            finally:
                connections.close_all()

    return taking_turns


def _read_only(view):
    """GET (and HEAD) only, any other method refused in the API's shape. A stream changes
    nothing, so it needs no CSRF check (which would refuse an unknown method first, as a page)."""

    @csrf_exempt
    @functools.wraps(view)
    def read_only(request: HttpRequest, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            return _refusal(405, _("a stream is read with GET"), Allow="GET, HEAD")
        return view(request, *args, **kwargs)

    return read_only


@_read_only
@_taking_turns
def user_events(request: HttpRequest):
    user = _requester(request)
    if isinstance(user, JsonResponse):
        return user
    if not user.is_authenticated:
        return _refusal(
            401,
            _("sign in, or send a token: Authorization: Bearer …"),
            WWW_Authenticate='Bearer realm="api"',
        )
    last_id = _last_id(request)
    if isinstance(last_id, JsonResponse):
        return last_id
    return _respond(request, Stream(user, last_id=last_id))


@_read_only
@_taking_turns
def game_events(request: HttpRequest, pk: int):
    user = _requester(request)
    if isinstance(user, JsonResponse):
        return user
    last_id = _last_id(request)
    if isinstance(last_id, JsonResponse):
        return last_id
    if not _visible(pk, user):
        return _refusal(404, _("no such game"))
    return _respond(request, Stream(user, game_id=pk, last_id=last_id))


def _visible(pk: int, user) -> bool:
    game = Game.objects.with_seats().filter(pk=pk).first()
    return game is not None and game.visible_to(user)


def _respond(request: HttpRequest, stream: Stream) -> StreamingHttpResponse:
    body = _served(stream) if isinstance(request, ASGIRequest) else _polled(stream)
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each event on at once
    return response


async def _served(stream: Stream):
    """Under ASGI: wait on the bell between looks at the journal. With the bell up a stream
    looks only when rung (and every ``LOOK_SECONDS`` in case a ring was lost); between looks
    it holds no database connection and only writes a comment now and then."""
    listener = bell.listener()
    ring = listener.subscribe(stream.key)
    OPEN_STREAMS.inc()
    try:
        yield await _pooled(stream.opening)
        silence, looked = Silence(), time.monotonic()
        while not stream.over:
            rung = await listener.wait(ring)
            text = ""
            if rung or not listener.connected or time.monotonic() - looked >= LOOK_SECONDS:
                text, looked = await _pooled(stream.fetch), time.monotonic()
            if chunk := silence.broken(text):
                yield chunk
    finally:
        OPEN_STREAMS.dec()
        listener.unsubscribe(stream.key, ring)


async def _pooled(function, *args):
    """``function`` on the shared pool of threads, whose few database connections serve every
    stream, rather than on the request's own thread (Django's default under ASGI), which would
    hold a connection for as long as its stream lasts."""
    return await sync_to_async(_fresh, thread_sensitive=False)(function, *args)


def _fresh(function, *args):
    close_old_connections()  # one that a pool thread kept may have broken or aged meanwhile
    return function(*args)


def _polled(stream: Stream):
    """Under WSGI: look at the journal every ``EVENTS_POLL_SECONDS``, for a while."""
    yield stream.opening()
    end = time.monotonic() + settings.EVENTS_WSGI_SECONDS
    silence = Silence()
    while not stream.over and time.monotonic() < end:
        time.sleep(settings.EVENTS_POLL_SECONDS)
        if chunk := silence.broken(stream.fetch()):
            yield chunk


class Silence:
    """A comment after ``EVENTS_KEEPALIVE_SECONDS`` without an event: proxies close a
    connection that stays silent, and writing it is how a server learns that the client
    left."""

    def __init__(self) -> None:
        self.since = time.monotonic()

    def broken(self, text: str) -> str:
        """``text``, a keepalive comment if it is time for one, or ''."""
        now = time.monotonic()
        if text or now - self.since >= settings.EVENTS_KEEPALIVE_SECONDS:
            self.since = now
            return text or ": keepalive\n\n"
        return ""


STREAM_DESCRIPTIONS = {
    "/api/events/": (
        "user_events",
        "The requester's event stream: turn, started, finished, cancelled, chat",
        [],
    ),
    "/api/games/{id}/events/": (
        "game_events",
        "A game's event stream: game (each change, as the reader may see it), chat",
        [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}],
    ),
}


LAST_ID = {"type": "integer", "minimum": 0, "maximum": 10**LAST_ID_DIGITS - 1}
SSE_EVENT = {
    "type": "object",
    "description": "One event of the stream (docs/api.md, Event streams).",
    "required": ["event", "data"],
    "properties": {
        "id": {"type": "string", "description": "Send it back as Last-Event-ID."},
        "event": {"type": "string", "enum": list(Event.Kind.values)},
        "data": {"type": "string", "description": "JSON: the game, or the chat message."},
        "retry": {"type": "integer"},
    },
}
"""What one Server-Sent Event of a stream holds, as the schema describes it."""


def add_streams_to_schema(result, generator, request, public):
    """drf-spectacular's postprocessing hook: the two streams are plain Django views, which it
    does not see; they answer ``text/event-stream`` (docs/api.md says what each event holds)."""
    refusal = {"$ref": "#/components/schemas/Error"}
    for path, (operation, summary, parameters) in STREAM_DESCRIPTIONS.items():
        result["paths"][path] = {
            "get": {
                "operationId": operation,
                "summary": summary,
                "tags": ["events"],
                "parameters": [
                    *parameters,
                    {"name": "Last-Event-ID", "in": "header", "schema": LAST_ID},
                    {"name": "last_event_id", "in": "query", "schema": LAST_ID},
                ],
                "responses": {
                    "200": {
                        "description": "Server-Sent Events: id, event (the kind), data (JSON)",
                        "content": {"text/event-stream": {"schema": SSE_EVENT}},
                    },
                    **{
                        status: {
                            "description": why,
                            "content": {"application/json": {"schema": refusal}},
                        }
                        for status, why in (
                            ("400", "Last-Event-ID is no id"),
                            ("401", "no or a wrong token"),
                            ("404", "no such game, or hidden from the reader"),
                        )
                    },
                },
            }
        }
    return result
