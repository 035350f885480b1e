"""Browser tests: Chromium driven by Playwright."""

from django.conf import settings
from django.test import Client

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
"""A phone's screen, as ``browser.new_context(**PHONE)`` takes it."""


def sign_in(context, live_server, user) -> None:
    """Give the browser ``context`` a session of ``user`` made on the server: faster than the
    login page, which ``test_play.log_in`` tests."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
