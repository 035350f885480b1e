"""Running project commands in child processes with an environment the test controls."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

REAL_PROCESSES = pytest.mark.xdist_group("real processes")
"""For a test that starts Celery workers or redis-servers: the others so marked run in the same
pytest-xdist worker, one after the other, so no two of them compete for the machine at once."""

# Variables the settings read; a child process starts without them unless a test sets them.
SETTINGS_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "EMAIL_URL",
    "PUERTO_VAR_DIR",
    "STATIC_ROOT",
    "DJANGO_SETTINGS_MODULE",
)


def project_env(**overrides: str) -> dict[str, str]:
    """The current environment without puerto's settings variables, plus ``overrides``."""
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARIABLES}
    env["PYTHONPATH"] = str(settings.BASE_DIR)
    env["DJANGO_SETTINGS_MODULE"] = "puerto.settings"
    env.update(overrides)
    return env


def run_python(*args: str, env: dict[str, str], timeout: float = 60):
    return subprocess.run(
        [sys.executable, *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
