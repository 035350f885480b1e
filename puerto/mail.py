"""What every email the site builds shares."""

from email.utils import make_msgid
from urllib.parse import urlsplit

from django.conf import settings


def message_id() -> str:
    """A Message-ID in the site's own domain (``PUERTO_SITE_URL``), where Django would take the
    machine's host name (``…@localhost`` in a container), which spam filters hold against it."""
    return make_msgid(domain=urlsplit(settings.PUERTO_SITE_URL).hostname or "localhost")
