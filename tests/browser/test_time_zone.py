"""The browser's time zone: taken at sign-up, and chosen in the profile while the player's is
still the default."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct horse battery staple"


@pytest.fixture
def context(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, locale="en-GB", timezone_id="Europe/Berlin"
    )
    yield context
    context.close()


def test_sign_up_takes_the_browsers_time_zone(context):
    page = context.new_page()
    page.goto("/accounts/signup/")
    page.locator("input[name=username]").fill("anna")
    page.locator("input[name=email]").fill("anna@example.org")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()

    expect(page).to_have_url(f"{page.url.split('/accounts/')[0]}/accounts/confirm-email/")
    assert get_user_model().objects.get(username="anna").time_zone == ("Europe/Berlin")


def test_the_profile_offers_the_browsers_zone_until_one_is_saved(context, live_server):
    user = get_user_model().objects.create_user("anna", "anna@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    sign_in(context, live_server, user)
    page = context.new_page()
    page.goto("/accounts/profile/")
    zone = page.locator("select[name=time_zone]")

    expect(zone).to_have_value("Europe/Berlin")
    expect(page.get_by_text("Your browser's time zone is selected")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    user.refresh_from_db()
    assert user.time_zone == "Europe/Berlin"

    # A zone the player chose stays chosen, whatever the browser says.
    user.time_zone = "Asia/Tokyo"
    user.save()
    page.goto("/accounts/profile/")
    expect(page.locator("select[name=time_zone]")).to_have_value("Asia/Tokyo")
    expect(page.get_by_text("Your browser's time zone is selected")).to_be_hidden()
