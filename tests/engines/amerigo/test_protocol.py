"""Amerigo is a registered engine offering the whole protocol the platform relies on."""

import pytest

from games.engines import amerigo as am
from games.engines import puerto_rico as pr
from games.engines.protocol import Engine
from games.registry import get_engine


def test_registered_with_the_whole_protocol():
    engine = get_engine("amerigo")
    assert engine is am
    missing = [name for name in Engine.__annotations__ if not hasattr(engine, name)]
    missing += [
        name for name in vars(Engine) if not name.startswith("_") and not hasattr(engine, name)
    ]
    assert not missing
    assert engine.NAME == "amerigo"


BAD_TEXT = [
    ({"type": "done", "note": "a\x00b"}, "nul-in-an-ignored-field"),
    ({"type": "done", "a\x00b": 1}, "nul-in-a-key"),
    ({"type": "take", "tile": "V1\x00"}, "nul-in-a-tile"),
    ({"type": "gold\x00"}, "nul-in-the-type"),
    ({"type": "\ud800"}, "surrogate-type"),
    ({"type": "build", "tile": "3I", "cells": [1, "\udfff"]}, "surrogate-in-a-list"),
    ({"type": "done", "deep": [{"x": ["\x00"]}]}, "nul-deep-inside"),
]


@pytest.mark.parametrize("action", [b[0] for b in BAD_TEXT], ids=[b[1] for b in BAD_TEXT])
def test_nul_characters_and_lone_surrogates_are_refused_as_in_puerto_rico(action):
    """Text no database column or UTF-8 answer can hold, anywhere in the action: refused by
    the action parser before any of it is echoed in a refusal, with Puerto Rico's code and
    words."""
    with pytest.raises(am.IllegalAction) as refused:
        am.action_from_json(action)
    assert (refused.value.code, refused.value.params) == ("bad_text", {})
    with pytest.raises(pr.IllegalAction) as theirs:
        pr.action_from_json(action)
    assert theirs.value.code == "bad_text" and str(refused.value) == str(theirs.value)


def test_other_text_in_an_ignored_field_is_left_alone():
    """Only what cannot be stored is refused: a tab or an emoji in a field the action does not
    have is dropped, as any ignored field is."""
    assert am.action_from_json({"type": "done", "note": "\t🚢"}) == {"type": "done"}
