"""Accounts through allauth's real pages: mail lands in ``mailoutbox`` (locmem backend)."""

import re
import uuid

import pytest
from allauth.account.models import EmailAddress

PASSWORD = "correct-horse-battery-9"


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    """Rate limits count in the default cache (Redis when REDIS_URL is set); each test gets
    keys of its own, so none starts with attempts used, and nothing shared is flushed."""
    default = settings.CACHES["default"]
    settings.CACHES = {**settings.CACHES, "default": {**default, "KEY_PREFIX": uuid.uuid4().hex}}
    yield


def link_in(message) -> str:
    """The one http(s) link in an email's body, as a path the test client can follow."""
    links = re.findall(r"https?://testserver(/\S+)", message.body)
    assert len(links) == 1, message.body
    return links[0]


def sign_up(client, username="anna", email="anna@example.org", password=PASSWORD, **fields):
    """The sign-up form posted; ``fields`` adds to it (e.g. ``next``)."""
    return client.post(
        "/accounts/signup/",
        {"username": username, "email": email, "password1": password, "password2": password}
        | fields,
    )


def log_in(client, login, password=PASSWORD, **request):
    """The login form posted; ``request`` adds to the request's environ (e.g. ``REMOTE_ADDR``)."""
    return client.post("/accounts/login/", {"login": login, "password": password}, **request)


@pytest.fixture
def member(django_user_model):
    """A player with a verified email address."""
    user = django_user_model.objects.create_user("anna", "anna@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user
