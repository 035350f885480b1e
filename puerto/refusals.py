"""The one shape of every refusal the JSON API answers, whoever refuses:
``{"error": "the reason, in the reader's language", "code": "…", "params": {…}}``.

``code`` is stable and meant for programs; ``params`` holds what the reason names (a move the
rules refuse: the engine's code and params, ``docs/engine.md``). A refusal without a code of
its own has its status's.
"""

from __future__ import annotations

from typing import Any

CODES = {
    400: "invalid",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    429: "throttled",
}
"""The code of a refusal that names none, by its HTTP status."""


def body(status: int, message: str, code: str = "", params: dict | None = None, **extra: Any):
    """A refusal's JSON body; ``extra`` adds keys (the game as it now stands, a form's
    ``fields``)."""
    return {
        "error": message,
        "code": code or CODES.get(status, "refused"),
        "params": params or {},
        **extra,
    }
