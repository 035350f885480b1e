"""Reading a posted board form: the parts every game's ``action_from_post`` shares."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

MAX_FIELDS = 64
"""No board form has more fields than this."""
MAX_ACTION_CHARS = 500
"""Far above the longest real action JSON of any game."""


def one(data, key: str) -> str | None:
    """The single value of ``key`` (None when absent); sent twice is an error."""
    values = data.getlist(key) if hasattr(data, "getlist") else [data[key]] if key in data else []
    if len(values) > 1:
        raise ValueError(_("the field '%(field)s' was sent more than once") % {"field": key})
    return values[0] if values else None


def every(data, key: str) -> list[str]:
    """All values of ``key``: the ticked checkboxes that share a name."""
    if hasattr(data, "getlist"):
        return data.getlist(key)
    value = data.get(key)
    return [] if value is None else value if isinstance(value, list) else [value]


def check_size(data) -> None:
    if len(data) > MAX_FIELDS:
        raise ValueError(_("too many form fields"))


def action_json(data) -> Any:
    """The parsed JSON of the form's ``action`` field, unchecked against any rules."""
    raw = one(data, "action")
    if not raw:
        raise ValueError(_("no action was chosen"))
    if len(raw) > MAX_ACTION_CHARS:
        raise ValueError(_("the action is too long"))
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(_("the action is not valid JSON")) from error
