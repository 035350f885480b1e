"""Password reset and email change through allauth's pages and the links they mail."""

import datetime
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.tokens import PasswordResetTokenGenerator

from tests.accounts.conftest import PASSWORD, link_in, log_in

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a-new-and-better-one-42"


def request_reset(client, mailoutbox, email="anna@example.org") -> str:
    response = client.post("/accounts/password/reset/", {"email": email})
    assert response["Location"] == "/accounts/password/reset/done/"
    (message,) = mailoutbox
    assert message.to == [email]
    return link_in(message)


@pytest.mark.usefixtures("site_password_hashing")
def test_password_reset_round_trip(client, member, mailoutbox):
    link = request_reset(client, mailoutbox)

    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    assert 'name="password1"' in form_page.content.decode()
    form_url = form_page.redirect_chain[-1][0] if form_page.redirect_chain else link
    done = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302

    member.refresh_from_db()
    assert member.check_password(NEW_PASSWORD)
    assert member.password.startswith("argon2")
    assert log_in(client, "anna", PASSWORD).status_code == 200  # the old one: form again
    assert "_auth_user_id" not in client.session
    assert log_in(client, "anna", NEW_PASSWORD)["Location"] == "/games/mine/"

    client.post("/accounts/logout/")
    used_again = client.get(link, follow=True).content.decode()
    assert "Bad Token" in used_again or "invalid" in used_again


def test_a_forged_reset_link_gives_a_clear_page_and_changes_nothing(client, member, mailoutbox):
    link = request_reset(client, mailoutbox)
    forged = link.rstrip("/")[:-4] + "abcd/"

    page = client.get(forged, follow=True)

    assert page.status_code == 200
    html = page.content.decode()
    assert "Bad Token" in html and "invalid" in html
    assert 'name="password1"' not in html
    member.refresh_from_db()
    assert member.check_password(PASSWORD)


def test_an_expired_reset_link_gives_a_clear_page_and_changes_nothing(
    client, member, mailoutbox, settings
):
    link = request_reset(client, mailoutbox)
    later = datetime.datetime.now() + datetime.timedelta(
        seconds=settings.PASSWORD_RESET_TIMEOUT + 60
    )

    with mock.patch.object(PasswordResetTokenGenerator, "_now", return_value=later):
        page = client.get(link, follow=True)
        html = page.content.decode()
        posted = client.post(
            page.redirect_chain[-1][0] if page.redirect_chain else link,
            {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        )

    assert "Bad Token" in html
    assert posted.status_code in {200, 302}
    member.refresh_from_db()
    assert member.check_password(PASSWORD)


def test_a_reset_for_an_unknown_address_reveals_nothing(client, member, mailoutbox):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response["Location"] == "/accounts/password/reset/done/"
    (message,) = mailoutbox  # the address's owner learns there is no account: no link
    assert message.to == ["nobody@example.org"]
    assert "/accounts/password/reset/key/" not in message.body


def test_a_new_email_address_counts_only_once_verified(client, member, mailoutbox):
    log_in(client, "anna")
    response = client.post(
        "/accounts/email/", {"action_add": "", "email": "anna@example.net"}, follow=True
    )
    assert response.status_code == 200

    member.refresh_from_db()
    assert member.email == "anna@example.org"
    pending = EmailAddress.objects.get(email="anna@example.net")
    assert not pending.verified and not pending.primary
    assert EmailAddress.objects.get(email="anna@example.org").primary
    (message,) = [m for m in mailoutbox if m.to == ["anna@example.net"]]

    client.post(link_in(message))

    member.refresh_from_db()
    assert member.email == "anna@example.net"
    assert EmailAddress.objects.get(email="anna@example.net").primary
    assert EmailAddress.objects.get(email="anna@example.net").verified
    assert not EmailAddress.objects.filter(email="anna@example.org").exists()
    client.post("/accounts/logout/")
    assert log_in(client, "anna@example.net")["Location"] == "/games/mine/"
