"""The API's JSON renderer writes the bytes REST framework's own renderer writes, and with
it alone there is nothing to negotiate."""

import datetime
import uuid
from decimal import Decimal

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import NotAcceptable
from rest_framework.renderers import BrowsableAPIRenderer
from rest_framework.renderers import JSONRenderer as RestFrameworkRenderer

from puerto.renderers import ContentNegotiation, JSONRenderer

SAMPLES = {
    "a game document": {
        "id": 7,
        "status": "running",
        "version": 12,
        "seats": [{"position": 0, "name": "Anna Kühn", "ai": False}, {"name": "Bot", "ai": True}],
        "view": {"players": {0: {"goods": {"corn": 2}}, 1: {}}, "ships": [4, 5, 6]},
        "legal_actions": None,
    },
    "dates and times as REST framework writes them": {
        "with microseconds": datetime.datetime(
            2026, 11, 21, 20, 3, 23, 844777, tzinfo=datetime.UTC
        ),
        "whole seconds": datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC),
        "elsewhere": datetime.datetime(
            2026, 6, 1, 12, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=2))
        ),
        "naive": datetime.datetime(2026, 6, 1, 12, 0, 0, 5000),
        "day": datetime.date(2026, 11, 21),
        "time": datetime.time(7, 30, 0, 120000),
        "duration": datetime.timedelta(hours=36),
    },
    "other types": {
        "lazy text": gettext_lazy("no such game"),
        "decimal": Decimal("1.50"),
        "uuid": uuid.UUID(int=5),
        "tuple": (1, 2),
        "line separators": "a\u2028b\u2029c",
        "beyond 64 bits": 2**70,
    },
    "a list": [1, "x", None, True, 1.5],
}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_the_bytes_are_rest_frameworks(name):
    data = SAMPLES[name]
    assert JSONRenderer().render(data) == RestFrameworkRenderer().render(data)


def test_an_indented_answer_when_asked_for_is_rest_frameworks():
    data = SAMPLES["a game document"]
    rendered = JSONRenderer().render(data, "application/json; indent=2")
    assert rendered == RestFrameworkRenderer().render(data, "application/json; indent=2")
    assert b"\n  " in rendered


def test_what_cannot_be_written_is_refused_as_rest_framework_refuses_it():
    with pytest.raises(TypeError):
        JSONRenderer().render({"x": object()})
    with pytest.raises(TypeError):
        RestFrameworkRenderer().render({"x": object()})


def _request(accept: str):
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    return Request(APIRequestFactory().get("/api/games/", HTTP_ACCEPT=accept))


def test_with_json_alone_every_client_gets_json_whatever_it_accepts():
    renderer = JSONRenderer()
    chosen = ContentNegotiation().select_renderer(_request("text/html"), [renderer])
    assert chosen == (renderer, "application/json")


def test_with_the_browsable_api_the_accept_header_chooses():
    renderers = [JSONRenderer(), BrowsableAPIRenderer()]
    negotiation = ContentNegotiation()
    assert negotiation.select_renderer(_request("text/html"), renderers)[0] is renderers[1]
    assert negotiation.select_renderer(_request("application/json"), renderers)[0] is renderers[0]
    with pytest.raises(NotAcceptable):
        negotiation.select_renderer(_request("image/png"), renderers)
