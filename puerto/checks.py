"""System checks of the site's own configuration.

They run with ``manage.py check`` and before ``migrate`` (compose's ``migrate`` service runs
first at every start), so a misconfiguration shows in the log of every deploy.
"""

from django.conf import settings
from django.core import checks

CATCHER_HOSTS = {"mail", "localhost", "127.0.0.1", "::1", ""}
"""SMTP hosts that are no relay: compose's mail catcher (``mail``) or this machine."""

NOT_SENT_BACKENDS = {
    "django.core.mail.backends.console.EmailBackend",
    "django.core.mail.backends.locmem.EmailBackend",
    "django.core.mail.backends.filebased.EmailBackend",
    "django.core.mail.backends.dummy.EmailBackend",
}


def email_delivery() -> str:
    """Where email goes: ``relay`` (out to people), ``catcher`` (an SMTP server on this machine
    or compose's mail catcher, which keeps it) or ``not sent`` (console, memory, files)."""
    if settings.EMAIL_BACKEND in NOT_SENT_BACKENDS:
        return "not sent"
    if settings.EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend":
        host = str(getattr(settings, "EMAIL_HOST", "")).strip().lower()
        if host in CATCHER_HOSTS:
            return "catcher"
    return "relay"


@checks.register(checks.Tags.compatibility)
def check_email_is_sent(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """With DEBUG off, email must reach people: sign-ups need a verified address and password
    resets a mailed link, so mail kept by a catcher locks every new player out."""
    if settings.DEBUG:
        return []
    delivery = email_delivery()
    if delivery == "relay":
        return []
    where = "kept by a mail catcher" if delivery == "catcher" else "not sent"
    host = getattr(settings, "EMAIL_HOST", "")
    return [
        checks.Warning(
            f"Email is {where} (EMAIL_BACKEND {settings.EMAIL_BACKEND}, host {host!r}): "
            "nobody can verify an address or reset a password.",
            hint="Set EMAIL_URL to a real relay: smtp://user:password@smtp.example.org:587/?tls=True",
            id="puerto.W001",
        )
    ]
