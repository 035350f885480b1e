"""REST framework glue for the JSON API: JSON too deeply nested is a 400 like any other parse
error, and every refusal has one shape, ``{"error": "…"}``, whoever raises it."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework import exceptions, parsers
from rest_framework.views import exception_handler as rest_exception_handler


class JSONParser(parsers.JSONParser):
    """REST framework's parser, which lets Python's ``RecursionError`` through: that is a 500
    wherever the body is first read, which for a session is the CSRF check, before any view."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(gettext("the JSON is nested too deeply")) from None


def exception_handler(error, context):
    """REST framework's answer (status and headers such as ``Retry-After``) with its
    ``{"detail": …}`` renamed, so a client reads one key for every refusal."""
    response = rest_exception_handler(error, context)
    if response is not None and isinstance(error, exceptions.APIException):
        detail = error.detail
        if isinstance(detail, (list, dict)):  # a serializer's field errors
            response.data = {"error": gettext("the request is not valid"), "fields": detail}
        else:
            response.data = {"error": str(detail)}
    return response
