"""REST framework glue for the JSON API: JSON too deeply nested is a 400 like any other parse
error, and every refusal has one shape (``puerto.refusals``), whoever raises it."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework import exceptions, parsers
from rest_framework.views import exception_handler as rest_exception_handler

from puerto import refusals


class JSONParser(parsers.JSONParser):
    """REST framework's parser, which lets Python's ``RecursionError`` through: that is a 500
    wherever the body is first read, which for a session is the CSRF check, before any view."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(gettext("the JSON is nested too deeply")) from None


def exception_handler(error, context):
    """REST framework's answer (status and headers such as ``Retry-After``) in the API's one
    shape (``puerto.refusals``), REST framework's own code kept (``permission_denied``,
    ``throttled``, ``parse_error``…), so a client reads the same keys for every refusal."""
    response = rest_exception_handler(error, context)
    if response is not None and isinstance(error, exceptions.APIException):
        detail, status = error.detail, response.status_code
        if isinstance(detail, (list, dict)):  # a serializer's field errors
            message = gettext("the request is not valid")
            response.data = refusals.body(status, message, "invalid", fields=detail)
        else:
            response.data = refusals.body(status, str(detail), str(detail.code or ""))
    return response
