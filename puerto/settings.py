"""Settings for puerto, read from the environment only.

Development needs no variables at all (SQLite, console mail, an embedded Celery broker on
the file system). Production sets ``DEBUG=false`` and must then provide ``SECRET_KEY``;
everything else has a safe default. The README lists every variable.
"""

import os
import tomllib
from pathlib import Path

import dj_database_url
import dj_email_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no variable; anything but a clear yes or no is a configuration error."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_count(name: str, default: int = 0) -> int:
    """Read a whole number of 0 or more; anything else is a configuration error."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not (value.isascii() and value.isdigit()):
        raise ImproperlyConfigured(f"{name} must be a whole number of 0 or more, not {value!r}")
    return int(value)


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated variable into a list, ignoring blanks."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-puerto-development-only-never-use-this-key-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "drf_spectacular",
    "django_prometheus",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "accounts",
    "games",
    "players",
    "analysis",
    "events",
    "moderation",  # after accounts: it puts the moderation actions on the user admin
    "puerto.apps.PuertoConfig",  # the site's own system checks and housekeeping tasks
]

PUERTO_GAMES = ["games.shelf.puerto_rico", "games.shelf.amerigo"]
"""The games on offer (``games.registry``), in the lobby's order: the first is the default."""

MIDDLEWARE = [
    "puerto.logs.RequestIdMiddleware",  # first: every later record of the request has its id
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.RateLimitHeadersMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "puerto.urls"
WSGI_APPLICATION = "puerto.wsgi.application"
ASGI_APPLICATION = "puerto.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.preferences",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # A kept connection is checked (one round trip) before a request's first query:
        # without the check, a connection the database ended (a restart) fails one request
        # per process, answered 500, before it is replaced. On in production. (The worker
        # opens a connection for each task.)
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", not DEBUG),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web process and the worker write to one file: each transaction takes the write lock
    # when it begins (two readers upgrading at once would fail at once with "database is
    # locked") and waits for it; WAL lets pages read while a move is written, and with WAL
    # "synchronous=NORMAL" is as safe from corruption, syncing at checkpoints only.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        timeout=20,
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    )
    # Tests get a file too, not SQLite's shared in-memory database: there a page polled by the
    # browser while a move is written fails at once ("database table is locked"), where a
    # file's lock is waited for.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
# A password given on its own wins over the URL's: one with @ : / # would need escaping there.
if os.environ.get("DATABASE_PASSWORD"):
    DATABASES["default"]["PASSWORD"] = os.environ["DATABASE_PASSWORD"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
# allauth's backend (a ModelBackend) alone, refusing suspended and banned users.
AUTHENTICATION_BACKENDS = ["accounts.backends.AuthenticationBackend"]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "games:mine"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth): sign up with a verified email, log in by username or email,
# optional two-factor (TOTP with recovery codes). Rate limits count in the default cache.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupForm"  # adds the browser's time zone
ACCOUNT_FORMS = {"login": "accounts.login_form.LoginForm"}  # says why a barred user is refused
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
# Confirming the address in the browser that signed up (or tried to log in) logs them in.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[puerto] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
# "ratings" and "following" are addresses under /players/, not player pages.
ACCOUNT_USERNAME_BLACKLIST = ["admin", "puerto", "deleted", "ratings", "following"]
ACCOUNT_RATE_LIMITS = {
    # Wrong two-factor codes: 10 a minute from one address, 5 per account in 5 minutes.
    # (Wrong passwords count in accounts.lockout instead, for the form and the API alike.)
    "login_failed": "10/m/ip,5/5m/key",
}
# Wrong passwords (login form, HTTP Basic on the API) as (failures, seconds): 5 for one account
# in 5 minutes, or 10 from one client address in a minute, lock that account or address for as
# long again, even for the right password.
PUERTO_FAILED_LOGINS_PER_ACCOUNT = (5, 5 * 60)
PUERTO_FAILED_LOGINS_PER_ADDRESS = (10, 60)
# Proxies in front of the site that append the address they saw to X-Forwarded-For (the TLS
# proxy: 1). The client's address is then the one the outermost of them saw; with 0 it is
# REMOTE_ADDR and the header, which any client can send, is ignored. For allauth and DRF alike.
ALLAUTH_TRUSTED_PROXY_COUNT = env_count("TRUSTED_PROXY_COUNT")
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "puerto"

# The JSON API (/api/): sessions for the site's own pages, HTTP Basic for scripts (it checks
# the password hash on every request, so it is slow by design: use it for a few calls only;
# wrong passwords lock out like the login form's, answered 429 with Retry-After).
# The browsable API only while DEBUG is on.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First: its challenge (``WWW-Authenticate: Bearer``) makes a refusal a 401, not a 403.
        "accounts.authentication.TokenAuthentication",  # personal tokens, made on the profile
        "rest_framework.authentication.SessionAuthentication",
        "accounts.authentication.BasicAuthentication",  # counts wrong passwords with the form
    ],
    "NUM_PROXIES": ALLAUTH_TRUSTED_PROXY_COUNT,
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "accounts.authentication.TokenScopes",
    ],
    "DEFAULT_PARSER_CLASSES": ["puerto.rest.JSONParser"],
    "DEFAULT_THROTTLE_CLASSES": ["accounts.authentication.RequestRate"],
    "EXCEPTION_HANDLER": "puerto.rest.exception_handler",
    # The API's version, asked for in the Accept header (``application/json; version=1``);
    # none asked: the current one. An unknown one is refused with 406 (docs/api.md).
    "DEFAULT_VERSIONING_CLASS": "rest_framework.versioning.AcceptHeaderVersioning",
    "DEFAULT_VERSION": "1",
    "ALLOWED_VERSIONS": ["1"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
}

# Requests per token (per account, per address for anonymous readers) in a sliding window,
# as "<n>/second|minute|hour|day"; empty: no limit (accounts.authentication.RequestRate).
API_RATE = os.environ.get("API_RATE", "300/minute") or None

# The API's OpenAPI description, at /api/schema/.
SPECTACULAR_SETTINGS = {
    "TITLE": "puerto",
    "DESCRIPTION": "Games, moves, chat and event streams of puerto (docs/api.md).",
    "VERSION": "1",
    "ENUM_NAME_OVERRIDES": {
        "EngineEnum": "games.api_schemas.ENGINES",
        "GameStatusEnum": "games.models.Game.Status",
    },
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "events.views.add_streams_to_schema",
        "puerto.rest.describe_refusals",
        "games.api_schemas.add_action_schemas",
    ],
}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
FORMAT_MODULE_PATH = ["puerto.formats"]  # one way to write a date in each language
# Our own strings; then allauth's strings that its German catalogue words with "Sie", in
# "du" as everywhere else (LOCALE_PATHS win over the apps' catalogues).
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "accounts" / "locale_allauth"]
TIME_ZONE = "UTC"
USE_I18N = True
# USE_THOUSAND_SEPARATOR stays off (Django's default): German would write 1000 as "1.000" also
# where a machine reads the number (a game's version in data-version, an id in a link).
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
# Whitenoise serves straight from the source folders while DEBUG is on (also under tests,
# where Django turns DEBUG off after these settings are read).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Mail: console in development, e.g. smtp://user:pass@host:587/?tls=True in production.
_email = dj_email_url.parse(os.environ.get("EMAIL_URL", "console://"))
if "EMAIL_BACKEND" not in _email:  # dj-email-url would quietly fall back to SMTP on localhost
    raise ImproperlyConfigured(
        "EMAIL_URL must start with one of " + ", ".join(f"{s}://" for s in dj_email_url.SCHEMES)
    )
globals().update(_email)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "puerto <puerto@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Links in email point here (a worker has no request to build them from): by default the
# first trusted origin, which production sets for HTTPS forms anyway.
PUERTO_SITE_URL = os.environ.get(
    "PUERTO_SITE_URL", CSRF_TRUSTED_ORIGINS[0] if CSRF_TRUSTED_ORIGINS else "http://127.0.0.1:8000"
)
# Days of vacation (paused move clocks) a player may take per calendar year.
PUERTO_VACATION_DAYS = int(os.environ.get("PUERTO_VACATION_DAYS", "30"))
# Local hour from which the daily digest goes out.
PUERTO_DIGEST_HOUR = int(os.environ.get("PUERTO_DIGEST_HOUR", "7"))
# "Your move" email goes only to a player away from the site (not seen for PUERTO_AWAY_MINUTES)
# whose turn has waited PUERTO_TURN_EMAIL_MINUTES, and not again until they come back.
PUERTO_TURN_EMAIL_MINUTES = int(os.environ.get("PUERTO_TURN_EMAIL_MINUTES", "10"))
PUERTO_AWAY_MINUTES = int(os.environ.get("PUERTO_AWAY_MINUTES", "5"))
# Days an email's one-click unsubscribe link works (every email carries a fresh one).
PUERTO_UNSUBSCRIBE_LINK_DAYS = 60
# After a game, the worker of the "reviews" queue judges each person's decisions
# (analysis.reviews), spending at most REVIEW_GAME_SECONDS of worker time on a game.
PUERTO_REVIEWS = env_bool("PUERTO_REVIEWS", True)
REVIEW_GAME_SECONDS = env_count("REVIEW_GAME_SECONDS", 600)
# Playouts per judged position (hints and reviews); 0: the hard AI player's own budget.
ANALYSIS_SIMULATIONS = env_count("ANALYSIS_SIMULATIONS") or None
# Playouts per decision of a hard AI seat; 0: its game's own budget, the site's (about 2 s of
# CPU a decision). The tests set a few: they check what the seat does, not how well.
AI_SIMULATIONS = env_count("AI_SIMULATIONS") or None

# Event streams (events.views): a look at the journal this often without Redis's bell, at
# least this often with it (a comment keeps the connection alive); under WSGI a stream ends
# after EVENTS_WSGI_SECONDS and the client connects again.
EVENTS_POLL_SECONDS = float(os.environ.get("EVENTS_POLL_SECONDS", "0.5"))
EVENTS_KEEPALIVE_SECONDS = float(os.environ.get("EVENTS_KEEPALIVE_SECONDS", "15"))
EVENTS_WSGI_SECONDS = float(os.environ.get("EVENTS_WSGI_SECONDS", "60"))

# Redis is optional: it backs the cache and Celery when set; without it everything still runs.
REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    # Redis, or while it is unreachable a memory cache per process (puerto/cache.py says why not
    # django-redis): logins and their rate limits go on without Redis. The timeouts make a
    # Redis that does not answer fail within a second instead of hanging the request.
    CACHES = {
        "default": {
            "BACKEND": "puerto.cache.RedisOrMemoryCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions in the database, not cached_db: after a cache miss its read writes the session to
# the cache, so while Redis is down every signed-in request would fail.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Celery: Redis when REDIS_URL is set; otherwise an embedded broker and result store in
# plain folders under PUERTO_VAR_DIR, so `make run` needs no server and tasks stay async.
PUERTO_VAR_DIR = Path(os.environ.get("PUERTO_VAR_DIR", BASE_DIR / "var"))
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    # A Redis that refuses or does not answer fails a send within seconds (the web process
    # queues after commit and must not hang): connect and read timeouts, one retry. The read
    # timeout stays above the worker's one-second BRPOP. Keepalive notices a vanished peer.
    CELERY_BROKER_CONNECTION_TIMEOUT = 2
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": 2,
        "socket_timeout": 3,
        "socket_keepalive": True,
    }
    CELERY_TASK_PUBLISH_RETRY_POLICY = {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.5,
        "interval_max": 0.5,
    }
    # Waiting for a result (only ``ping`` has one) gives up after 5 s, not after 20 retries.
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"timeout": 5.0}}
else:
    _celery_dir = PUERTO_VAR_DIR / "celery"
    _queue_dir = _celery_dir / "queue"
    _results_dir = _celery_dir / "results"
    for _folder in (_queue_dir, _results_dir, _celery_dir / "control"):
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://localhost//"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "control_folder": str(_celery_dir / "control"),
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = f"file://{_results_dir}"
CELERY_BEAT_SCHEDULE_FILENAME = str(PUERTO_VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE: dict = {
    # Outbox rows left behind (worker or broker down) and retries after a failed send.
    "deliver-pending-notifications": {"task": "games.tasks.deliver_pending", "schedule": 60.0},
    # "Your move" email to players away from the site whose turn has waited long enough.
    "send-turn-emails": {"task": "games.tasks.send_turn_emails", "schedule": 60.0},
    # Vacations ending, reminders at 80 % of the move time, deadlines run out.
    "sweep-move-clocks": {"task": "games.tasks.sweep_clocks", "schedule": 60.0},
    # AI turns lost on the way (a worker died, Redis lost its queue): queued again.
    "sweep-ai-turns": {"task": "games.tasks.sweep_ai_turns", "schedule": 10.0},
    # Daily digests, each from PUERTO_DIGEST_HOUR in its reader's time zone.
    "send-digests": {"task": "games.tasks.send_digests", "schedule": 3600.0},
    # The event streams' journal keeps a day (events.tasks).
    "prune-events": {"task": "events.tasks.prune_events", "schedule": 3600.0},
    # Housekeeping (puerto.tasks): expired sessions, and sent email older than
    # PUERTO_KEEP_SENT_EMAIL_DAYS.
    "clear-sessions": {"task": "puerto.tasks.clear_sessions", "schedule": 24 * 3600.0},
    "prune-sent-email": {"task": "puerto.tasks.prune_sent_email", "schedule": 24 * 3600.0},
}
PUERTO_KEEP_SENT_EMAIL_DAYS = env_count("PUERTO_KEEP_SENT_EMAIL_DAYS", 90)
# Reviews wait on a queue of their own, served by a worker of its own (Procfile.dev, compose):
# a long review never holds up an AI move.
CELERY_TASK_ROUTES = {"analysis.tasks.review_seat": {"queue": "reviews"}}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Tasks are acknowledged when they start. Late acks bring nothing back here: on Redis an
# unacknowledged message returns only after the visibility timeout (an hour), while every task
# acts on what the database says is due and beat's sweepers queue lost work again within
# seconds. And a worker holding an unacknowledged message when Redis went away crashed
# ("Unrecoverable error ... 'hostname'") restoring it over the closed connection.
CELERY_TASK_ACKS_LATE = False
# Nor does the worker take a task before one of its processes is free: a task waiting in the
# worker is unacknowledged too, and the same crash followed when Redis went away while the
# worker held one. (Redis only: elsewhere Celery ignores it with a warning.)
CELERY_WORKER_DISABLE_PREFETCH = bool(REDIS_URL)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The worker outlives any Redis outage: it tries to reconnect (2, 4, 6, ... s apart, at most
# 30 s: kombu's fixed back-off) for as long as it takes, instead of exiting after 100 attempts.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Celery 6's default (acks-late tasks are cancelled on connection loss, none here).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Celery's prefork pool, except that a task's time limit waits for what its process already
# reported: after a broker outage, a task that finished during it is not signalled
# (puerto/prefork.py says why).
CELERY_WORKER_POOL = "puerto.prefork:TaskPool"
CELERY_TASK_SOFT_TIME_LIMIT = int(os.environ.get("CELERY_TASK_SOFT_TIME_LIMIT", "60"))
CELERY_TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT", "90"))
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE

# Production hardening: on whenever DEBUG is off; TLS is expected to end at a proxy.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]  # probes and scrapes on the inside
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)

# Logs: readable lines on stderr in development; in production (DEBUG off, or LOG_FORMAT=json)
# one JSON object a line on stdout (time, level, logger, message, request_id, task_id,
# task_name) for a log collector. python-json-logger rather than django-structlog: it is only a
# formatter on the standard logging every module here already uses, where structlog would bring
# a second pipeline, its own request middleware and signals. The request and task ids come from
# puerto.logs (a middleware and a filter on the handler).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "").strip().lower() or ("plain" if DEBUG else "json")
if LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be plain or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "puerto.logs.ContextFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(levelname)s %(name)s %(message)s %(request_id)s %(task_id)s %(task_name)s",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["context"],
            **({"stream": "ext://sys.stdout"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
# The worker and beat log through LOGGING too (JSON in production, with the task's id),
# not through the handler Celery would otherwise put on the root logger.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# The release: pyproject.toml's version, shown by /healthz and named in Sentry's reports.
with open(BASE_DIR / "pyproject.toml", "rb") as _pyproject:
    PUERTO_VERSION = tomllib.load(_pyproject)["project"]["version"]

# Metrics for Prometheus at /metrics (puerto/metrics.py, docs/operations.md): served to
# loopback and private addresses, or to anyone sending ``Authorization: Bearer METRICS_TOKEN``;
# a 404 to everyone else. PostgreSQL's queries, errors and connections are counted by
# django-prometheus's wrapper of Django's backend (development's SQLite is left as it is).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "django_prometheus.db.backends.postgresql"

# Error reports to Sentry, only when SENTRY_DSN is set: no personal data (no addresses, users,
# cookies, request bodies), the release and an environment to tell deployments apart.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
SENTRY_ENVIRONMENT = os.environ.get("SENTRY_ENVIRONMENT", "development" if DEBUG else "production")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        max_request_body_size="never",
        release=f"puerto@{PUERTO_VERSION}",
        environment=SENTRY_ENVIRONMENT,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )
