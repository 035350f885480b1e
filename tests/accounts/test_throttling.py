"""Failed logins count once per account and once per client address, whichever way they come
in (the login form, HTTP Basic on the API), in the default cache (Redis when REDIS_URL is set).
Past the limit the form says so and the API answers 429 with Retry-After, before any password
is hashed; even the right password waits until the window has passed."""

import base64
import time

import pytest
from allauth.account.models import EmailAddress

from tests.accounts.conftest import PASSWORD, log_in
from tests.accounts.hashers import CountingArgon2PasswordHasher
from tests.accounts.test_password_and_email import NEW_PASSWORD, request_reset
from tests.helpers import project_env, run_python

pytestmark = pytest.mark.django_db
LIMIT_MESSAGE = "Too many failed login attempts. Try again later."
API = "/api/games/"
ADDRESS = "203.0.113.10"


def basic(client, login, password=PASSWORD, address=ADDRESS, forwarded_for=None):
    """An API request with HTTP Basic from ``address`` (through a proxy that saw
    ``forwarded_for``, when given)."""
    token = base64.b64encode(f"{login}:{password}".encode()).decode()
    extra = {"HTTP_AUTHORIZATION": f"Basic {token}", "REMOTE_ADDR": address}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client.get(API, **extra)


def refused_by_the_form(client, login, password=PASSWORD, **request) -> bool:
    response = log_in(client, login, password, **request)
    return LIMIT_MESSAGE in response.content.decode() and "_auth_user_id" not in client.session


def assert_locked_out(response, window_seconds: int):
    assert response.status_code == 429, response.content
    assert 0 < int(response["Retry-After"]) <= window_seconds


def eventually(condition, seconds: float = 30):
    """Poll ``condition`` until it holds, failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "still not the case"
        time.sleep(0.2)


@pytest.fixture
def bruno(django_user_model):
    user = django_user_model.objects.create_user("bruno", "bruno@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


# The login form ------------------------------------------------------------------------------


def test_after_five_failures_even_the_right_password_waits(client, member):
    for _ in range(5):
        response = log_in(client, "anna", "wrong-password")
        assert response.status_code == 200
        assert LIMIT_MESSAGE not in response.content.decode()

    assert refused_by_the_form(client, "anna", "wrong-password")
    assert refused_by_the_form(client, "anna", PASSWORD)


def test_the_lock_ends_when_its_window_has_passed(client, member, settings):
    settings.PUERTO_FAILED_LOGINS_PER_ACCOUNT = (1, 3)  # one failure, three seconds
    log_in(client, "anna", "wrong-password")
    assert refused_by_the_form(client, "anna", PASSWORD)
    assert basic(client, "anna").status_code == 429

    eventually(lambda: basic(client, "anna").status_code == 200)
    response = log_in(client, "anna", PASSWORD)
    assert response["Location"] == "/games/mine/"


def test_the_limit_counts_per_account_whichever_way_it_is_named(client, member):
    for login in ("ANNA", "anna", "Anna", "anna@example.org", "ANNA@example.org"):
        log_in(client, login, "wrong-password")
    assert refused_by_the_form(client, "anna", PASSWORD)


def test_one_address_trying_many_accounts_is_throttled_but_not_another(client, member):
    for number in range(10):
        log_in(client, f"nobody{number}", "wrong-password", REMOTE_ADDR=ADDRESS)

    assert refused_by_the_form(client, "anna", PASSWORD, REMOTE_ADDR=ADDRESS)
    response = log_in(client, "anna", PASSWORD, REMOTE_ADDR="198.51.100.20")
    assert response["Location"] == "/games/mine/"


# HTTP Basic on the API -----------------------------------------------------------------------


def test_wrong_basic_passwords_get_429_with_retry_after(client, member):
    assert basic(client, "anna").status_code == 200
    for _ in range(5):
        assert basic(client, "anna", "wrong-password").status_code in (401, 403)

    assert_locked_out(basic(client, "anna", "wrong-password"), 5 * 60)
    assert_locked_out(basic(client, "anna"), 5 * 60)


@pytest.mark.usefixtures("site_password_hashing")  # the member's password an Argon2 hash
def test_a_locked_out_basic_request_hashes_no_password(client, member, settings):
    settings.PASSWORD_HASHERS = ["tests.accounts.hashers.CountingArgon2PasswordHasher"]
    CountingArgon2PasswordHasher.calls = 0
    for _ in range(5):
        basic(client, "anna", "wrong-password")
    assert CountingArgon2PasswordHasher.calls >= 5

    CountingArgon2PasswordHasher.calls = 0
    for password in ("wrong-password", PASSWORD):
        assert basic(client, "anna", password).status_code == 429
    assert CountingArgon2PasswordHasher.calls == 0


def test_failed_form_logins_lock_basic_out(client, member):
    for _ in range(5):
        log_in(client, "anna@example.org", "wrong-password")

    assert_locked_out(basic(client, "anna"), 5 * 60)


def test_failed_basic_logins_lock_the_form_out(client, member):
    for _ in range(5):
        basic(client, "anna", "wrong-password")

    assert refused_by_the_form(client, "anna@example.org", PASSWORD)


def test_each_address_counts_alone_but_an_account_counts_everywhere(client, member, bruno):
    for address in ("198.51.100.1", "198.51.100.1", "198.51.100.1", "2001:db8::1", "2001:db8::2"):
        basic(client, "anna", "wrong-password", address=address)
    # Five failures for anna from three addresses: anna waits wherever she comes from ...
    assert basic(client, "anna", address="198.51.100.99").status_code == 429
    # ... while each address is still far from its own limit.
    assert basic(client, "bruno", address="198.51.100.1").status_code == 200

    for number in range(10):
        basic(client, f"nobody{number}", "wrong-password", address="198.51.100.2")
    assert_locked_out(basic(client, "bruno", address="198.51.100.2"), 60)
    assert basic(client, "bruno", address="198.51.100.3").status_code == 200


def test_addresses_in_one_ipv6_network_count_as_one(client, bruno):
    for number in range(10):
        basic(client, f"nobody{number}", "wrong-password", address=f"2001:db8:1:2::{number + 1}")
    assert basic(client, "bruno", address="2001:db8:1:2::ff").status_code == 429
    assert basic(client, "bruno", address="2001:db8:1:3::1").status_code == 200


def test_a_password_reset_ends_the_accounts_lock(client, member, mailoutbox):
    for _ in range(5):
        basic(client, "anna", "wrong-password")
    assert basic(client, "anna").status_code == 429

    form_page = client.get(request_reset(client, mailoutbox), follow=True)
    form_url = form_page.redirect_chain[-1][0]
    client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})

    assert basic(client, "anna", NEW_PASSWORD).status_code == 200


# Behind the TLS proxy ------------------------------------------------------------------------

PROXY = "10.0.0.5"


def test_behind_one_trusted_proxy_each_client_counts_alone(client, bruno, settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    for number in range(10):
        # The client sends a made-up X-Forwarded-For of its own; the proxy appends what it saw.
        basic(
            client,
            f"nobody{number}",
            "wrong-password",
            address=PROXY,
            forwarded_for=f"192.0.2.{number}, 198.51.100.7",
        )

    # Another made-up left-most value does not make it someone else.
    assert (
        basic(client, "bruno", address=PROXY, forwarded_for="192.0.2.99, 198.51.100.7").status_code
        == 429
    )
    assert basic(client, "bruno", address=PROXY, forwarded_for="198.51.100.7").status_code == 429
    # Another client behind the same proxy is not held up.
    assert basic(client, "bruno", address=PROXY, forwarded_for="198.51.100.8").status_code == 200


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(client, bruno):
    for number in range(10):
        basic(
            client,
            f"nobody{number}",
            "wrong-password",
            address="198.51.100.7",
            forwarded_for=f"192.0.2.{number}",
        )

    assert (
        basic(client, "bruno", address="198.51.100.7", forwarded_for="192.0.2.99").status_code
        == 429
    )
    assert (
        basic(client, "bruno", address="198.51.100.8", forwarded_for="198.51.100.7").status_code
        == 200
    )


DUMP_PROXY_COUNT = """
from django.conf import settings
print(settings.ALLAUTH_TRUSTED_PROXY_COUNT)
"""


@pytest.mark.parametrize(("value", "expected"), [(None, "0"), ("", "0"), ("1", "1"), ("2", "2")])
def test_the_trusted_proxy_count_comes_from_the_environment(tmp_path, value, expected):
    env = project_env(PUERTO_VAR_DIR=str(tmp_path))
    if value is not None:
        env["TRUSTED_PROXY_COUNT"] = value
    result = run_python("-c", DUMP_PROXY_COUNT, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


@pytest.mark.parametrize("value", ["-1", "one"])
def test_a_trusted_proxy_count_that_is_no_count_stops_the_start(tmp_path, value):
    env = project_env(PUERTO_VAR_DIR=str(tmp_path), TRUSTED_PROXY_COUNT=value)
    result = run_python("-c", DUMP_PROXY_COUNT, env=env)
    assert result.returncode != 0
    assert "ImproperlyConfigured: TRUSTED_PROXY_COUNT" in result.stderr
