"""JSON through orjson where every move passes: the API's answers and the game state read
from and written to the database.

orjson is several times faster than the standard library on documents of this size (a game
is 3 to 10 kB). Where they differ, the standard library's behaviour is kept: keys that are
not strings are written as strings, and what orjson refuses (integers beyond 64 bits) goes
through ``json``. One difference stays: orjson writes ``NaN`` and infinities as ``null``,
where ``json`` writes tokens that are not JSON (and PostgreSQL refuses); no game holds them.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any, default=None) -> bytes:
    try:
        return orjson.dumps(value, default=default, option=_OPTIONS)
    except orjson.JSONEncodeError:
        return json.dumps(value, default=default, ensure_ascii=False).encode()


def loads(data: str | bytes) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)
