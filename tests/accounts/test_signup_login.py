"""Sign-up with a verified email, log in by username or email, Argon2 hashes."""

import time
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from tests.accounts.conftest import PASSWORD, link_in, log_in, sign_up

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_sign_up_verify_the_email_then_log_in_by_username_and_by_email(client, mailoutbox):
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    user = User.objects.get(username="anna")
    assert user.email == "anna@example.org"
    assert not EmailAddress.objects.get(user=user).verified
    assert "_auth_user_id" not in client.session  # no session before the address is verified

    (message,) = mailoutbox
    assert message.to == ["anna@example.org"]
    link = link_in(message)
    page = client.get(link)
    assert page.status_code == 200
    assert "anna@example.org" in page.content.decode()
    assert client.post(link).status_code == 302
    assert EmailAddress.objects.get(user=user).verified

    response = log_in(client, "anna")
    assert response.status_code == 302
    assert response["Location"] == "/games/mine/"
    assert client.get("/games/mine/").status_code == 200

    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
    response = log_in(client, "anna@example.org")
    assert response.status_code == 302
    assert response["Location"] == "/games/mine/"
    assert int(client.session["_auth_user_id"]) == user.pk


def test_an_unverified_player_cannot_log_in_and_gets_the_link_again(client, mailoutbox):
    sign_up(client)
    mailoutbox.clear()

    response = log_in(client, "anna")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session
    assert client.get("/games/mine/").status_code == 302  # still a visitor


@pytest.mark.usefixtures("site_password_hashing")
def test_the_password_is_stored_as_an_argon2_hash(client):
    sign_up(client)
    user = User.objects.get(username="anna")
    assert user.password.startswith("argon2")
    assert user.check_password(PASSWORD)


def test_sign_up_refuses_a_taken_email_and_a_reserved_username(client, member, mailoutbox):
    # A taken address is not revealed on the page; its owner is told by email instead.
    taken = sign_up(client, username="other", email="ANNA@example.org")
    assert taken["Location"] == "/accounts/confirm-email/"
    (message,) = mailoutbox
    assert message.to == ["anna@example.org"]
    assert "already" in message.body
    reserved = sign_up(client, username="deleted-7", email="new@example.org")
    assert reserved.status_code == 200
    assert "This username is not available." in reserved.content.decode()
    assert set(User.objects.values_list("username", flat=True)) == {"anna"}


def test_a_forged_verification_link_changes_nothing(client, mailoutbox):
    sign_up(client)
    link = link_in(mailoutbox[0])
    forged = link.rstrip("/")[:-3] + "xyz/"

    page = client.get(forged)
    assert page.status_code == 200
    assert "expired or is invalid" in page.content.decode()
    client.post(forged)

    assert not EmailAddress.objects.get(email="anna@example.org").verified
    assert log_in(client, "anna")["Location"] == "/accounts/confirm-email/"


def test_an_expired_verification_link_changes_nothing(client, mailoutbox):
    sign_up(client)
    link = link_in(mailoutbox[0])

    four_days_later = time.time() + 4 * 24 * 3600
    with mock.patch("django.core.signing.time.time", return_value=four_days_later):
        page = client.get(link)
        client.post(link)

    assert "expired or is invalid" in page.content.decode()
    assert not EmailAddress.objects.get(email="anna@example.org").verified


def test_the_pages_use_the_site_layout(client):
    html = client.get("/accounts/signup/").content.decode()
    assert '<a class="brand" href="/">puerto</a>' in html
    assert "/static/accounts/accounts.css" in html
    assert 'name="username"' in html and 'name="email"' in html
    assert 'href="/accounts/login/' in html
    login = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password/reset/"' in login
