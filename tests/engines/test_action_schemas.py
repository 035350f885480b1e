"""Each engine's ``ACTION_SCHEMA`` describes every action it offers and reads.

Random seeded games of every edition and player count: the JSON of every legal action (of the
mayor's placements, a sample) validates against the schema. Actions the rules do not know fail
it, and the engine refuses them too; what the schema accepts, the engine reads. Every action
type the engine's parser dispatches on has its member, so a new action cannot be left out.
"""

from __future__ import annotations

import ast
import inspect
import json
import random
from collections import Counter
from typing import Any, get_args

import pytest
from jsonschema import Draft202012Validator

from games.engines import amerigo as am
from games.engines import puerto_rico as pr
from games.engines.amerigo import actions as am_actions
from games.engines.puerto_rico import actions as pr_actions
from games.engines.puerto_rico.mayor import Arrangements
from games.engines.puerto_rico.options import EDITIONS
from games.registry import get_engine

from .test_properties import crowd

OPENAPI_KEYWORDS = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "const",
    "items",
    "minimum",
    "maximum",
    "oneOf",
    "description",
}
"""The keywords both JSON Schema 2020-12 and OpenAPI 3.0/3.1 read alike."""
MAYOR_SAMPLE = 25
"""Placements checked per mayor decision, besides its first and last."""
MAX_DECISIONS = 3000


def validator(engine) -> Draft202012Validator:
    Draft202012Validator.check_schema(engine.ACTION_SCHEMA)
    return Draft202012Validator(engine.ACTION_SCHEMA)


def keywords(schema: Any) -> set[str]:
    """Every keyword used anywhere in ``schema`` (the names under ``properties`` are not)."""
    if isinstance(schema, list):
        return set().union(*map(keywords, schema))
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for key, value in schema.items():
        if key == "properties":
            found |= set().union(*map(keywords, value.values()))
        elif key in ("items", "oneOf", "additionalProperties"):
            found |= keywords(value)
    return found


def member_types(engine) -> list[str]:
    return [m["properties"]["type"]["enum"][0] for m in engine.ACTION_SCHEMA["oneOf"]]


class Checker:
    """Validates action JSON once per distinct form, counting what it saw."""

    def __init__(self, engine) -> None:
        self.validator = validator(engine)
        self.seen: set[str] = set()
        self.actions = 0
        self.types: Counter[str] = Counter()
        self.fields: dict[str, set[str]] = {}

    def assert_all_seen(self, engine) -> None:
        """Every member, and each of its fields, came up in some legal action: each part of
        the schema was checked against play."""
        assert set(self.types) == set(member_types(engine)), self.types
        for member in engine.ACTION_SCHEMA["oneOf"]:
            kind = member["properties"]["type"]["enum"][0]
            assert set(member["properties"]) <= self.fields[kind], kind

    def check(self, data: dict[str, Any]) -> None:
        self.actions += 1
        key = json.dumps(data, sort_keys=True)
        if key in self.seen:
            return
        self.seen.add(key)
        self.types[data["type"]] += 1
        self.fields.setdefault(data["type"], set()).update(data)
        errors = list(self.validator.iter_errors(data))
        assert not errors, f"{key}: {[e.message for e in errors]}"


# Puerto Rico -------------------------------------------------------------------------------


def pr_games(checker: Checker, configs: list[tuple[int, str, int, bool]]) -> int:
    """Play each ``(players, edition, seed, crowded)`` game, checking every legal action.
    ``crowded`` deals out the box once the first role is due and picks a kind of action
    first, so that the rarer buildings' actions come up; returns the number of decisions."""
    decisions = 0
    for n, edition, seed, crowded in configs:
        rng = random.Random(seed)
        state = pr.new_game(n, seed, {"edition": edition})
        to_crowd = crowded
        for _ in range(MAX_DECISIONS):
            if pr.is_over(state):
                break
            if to_crowd and state.phase == "role":
                crowd(state, rng)
                to_crowd = False
            legal = pr.legal_actions(state)
            if isinstance(legal, Arrangements):
                picks = {0, len(legal) - 1}
                picks |= {rng.randrange(len(legal)) for _ in range(MAYOR_SAMPLE)}
                for i in picks:
                    checker.check(pr.action_to_json(legal[i]))
                action = legal[rng.randrange(len(legal))]
            else:
                for action in legal:
                    checker.check(pr.action_to_json(action))
                if crowded:
                    kinds: dict[str, list] = {}
                    for action in legal:
                        kinds.setdefault(action.type, []).append(action)
                    legal = list(kinds.values())[rng.randrange(len(kinds))]
                action = legal[rng.randrange(len(legal))]
            pr.apply(state, action, inplace=True)
            decisions += 1
        else:
            raise AssertionError(f"game {n, edition, seed} did not end")
    return decisions


PR_GAMES = [
    (n, edition, seed, crowded)
    for edition in EDITIONS
    for n in pr.PLAYER_COUNTS
    for seed, crowded in ((n, False), (n + 10, True), (n + 20, True))
]
"""Every edition and player count: an ordinary game and two crowded ones."""


def test_every_legal_puerto_rico_action_validates():
    checker = Checker(pr)
    decisions = pr_games(checker, PR_GAMES)
    assert decisions > 5_000
    checker.assert_all_seen(pr)


def pr_dispatch() -> set[str]:
    """The action types ``action_from_json`` tells apart, read from its code."""
    tree = ast.parse(inspect.getsource(pr_actions.action_from_json))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and getattr(node.left, "id", None) == "t":
            for right in node.comparators:
                names |= {c.value for c in ast.walk(right) if isinstance(c, ast.Constant)}
    return names


def test_every_action_the_engines_read_has_a_member():
    assert pr_dispatch() == {cls.type for cls in get_args(pr_actions.Action)}
    assert len(pr_dispatch()) == 18
    assert sorted(member_types(pr)) == sorted(pr_dispatch())
    assert sorted(member_types(am)) == sorted(am_actions.FIELDS)


@pytest.mark.parametrize("engine", [pr, am], ids=["puerto_rico", "amerigo"])
def test_the_schema_is_plain_openapi_data_on_the_registered_engine(engine):
    assert get_engine(engine.NAME).ACTION_SCHEMA is engine.ACTION_SCHEMA
    schema = engine.ACTION_SCHEMA
    assert json.loads(json.dumps(schema)) == schema
    assert keywords(schema) <= OPENAPI_KEYWORDS
    assert schema["description"]
    for member in schema["oneOf"]:
        assert member["type"] == "object" and member["description"]
        assert "type" in member["required"]
        # The engines ignore fields an action does not have: no member may refuse them.
        assert "additionalProperties" not in member


# Wrong actions, from the rules: each fails the schema, and the engine refuses it too.
PR_WRONG = [
    ({"type": "steal", "good": "coffee"}, "no such action"),
    ({"type": "sell", "good": "cotton"}, "Puerto Rico has no cotton"),
    ({"type": "sell"}, "a sale names its good"),
    ({"type": "choose_role", "role": "pirate"}, "no pirate role card"),
    ({"type": "choose_role"}, "a role card must be named"),
    ({"type": "settle", "tile": "forest"}, "no forest plantation tile"),
    ({"type": "load", "good": "corn"}, "a load names its ship"),
    ({"type": "load", "good": "corn", "ship": 3}, "three cargo ships at most"),
    ({"type": "build", "building": "castle"}, "no castle among the buildings"),
    ({"type": "arrange", "island": {"rice": 1}}, "no rice plantations"),
    ({"type": "arrange", "island": {"corn": -1}}, "no negative colonists"),
    ({"type": "arrange", "island": {"corn": 1}, "privilege": "yes"}, "privilege is yes/no"),
    ({"type": "store", "windrose": "gold"}, "gold is no good"),
    ({"type": "discard_plantation", "tile": "quarry"}, "a quarry is no plantation"),
    ({"type": "discard_plantation", "tile": "corn", "occupant": "pirate"}, "no pirates"),
    ({"type": "small_wharf", "goods": {"rum": 1}}, "no rum"),
    ({"type": "royal_supplier", "goods": ["gold"]}, "gold is no good"),
    ({"type": "move_guest"}, "a guest moves somewhere"),
    ({"type": "move_guest", "to": "san_juan"}, "guests leave San Juan, never go there"),
    ({"type": "draft"}, "a draft names its building"),
    ("pass", "an action is an object"),
]
AM_WRONG = [
    ({"type": "steal"}, "no such action"),
    ({"type": "choose", "colour": "purple"}, "seven colours, no purple"),
    ({"type": "choose"}, "a choice names its colour"),
    ({"type": "cash", "item": "gold4"}, "one-time gold markers are 3 and 5"),
    ({"type": "sail", "ship": 0, "to": 12}, "a voyage says whether a post is set"),
    ({"type": "build", "tile": "V1", "cells": ["a"]}, "fields are numbers"),
    ({"type": "advance", "steps": "2"}, "steps are a number"),
    ({"type": "marker", "name": "ship9"}, "the ship marker gives 8"),
]


@pytest.mark.parametrize(
    ("engine", "data"),
    [(pr, d) for d, _ in PR_WRONG] + [(am, d) for d, _ in AM_WRONG],
    ids=[f"pr-{w}" for _, w in PR_WRONG] + [f"am-{w}" for _, w in AM_WRONG],
)
def test_actions_the_rules_do_not_know_fail_validation(engine, data):
    assert not validator(engine).is_valid(data)
    with pytest.raises(ValueError):
        engine.action_from_json(data)


# From docs/engine.md's tables: the Nobles' placement and the black market.
PR_DOCUMENTED = [
    {
        "type": "arrange",
        "island": {"corn": 1},
        "city": {},
        "privilege": False,
        "nobles": {"island": {"indigo": 1}, "city": {"chapel": 1}},
        "take_noble": True,
    },
    {
        "type": "build",
        "building": "harbor",
        "university": False,
        "black_market": {"colonist": "indigo", "good": "indigo", "vp": False},
    },
    {"type": "store", "windrose": None, "warehouse": []},
    {"type": "move_guest", "to": "library", "noble": True},
    {"type": "discard_plantation", "tile": "indigo", "occupant": "forest"},
    {"type": "pass", "note": "ignored"},
]


@pytest.mark.parametrize("data", PR_DOCUMENTED, ids=[d["type"] for d in PR_DOCUMENTED])
def test_documented_actions_validate(data):
    assert validator(pr).is_valid(data)
    pr.action_from_json(data)


def mutations(data: dict[str, Any], rng: random.Random):
    """``data`` with one field dropped, or one value replaced by a wrong or odd one; in a map,
    one entry changed or an unknown one added."""
    odd = [None, True, -1, 100, "corn", "nowhere", [], ["corn"], {}, {"corn": 1}, 2.5]
    for key in data:
        if key != "type":
            yield {k: v for k, v in data.items() if k != key}
        for value in rng.sample(odd, 4):
            yield {**data, key: value}
        if isinstance(data[key], dict):
            for inner in data[key]:
                yield {**data, key: {**data[key], inner: rng.choice(odd)}}
            yield {**data, key: {**data[key], "nowhere": 1}}


@pytest.mark.parametrize("engine", [pr, am], ids=["puerto_rico", "amerigo"])
def test_what_the_schema_accepts_the_engine_reads(engine):
    """Legal actions, broken one field at a time: whichever pass the schema, the engine
    reads (the schema may refuse more, never less)."""
    check = validator(engine)
    rng = random.Random(7)
    forms: dict[str, dict] = {}
    if engine is pr:
        checker = Checker(pr)
        pr_games(checker, [(4, "both", 3, True), (3, "both", 4, True)])
        for key in sorted(checker.seen):
            forms.setdefault(json.loads(key)["type"], json.loads(key))
    else:
        for seed in range(3):
            for data in am_actions_of_game(3, seed):
                forms.setdefault(data["type"], data)
    assert len(forms) > 10
    tried = accepted = 0
    for data in forms.values():
        for wrong in mutations(data, rng):
            tried += 1
            if check.is_valid(wrong):
                accepted += 1
                engine.action_from_json(wrong)
    assert tried > accepted > 0


# Amerigo ------------------------------------------------------------------------------------


def am_actions_of_game(n: int, seed: int):
    """The JSON of every legal action along one random game."""
    rng = random.Random(seed)
    state = am.new_game(n, seed)
    for _ in range(MAX_DECISIONS):
        if am.is_over(state):
            return
        legal = am.legal_actions(state)
        yield from map(am.action_to_json, legal)
        am.apply(state, legal[rng.randrange(len(legal))], inplace=True)
    raise AssertionError(f"game {n, seed} did not end")


def test_every_legal_amerigo_action_validates():
    checker = Checker(am)
    for n in am.PLAYER_COUNTS:
        for seed in range(4):
            for data in am_actions_of_game(n, seed):
                checker.check(data)
    checker.assert_all_seen(am)
