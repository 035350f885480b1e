"""Settings are loaded in child processes so this process's own settings stay untouched."""

import json
import secrets

from tests.helpers import project_env, run_python

DUMP_SETTINGS = """
import json
from django.conf import settings
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "database": settings.DATABASES["default"]["ENGINE"],
    "database_name": str(settings.DATABASES["default"]["NAME"]),
    "health_checks": settings.DATABASES["default"]["CONN_HEALTH_CHECKS"],
    "cache": settings.CACHES["default"]["BACKEND"],
    "sessions": settings.SESSION_ENGINE,
    "broker": settings.CELERY_BROKER_URL,
    "results": settings.CELERY_RESULT_BACKEND,
    "email": settings.EMAIL_BACKEND,
    "staticfiles": settings.STORAGES["staticfiles"]["BACKEND"],
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "time_zone": settings.TIME_ZONE,
    "use_tz": settings.USE_TZ,
}))
"""


def production_env(tmp_path, **overrides):
    values = {
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "puerto.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://puerto.example.org",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'prod.sqlite3'}",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "EMAIL_URL": "smtp://mail.example.org:587/?tls=True",
        "PUERTO_VAR_DIR": str(tmp_path / "var"),
    }
    return project_env(**values | overrides)


def load_settings(env) -> dict:
    result = run_python("-c", DUMP_SETTINGS, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_development_defaults_need_no_environment(tmp_path):
    loaded = load_settings(project_env(PUERTO_VAR_DIR=str(tmp_path)))

    assert loaded["DEBUG"] is True
    assert loaded["database"] == "django.db.backends.sqlite3"
    assert loaded["database_name"].endswith("db.sqlite3")
    assert loaded["health_checks"] is False
    assert loaded["cache"].endswith("LocMemCache")
    assert loaded["broker"].startswith("filesystem://")
    assert loaded["results"] == f"file://{tmp_path / 'celery' / 'results'}"
    assert loaded["email"] == "django.core.mail.backends.console.EmailBackend"
    assert loaded["ssl_redirect"] is False
    assert (loaded["time_zone"], loaded["use_tz"]) == ("UTC", True)


def test_production_values_switch_to_redis_smtp_and_manifest_static(tmp_path):
    loaded = load_settings(production_env(tmp_path))

    assert loaded["DEBUG"] is False
    assert loaded["health_checks"] is True
    assert loaded["cache"] == "puerto.cache.RedisOrMemoryCache"
    assert loaded["sessions"] == "django.contrib.sessions.backends.db"
    assert loaded["broker"] == loaded["results"] == "redis://127.0.0.1:6379/0"
    assert loaded["email"] == "django.core.mail.backends.smtp.EmailBackend"
    assert loaded["staticfiles"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert loaded["ssl_redirect"] is True


def test_debug_off_without_secret_key_is_a_clear_error(tmp_path):
    env = production_env(tmp_path)
    del env["SECRET_KEY"]

    result = run_python("manage.py", "check", env=env)

    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY must be set when DEBUG is off." in result.stderr


def test_unclear_boolean_is_a_clear_error(tmp_path):
    result = run_python("manage.py", "check", env=production_env(tmp_path, DEBUG="maybe"))

    assert result.returncode != 0
    assert "DEBUG must be true or false" in result.stderr


def test_deploy_check_is_clean_with_production_values(tmp_path):
    result = run_python(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING", env=production_env(tmp_path)
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_collectstatic_builds_the_compressed_manifest_in_production(tmp_path):
    static_root = tmp_path / "static"
    env = production_env(tmp_path, STATIC_ROOT=str(static_root))

    result = run_python("manage.py", "collectstatic", "--noinput", env=env)

    assert result.returncode == 0, result.stderr
    manifest = json.loads((static_root / "staticfiles.json").read_text())
    hashed = manifest["paths"]["vendor/htmx/htmx.min.js"]
    assert (static_root / f"{hashed}.gz").exists()
