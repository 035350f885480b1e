"""Schemathesis against the live API with a token: every operation of ``/api/schema/`` is
called with inputs made from its schema (valid, and broken on purpose) and each answer is
checked against the schema: no server error, only documented statuses, content types,
headers and bodies, valid input accepted (``schemathesis.toml`` beside this file names the
operations whose rules lie beyond a schema), invalid input refused."""

import subprocess
import sys
from pathlib import Path

import pytest

from accounts import tokens
from games import services
from tests.games.test_api_lobby import users  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db(transaction=True)

CONFIG = Path(__file__).with_name("schemathesis.toml")
SCHEMATHESIS = Path(sys.executable).with_name("st")
EXAMPLES = 25
"""Examples per operation in the fuzzing phase: the whole run takes about a minute."""


def test_schemathesis_finds_no_failure_in_the_api(live_server, settings, users, tmp_path):  # noqa: F811
    # Schemathesis sends wrong credentials on purpose; counted as failed logins, they would
    # lock the test's own address out after ten (the lockout has tests of its own).
    settings.PUERTO_FAILED_LOGINS_PER_ADDRESS = (10**6, 60)
    settings.PUERTO_FAILED_LOGINS_PER_ACCOUNT = (10**6, 60)
    # The streams answer what they hold and end, not a minute later, under the test server.
    settings.EVENTS_WSGI_SECONDS = settings.EVENTS_POLL_SECONDS = 0.05
    anna, bob, *_others = users
    scopes = ["play", "chat", "create"]
    _token, secret = tokens.create(anna, "schemathesis", scopes)
    # Something for the calls to find: a game Anna plays (her turn or an AI's), a finished one
    # to export, another player to follow or challenge.
    services.create_game(anna, num_players=3, engine="puerto_rico", ai_levels=["easy", "easy"])
    services.create_game(bob, num_players=3, engine="amerigo", ai_levels=["easy"])
    run = subprocess.run(
        [
            SCHEMATHESIS,
            "--no-color",
            "--config-file",
            CONFIG,
            "run",
            f"{live_server.url}/api/schema/",
            "--header",
            f"Authorization: Bearer {secret}",
            "--max-examples",
            str(EXAMPLES),
            "--seed",
            "20261127",
            "--request-timeout",
            "30",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # where it keeps its examples database
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-5000:]
    assert "No issues found" in run.stdout or " passed" in run.stdout, run.stdout[-3000:]
