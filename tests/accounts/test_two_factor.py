"""Optional two-factor: TOTP codes computed here from the secret (RFC 6238), recovery codes."""

import base64
import hashlib
import hmac
import struct
import time

import pytest
from allauth.mfa.models import Authenticator

from tests.accounts.conftest import PASSWORD, log_in

pytestmark = pytest.mark.django_db


def totp(secret: str, at: float | None = None, digits: int = 6, period: int = 30) -> str:
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = int((time.time() if at is None else at) // period)
    mac = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10**digits).zfill(digits)


def confirm_password(client) -> None:
    """Two-factor settings ask for the password again first."""
    response = client.get("/accounts/2fa/totp/activate/")
    assert response["Location"].startswith("/accounts/reauthenticate/")
    assert client.post(response["Location"], {"password": PASSWORD}).status_code == 302


def activate_totp(client) -> str:
    confirm_password(client)
    page = client.get("/accounts/2fa/totp/activate/")
    assert page.status_code == 200
    secret = page.context["form"].secret
    response = client.post("/accounts/2fa/totp/activate/", {"code": totp(secret)})
    assert response.status_code == 302
    return secret


def test_with_two_factor_login_needs_a_code_and_a_recovery_code_works_once(client, member):
    assert log_in(client, "anna")["Location"] == "/games/mine/"
    secret = activate_totp(client)
    assert Authenticator.objects.filter(user=member, type=Authenticator.Type.TOTP).exists()
    recovery = Authenticator.objects.get(user=member, type=Authenticator.Type.RECOVERY_CODES)
    codes = recovery.wrap().get_unused_codes()
    assert len(codes) == 10
    client.post("/accounts/logout/")

    # The password alone no longer logs in: a code is asked for.
    response = log_in(client, "anna")
    assert response["Location"] == "/accounts/2fa/authenticate/"
    assert "_auth_user_id" not in client.session
    wrong = client.post("/accounts/2fa/authenticate/", {"code": "000000"})
    assert wrong.status_code == 200 and "_auth_user_id" not in client.session
    right = client.post("/accounts/2fa/authenticate/", {"code": totp(secret)})
    assert right["Location"] == "/games/mine/"
    assert int(client.session["_auth_user_id"]) == member.pk
    client.post("/accounts/logout/")

    # A recovery code instead of the app's code, once.
    log_in(client, "anna")
    assert client.post("/accounts/2fa/authenticate/", {"code": codes[0]})["Location"] == (
        "/games/mine/"
    )
    client.post("/accounts/logout/")
    log_in(client, "anna")
    again = client.post("/accounts/2fa/authenticate/", {"code": codes[0]})
    assert again.status_code == 200
    assert "_auth_user_id" not in client.session
    assert client.post("/accounts/2fa/authenticate/", {"code": codes[1]}).status_code == 302


def test_a_wrong_code_does_not_activate_two_factor(client, member):
    log_in(client, "anna")
    confirm_password(client)
    page = client.get("/accounts/2fa/totp/activate/")
    secret = page.context["form"].secret
    wrong = totp(secret, at=time.time() - 3600)

    response = client.post("/accounts/2fa/totp/activate/", {"code": wrong})

    assert response.status_code == 200
    assert not Authenticator.objects.filter(user=member).exists()
    client.post("/accounts/logout/")
    assert log_in(client, "anna")["Location"] == "/games/mine/"
