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


REFUSALS = {
    "400": "The request cannot be read, or breaks a rule (code and params say which).",
    "401": "No credentials, or wrong ones (a token: ``Authorization: Bearer <token>``).",
    "403": "Not allowed: the token lacks the scope, or the account may not do this.",
    "404": "No such thing, or hidden from the requester.",
    "406": "An API version this server does not speak (``Accept: …; version=1``).",
    "429": "Too many requests, or too many failed logins: wait ``Retry-After`` seconds.",
}
"""The refusals any operation may answer, by status (``describe_refusals``)."""


def describe_refusals(result, generator, request, public):
    """drf-spectacular's postprocessing hook: every operation may be refused in the API's one
    shape (``puerto.refusals``), so each one lists the refusals its kind can meet: 401 where a
    requester must sign in, 404 where the path names something, 400 where there is input
    to read; 403, 406 and 429 everywhere. What a view declares itself wins."""
    refusal = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    for item in result["paths"].values():
        for method, operation in item.items():
            anonymous = {} in operation.get("security", [{}])
            reads_input = "requestBody" in operation or any(
                p["in"] == "query" for p in operation.get("parameters", [])
            )
            names_something = any(p["in"] == "path" for p in operation.get("parameters", []))
            statuses = {"403", "406", "429"}
            statuses |= {"400"} if reads_input or method in ("post", "put", "patch") else set()
            statuses |= {"404"} if names_something else set()
            statuses |= set() if anonymous else {"401"}
            responses = operation.setdefault("responses", {})
            for status in sorted(statuses - responses.keys()):
                responses[status] = {"description": REFUSALS[status], **refusal}
    return result


def query(request) -> dict[str, str]:
    """The request's query parameters, each sent once: which of two values would count is
    anybody's guess, so a repeated one is a 400 naming it."""
    repeated = [name for name, values in request.query_params.lists() if len(values) > 1]
    if repeated:
        said = gettext("send %(name)s once")
        raise exceptions.ValidationError({name: [said % {"name": name}] for name in repeated})
    return request.query_params.dict()
