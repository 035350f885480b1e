"""The text an action may hold, for every engine: no NUL character and no lone surrogate,
which no database column or UTF-8 answer can store. Each engine's action parser refuses them
as ``bad_text``, with ``BAD_TEXT`` as its English."""

from __future__ import annotations

import re
from typing import Any

BAD_TEXT = "an action's text may not hold NUL characters or lone surrogates"

_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")
"""A NUL character or a surrogate: a str holds surrogates only alone (JSON's "\\ud800")."""


def holds_bad_text(data: Any) -> bool:
    """Whether a NUL character or a lone surrogate is anywhere in ``data``: in any string of
    it, keys and fields an action does not have included, so a parser can refuse it before
    any of it is echoed in a refusal. A loop, not recursion, so no nesting depth can overflow
    the stack."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str) and _NOT_TEXT.search(value):
            return True
    return False
