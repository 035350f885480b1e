"""A moderator with only the moderator group, in the admin: hands a seat to an AI player and
cancels another game, each with a reason; the players' open game pages show it."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.urls import reverse
from playwright.sync_api import Page, expect

from games import services
from games.models import Game
from moderation.groups import MODERATOR_GROUP, create_moderator_group
from tests.browser.test_play import PASSWORD, game_with_governor, make_user, open_page  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def admin_log_in(page: Page, user) -> None:
    page.goto(reverse("admin:login"))
    page.locator("input[name=username]").fill(user.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[type=submit]").click()
    expect(page.locator("#site-name")).to_be_visible()


def run_action(page: Page, changelist: str, pk: int, action: str, reason: str, **choices):
    """Tick one row of an admin list, run ``action``, give the reason, confirm."""
    page.goto(changelist)
    page.locator(f"input[name=_selected_action][value='{pk}']").check()
    page.locator("select[name=action]").select_option(action)
    page.get_by_role("button", name="Run").or_(page.locator("button[name=index]")).first.click()
    for name, label in choices.items():
        page.locator(f"select[name={name}]").select_option(label=label)
    page.locator("textarea[name=reason]").fill(reason)
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator(".messagelist .success")).to_be_visible()


def test_a_moderator_hands_a_seat_to_the_ai_and_cancels_a_game(open_page, django_user_model):  # noqa: F811
    anna = make_user(django_user_model, "anna")
    bob = make_user(django_user_model, "bob")
    chris = make_user(django_user_model, "chris")
    create_moderator_group(apps)  # the migration's group, emptied by an earlier test's flush
    moderator = make_user(django_user_model, "mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    absent_game = game_with_governor(anna, bob)  # waits for anna
    spam = services.create_game(chris, engine="puerto_rico", num_players=3, ai_seats=1)
    services.join_game(spam.pk, bob)
    spam = Game.objects.get(pk=spam.pk)
    watcher = chris if spam.seat_to_act().user_id == bob.pk else bob  # a page that polls

    bob_page = open_page(bob)
    bob_page.goto(absent_game.get_absolute_url())
    watcher_page = open_page(watcher)
    watcher_page.goto(spam.get_absolute_url())
    mod_page = open_page()
    admin_log_in(mod_page, moderator)

    seat = absent_game.seat_to_act()
    run_action(
        mod_page,
        reverse("admin:games_seat_changelist") + f"?game__id__exact={absent_game.pk}",
        seat.pk,
        "to_ai",
        "Away for a month, told us by email.",
        level="AI: medium",
    )
    expect(bob_page.locator(".taken-over")).to_contain_text(
        "anna's seat was handed to the AI for good"
    )
    expect(bob_page.locator(".log")).to_contain_text("anna takes the")  # the AI moved for her
    anna_page = open_page(anna)
    anna_page.goto(absent_game.get_absolute_url())
    expect(anna_page.locator(".taken-over")).to_be_visible()
    expect(anna_page.get_by_role("button", name="Take my seat back from the AI")).to_have_count(0)

    run_action(mod_page, reverse("admin:games_game_changelist"), spam.pk, "cancel", "A test game.")
    expect(watcher_page.locator("#board")).to_contain_text("This game was cancelled.")
    expect(watcher_page.locator(".cancel-reason")).to_have_text("A test game.")
    expect(watcher_page.locator("#game-status")).to_contain_text("cancelled")

    mod_page.goto(reverse("admin:moderation_entry_changelist"))
    expect(mod_page.locator("#result_list")).to_contain_text("Away for a month")
    expect(mod_page.locator("#result_list")).to_contain_text("A test game.")
