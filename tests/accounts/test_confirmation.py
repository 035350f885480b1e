"""Confirming the address logs the player in; the confirmation email can be sent again."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from tests.accounts.conftest import link_in, log_in, sign_up

pytestmark = pytest.mark.django_db
User = get_user_model()
RESEND = "/accounts/confirm-again/"


def test_confirming_the_address_in_the_browser_that_signed_up_logs_the_player_in(
    client, mailoutbox
):
    sign_up(client)
    link = link_in(mailoutbox[0])

    response = client.post(link)

    user = User.objects.get(username="anna")
    assert EmailAddress.objects.get(user=user).verified
    assert int(client.session["_auth_user_id"]) == user.pk
    assert response.status_code == 302 and response["Location"] == "/games/mine/"
    assert client.get("/games/mine/").status_code == 200


def test_the_link_opened_elsewhere_confirms_but_logs_nobody_in(client, mailoutbox):
    sign_up(client)
    elsewhere = Client()

    elsewhere.post(link_in(mailoutbox[0]))

    assert EmailAddress.objects.get(user__username="anna").verified
    assert "_auth_user_id" not in elsewhere.session
    assert elsewhere.get("/games/mine/").status_code == 302


def test_after_a_log_in_unconfirmed_the_page_offers_to_send_the_email_again(client, mailoutbox):
    sign_up(client)
    log_in(client, "anna")

    page = client.get("/accounts/confirm-email/").content.decode()

    assert f'action="{RESEND}"' in page and 'name="email"' in page
    assert "Send it again" in page


def test_send_again_sends_a_fresh_link_that_logs_the_player_in(client, mailoutbox):
    sign_up(client)
    log_in(client, "anna")
    cache.clear()  # the sign-up's mail was long ago: no longer within allauth's rate limit
    mailoutbox.clear()

    response = client.post(RESEND, {"email": "Anna@Example.org"}, follow=True)

    assert response.redirect_chain == [("/accounts/confirm-email/", 302)]
    assert "the email is on its way again" in response.content.decode()
    [message] = mailoutbox
    assert message.to == ["anna@example.org"]
    client.post(link_in(message))
    assert int(client.session["_auth_user_id"]) == User.objects.get(username="anna").pk


def test_send_again_at_most_as_often_as_allauth_sends_it(client, mailoutbox):
    sign_up(client)
    mailoutbox.clear()

    for _ in range(3):
        client.post(RESEND, {"email": "anna@example.org"})

    assert not mailoutbox  # the sign-up's mail went out a moment ago


@pytest.mark.parametrize("email", ["nobody@example.org", "bob@example.org"])
def test_send_again_tells_nobody_which_addresses_have_accounts(client, mailoutbox, email):
    bob = User.objects.create_user("bob", "bob@example.org", "pw")
    EmailAddress.objects.create(user=bob, email=bob.email, verified=True, primary=True)
    sign_up(client)
    cache.clear()
    mailoutbox.clear()

    unknown = client.post(RESEND, {"email": email}, follow=True).content.decode()

    assert not mailoutbox
    assert f"If an account waits for {email} to be confirmed" in unknown


def test_send_again_without_an_address_says_so_and_sends_nothing(client, mailoutbox):
    sign_up(client)
    cache.clear()
    mailoutbox.clear()

    response = client.post(RESEND, {"email": "not an address"}, follow=True)

    assert "Enter a valid email address." in response.content.decode()
    assert not mailoutbox
    assert client.get(RESEND).status_code == 405


def test_the_confirmation_email_greets_from_the_sites_name_not_the_host_asked(
    client, mailoutbox, settings
):
    settings.PUERTO_SITE_URL = "https://puerto.example.org"
    sign_up(client)
    body = mailoutbox[0].body
    assert body.startswith("Hello from puerto!")
    assert "Thank you for using puerto!\npuerto.example.org" in body
