"""REST framework's JSON renderer through orjson.

Every answer of the API is rendered here, and a game document is 3 to 10 kB: the standard
library's encoder took a few per cent of the server's time under load. The bytes are those
REST framework writes (compact, UTF-8, its own format of dates and times, ``\\u2028`` and
``\\u2029`` escaped); whatever orjson refuses (an integer beyond 64 bits) goes through REST
framework's own renderer. One difference stays: ``NaN``, which REST framework refuses, orjson
writes as ``null``; no answer holds one.
"""

from __future__ import annotations

import orjson
from rest_framework import negotiation, renderers

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        indent = self.get_indent(accepted_media_type, renderer_context or {})
        if data is None or indent is not None or self.ensure_ascii or not self.compact:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            rendered = orjson.dumps(data, default=self._default, option=_OPTIONS)
        except orjson.JSONEncodeError:  # e.g. an integer beyond 64 bits
            return super().render(data, accepted_media_type, renderer_context)
        return rendered.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")

    @property
    def _default(self):
        return self.encoder_class().default


class ContentNegotiation(negotiation.DefaultContentNegotiation):
    """With a single renderer (JSON, in production) there is nothing to choose: its answer
    is given without parsing the ``Accept`` header (about 2 % of the server's time under
    load). With more (the browsable API while ``DEBUG`` is on), REST framework chooses."""

    def select_renderer(self, request, renderers, format_suffix=None):
        if len(renderers) == 1:
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)
