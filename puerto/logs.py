"""Log records that tie together: a request id on every record of one request (and on its
response, ``X-Request-ID``), the task id on every record of a Celery task.

The id is held in a context variable, set by ``RequestIdMiddleware`` when the request comes
in and cleared when its response is closed (``request_finished``): Django logs a 4xx or 5xx
after the middleware has returned, and a streamed body is written later still. Under ASGI
every request runs in a context of its own anyway. ``ContextFilter`` copies it onto each
record (attached to the handler in ``settings.LOGGING``, so records of every logger get it,
Django's and the libraries' too).
A proxy or client that sends a sane ``X-Request-ID`` keeps its id, so one id can be followed
from the proxy's log through ours; anything else is replaced, never echoed.

This module imports no models: ``LOGGING`` loads it before the apps are ready.
"""

import re
import uuid
from contextvars import ContextVar
from logging import Filter, LogRecord

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.core.signals import request_finished

REQUEST_ID_HEADER = "X-Request-ID"
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""An incoming id is kept only if it is this: nothing a log reader could be fooled by."""

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


def incoming_or_new(value: str | None) -> str:
    """The client's id when it is a sane token, else a new random one."""
    if value and SANE_REQUEST_ID.fullmatch(value):
        return value
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """Takes or makes the request's id, holds it while the request is answered and names it
    on the response. Sync and async alike: the event streams are answered under ASGI, where a
    sync-only middleware would cost each stream a thread."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def _begin(self, request):
        value = incoming_or_new(request.headers.get(REQUEST_ID_HEADER))
        request.request_id = value
        request_id.set(value)
        return value

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.__acall__(request)
        value = self._begin(request)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = value
        return response

    async def __acall__(self, request):
        value = self._begin(request)
        response = await self.get_response(request)
        response[REQUEST_ID_HEADER] = value
        return response


def _forget(**kwargs) -> None:
    """A thread's next log lines, outside any request, name none."""
    request_id.set(None)


request_finished.connect(_forget, dispatch_uid="puerto.logs.forget_request_id")


def _current_task():
    """The Celery task this process is running, if any (Celery's own record of it)."""
    from celery import current_task

    return current_task if current_task and current_task.request.id else None


class ContextFilter(Filter):
    """Puts ``request_id``, ``task_id`` and ``task_name`` on every record (None outside a
    request or a task), for the JSON formatter to write as fields."""

    def filter(self, record: LogRecord) -> bool:
        record.request_id = request_id.get()
        task = _current_task()
        record.task_id = task.request.id if task else None
        record.task_name = task.name if task else None
        return True
