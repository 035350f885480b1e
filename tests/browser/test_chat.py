"""The chat in Chromium: a message reaches the other players' pages without a reload; a player
reports it; a moderator with only the moderator group hides it from the queue and suspends
its author; the players' open pages drop it at their next poll. The pages' clocks stand still
but for ``run_for``, so each poll happens when the test says (no sleeps)."""

import pytest
from django.apps import apps
from django.contrib.auth.models import Group
from django.urls import reverse
from playwright.sync_api import Page, expect

from games import services
from games.models import ChatMessage, Game
from moderation.groups import MODERATOR_GROUP, create_moderator_group
from moderation.models import Entry, Report
from tests.browser.test_moderation import run_action
from tests.browser.test_play import open_page  # noqa: F401
from tests.games.test_chat import fresh_rate_limits  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL_MS = 2_500
"""Long enough for the next poll, whichever element polls (the board every second while
others play, the chat every two seconds while the board does not): a swapped-in element
starts polling when htmx settles it, 20 ms (on the page's clock) after the swap."""


def game_page(open_page, user, game: Game) -> Page:  # noqa: F811
    page = open_page(user)
    page.clock.install(time=0)
    page.clock.pause_at(1_000)
    page.goto(game.get_absolute_url())
    return page


def test_a_reported_message_is_hidden_by_a_moderator_and_leaves_every_page(
    open_page,  # noqa: F811
    django_user_model,
):
    anna, bob, chris = (django_user_model.objects.create_user(n) for n in ("anna", "bob", "chris"))
    create_moderator_group(apps)  # the migration's group, emptied by an earlier test's flush
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    moderator.groups.add(Group.objects.get(name=MODERATOR_GROUP))
    game = services.create_game(anna, engine="puerto_rico", num_players=3)
    services.join_game(game.pk, bob)
    services.join_game(game.pk, chris)
    game = Game.objects.get(pk=game.pk)

    anna_page = game_page(open_page, anna, game)
    bob_page = game_page(open_page, bob, game)
    chris_page = game_page(open_page, chris, game)

    chris_page.get_by_label("Your message").fill("you are all idiots <b>!</b>")
    chris_page.get_by_role("button", name="Send").click()
    expect(chris_page.locator("#chat-messages")).to_contain_text("you are all idiots <b>!</b>")
    expect(chris_page.get_by_label("Your message")).to_have_value("")
    message = ChatMessage.objects.get()
    line = f"#chat-{message.pk}"
    for page in (anna_page, bob_page):
        page.clock.run_for(POLL_MS)
        expect(page.locator(line)).to_contain_text("you are all idiots <b>!</b>")
        expect(page.locator(line)).to_contain_text("before the first move")

    # anna reports it from a second tab of the game; her first tab stays open and polls.
    tab = open_page(context=anna_page.context)
    tab.goto(game.get_absolute_url())
    tab.locator(line).get_by_role("link", name="report").click()
    tab.get_by_label("abuse in chat").check()
    tab.get_by_label("What happened").fill("insults everyone")
    tab.get_by_role("button", name="Send the report").click()
    expect(tab.get_by_role("status")).to_contain_text(
        "Thank you: the moderators will look at your report."
    )
    report = Report.objects.get()
    anna_page.clock.run_for(POLL_MS)
    expect(anna_page.locator(line)).to_be_visible()  # still there until a moderator acts

    mod_page = open_page(moderator)
    queue = reverse("admin:moderation_report_changelist")
    mod_page.goto(queue)
    expect(mod_page.locator("#result_list")).to_contain_text("you are all idiots")
    run_action(mod_page, queue, report.pk, "hide", "Insults in the chat.")
    for page in (anna_page, bob_page):
        page.clock.run_for(POLL_MS)
        expect(page.locator(line)).to_have_count(0)
    mod_page.goto(reverse("admin:accounts_user_changelist"))
    mod_page.locator(f"input[name=_selected_action][value='{chris.pk}']").check()
    mod_page.locator("select[name=action]").select_option("suspend")
    mod_page.get_by_role("button", name="Run").or_(
        mod_page.locator("button[name=index]")
    ).first.click()
    mod_page.locator("input[name=days]").fill("7")
    mod_page.locator("textarea[name=reason]").fill("Insults in the chat.")
    mod_page.get_by_role("button", name="Confirm").click()
    expect(mod_page.locator(".messagelist .success")).to_be_visible()
    run_action(mod_page, queue, report.pk, "resolve", "Hidden; suspended for a week.")

    expect(mod_page.locator("#result_list")).to_contain_text("(hidden by a moderator)")
    report.refresh_from_db()
    assert report.status == "resolved"
    assert sorted(Entry.objects.values_list("action", flat=True)) == [
        "hide_message",
        "resolve_report",
        "suspend",
    ]
