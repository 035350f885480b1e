"""The moderation panel: games, seats, moves and users are read-only here, and change only
through the moderators' actions (``moderation.services``), each asking for the reason on a
page of its own. Every action lands in the audit log, which nobody can edit."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Case, Count, IntegerField, OuterRef, Subquery, When
from django.db.models.functions import Coalesce
from django.http import Http404, HttpResponseBadRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin
from games import history
from games.forms import whole_number
from games.models import ChatMessage, Game, Move, Result, Seat
from games.services import GameError
from moderation import services
from moderation.models import Entry, Report, Standing

User = get_user_model()


# The reason pages -----------------------------------------------------------------------------


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=services.MAX_REASON,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 60}),
        help_text=_("Required. The audit log keeps it; players affected may read it."),
    )


class SeatToAIForm(ReasonForm):
    level = forms.ChoiceField(
        label=_("AI level"),
        choices=[(level, label) for level, label in Seat.AI.choices if level],
        initial=Seat.AI.MEDIUM,
    )


class SuspendForm(ReasonForm):
    days = forms.IntegerField(label=_("Days"), min_value=1, max_value=services.MAX_SUSPENSION.days)


def with_reason(
    modeladmin: admin.ModelAdmin,
    request,
    queryset,
    *,
    title: str,
    apply: Callable,
    form_class: type[ReasonForm] = ReasonForm,
):
    """Django's intermediate page for an admin action: the form first (the reason, and what
    else the action needs), then ``apply(obj, cleaned_data)`` for each selected object, with
    a message for each refusal."""
    form = form_class(request.POST if "apply" in request.POST else None)
    if form.is_valid():
        done = 0
        for obj in queryset:
            try:
                apply(obj, form.cleaned_data)
            except GameError as error:
                modeladmin.message_user(request, f"{obj}: {error.message}", messages.ERROR)
            else:
                done += 1
        if done:
            modeladmin.message_user(
                request,
                ngettext("Done for %(count)d object.", "Done for %(count)d objects.", done)
                % {"count": done},
                messages.SUCCESS,
            )
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "objects": list(queryset),
        "opts": modeladmin.model._meta,
        "action": request.POST.get("action", ""),
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        "select_across": request.POST.get("select_across", "0"),
    }
    return TemplateResponse(request, "moderation/action.html", context)


class ModeratedAdmin(admin.ModelAdmin):
    """Read-only for everyone (no add, change or delete): changes are the actions'."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_moderate_permission(self, request):
        return request.user.has_perm(services.PERMISSION)


# Games, seats, moves ----------------------------------------------------------------------------


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "ai_level", "colour", "taken_over_at", "dropped", "timed_out_at")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ResultInline(SeatInline):
    """A finished game's rows: each seat's placement and who played it."""

    model = Result
    fields = (
        "position",
        "placement",
        "score",
        "user",
        "played_by",
        "person_decisions",
        "ai_decisions",
    )
    readonly_fields = fields
    show_change_link = False

    def has_view_permission(self, request, obj=None):
        """Part of the game: whoever may see the game sees them."""
        return request.user.has_perm("games.view_game")


@admin.register(Game)
class GameAdmin(ModeratedAdmin):
    list_display = ("pk", "engine", "num_players", "status", "version", "deadline", "created_at")
    list_filter = ("status", "ending", "engine", "on_timeout", "num_players")
    search_fields = ("pk", "seats__user__username", "creator__username")
    date_hierarchy = "created_at"
    readonly_fields = ("moderation",)
    inlines = [SeatInline, ResultInline]
    actions = ["cancel"]

    @admin.display(description=_("moderation"))
    def moderation(self, game: Game) -> str:
        board = reverse("admin:games_game_board", args=[game.pk])
        seats = reverse("admin:games_seat_changelist") + f"?game__id__exact={game.pk}"
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            board,
            gettext("the board at any move, the log, the chat and the reports"),
            seats,
            gettext("the seats (to hand one to an AI player, or back)"),
        )

    @admin.action(description=_("Cancel the selected games"), permissions=["moderate"])
    def cancel(self, request, queryset):
        return with_reason(
            self,
            request,
            queryset,
            title=gettext("Cancel games"),
            apply=lambda game, data: services.cancel_game(request.user, game.pk, data["reason"]),
        )

    def get_urls(self):
        board = self.admin_site.admin_view(self.board_view)
        return [path("<int:pk>/board/", board, name="games_game_board"), *super().get_urls()]

    def board_view(self, request, pk: int):
        """The whole state after any move (``?v=``: the version; default the last), from the
        game's history (``history.state_at``), with every move's log lines, the chat (hidden
        messages too) and the reports. Moderators may see everything: the board is the game's
        moderator's board, and the state beside it is a table of every value, hidden ones
        included. Moderators only, and not one who plays in the game while it runs: the
        board would show their seat what no seat may know (the plantations' order, the VP
        chips, the seed)."""
        if not request.user.has_perm(services.PERMISSION):
            raise PermissionDenied
        game = get_object_or_404(Game, pk=pk)
        if game.status == Game.Status.RUNNING and game.seat_of(request.user) is not None:
            reason = gettext(
                "You play in this game: its moderator board shows what no player may know"
                " before the end. Another moderator can look at it."
            )
            return TemplateResponse(request, "403.html", {"reason": reason}, status=403)
        if game.initial_state is None:
            raise Http404(gettext("the game has not started"))
        try:
            seen = whole_number(request.GET.get("v"), gettext("v must be a version of the game"))
        except ValueError as error:
            return HttpResponseBadRequest(str(error))
        version = game.version if seen is None else seen
        spec = game.spec
        position = history.state_at(game, version)
        state = spec.engine.to_json(position)
        names = game.names()
        moves = [
            {
                "move": move,
                "lines": history.told(game, move.log, names),
                "shown": move.version <= version,
            }
            for move in game.moves.select_related("seat__user", "actor").order_by("version")
        ]
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Game %(number)d at version %(version)d")
            % {"number": game.pk, "version": version},
            "opts": self.model._meta,
            "game": game,
            "version": version,
            "state": state_rows(state),
            # The table drawn for a moderator; the state's table shows the hidden parts.
            **spec.moderator_board_context(position, names),
            "ui_template": spec.template,
            "moves": moves,
            "chat": game.chat_messages.select_related("author").order_by("pk"),
            "reports": game.reports.select_related("reporter", "player").order_by("-pk"),
        }
        return TemplateResponse(request, "moderation/board.html", context)


def state_rows(value, path: str = "") -> list[tuple[str, str]]:
    """A JSON state as (path, value) rows, e.g. ``("players.0.doubloons", "3")``: every value
    readable in one table. A list of plain values stays on one row."""
    if isinstance(value, dict):
        return [
            row
            for key in sorted(value)
            for row in state_rows(value[key], f"{path}.{key}" if path else str(key))
        ]
    if isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        return [
            row for index, item in enumerate(value) for row in state_rows(item, f"{path}.{index}")
        ]
    return [(path, json.dumps(value, ensure_ascii=False))]


@admin.register(Seat)
class SeatAdmin(ModeratedAdmin):
    list_display = ("pk", "game", "user", "ai_level", "position", "taken_over_at", "dropped")
    list_filter = ("ai_level", "dropped", "game__status")
    search_fields = ("user__username", "game__pk")
    actions = ["to_ai", "to_person"]

    @admin.action(
        description=_("Hand the selected seats to an AI player"), permissions=["moderate"]
    )
    def to_ai(self, request, queryset):
        return with_reason(
            self,
            request,
            queryset,
            title=gettext("Hand seats to an AI player"),
            form_class=SeatToAIForm,
            apply=lambda seat, data: services.seat_to_ai(
                request.user, seat.pk, data["level"], data["reason"]
            ),
        )

    @admin.action(
        description=_("Give the selected seats back to their players"), permissions=["moderate"]
    )
    def to_person(self, request, queryset):
        return with_reason(
            self,
            request,
            queryset,
            title=gettext("Give seats back to their players"),
            apply=lambda seat, data: services.seat_to_person(request.user, seat.pk, data["reason"]),
        )


@admin.register(Move)
class MoveAdmin(ModeratedAdmin):
    """The move history is the game's truth: never changed, never deleted."""

    list_display = ("game", "version", "kind", "seat", "actor", "forced", "created_at")
    list_filter = ("kind", "forced")
    search_fields = ("game__pk",)
    readonly_fields = ("told",)

    @admin.display(description=_("log, as the players read it"))
    def told(self, move: Move) -> str:
        names = move.game.names()
        return "\n".join(history.told(move.game, move.log, names))


# The chat and the reports ------------------------------------------------------------------------


class ModeratorsOnlyAdmin(ModeratedAdmin):
    """Seen by moderators only: staff without the permission do not even see it listed."""

    def has_view_permission(self, request, obj=None):
        return self.has_moderate_permission(request)

    def has_module_permission(self, request):
        return self.has_moderate_permission(request)


def board_link(game_id: int, version: int, anchor: str = "") -> str:
    url = reverse("admin:games_game_board", args=[game_id]) + f"?v={version}{anchor}"
    return format_html(
        '<a href="{}">{}</a>',
        url,
        gettext("game %(number)d at version %(version)d") % {"number": game_id, "version": version},
    )


def hide_messages(modeladmin, request, queryset, message_of: Callable):
    """Hide the chat message of each selected object (``message_of``: its message's id)."""
    return with_reason(
        modeladmin,
        request,
        queryset,
        title=gettext("Hide chat messages"),
        apply=lambda obj, data: services.hide_message(
            request.user, message_of(obj), data["reason"]
        ),
    )


@admin.register(ChatMessage)
class ChatMessageAdmin(ModeratorsOnlyAdmin):
    list_display = ("pk", "created_at", "author", "text", "where", "hidden_at")
    list_filter = ("hidden_at",)
    search_fields = ("text", "author__username", "game__pk")
    actions = ["hide"]

    @admin.display(description=_("in the game"))
    def where(self, message: ChatMessage) -> str:
        return board_link(message.game_id, message.version, f"#chat-{message.pk}")

    @admin.action(
        description=_("Hide the selected messages from the players"), permissions=["moderate"]
    )
    def hide(self, request, queryset):
        return hide_messages(self, request, queryset, lambda message: message.pk)


@admin.register(Report)
class ReportAdmin(ModeratorsOnlyAdmin):
    """The queue: open reports first, the most reported subject first, then the newest."""

    list_display = (
        "created_at",
        "times_reported",
        "reason",
        "about",
        "where",
        "text",
        "reporter",
        "status",
    )
    list_filter = ("status", "reason")
    search_fields = ("text", "reporter__username", "player__username", "game__pk")
    readonly_fields = ("where", "about", "handled_by", "handled_at", "resolution")
    actions = ["hide", "resolve", "dismiss"]

    def get_queryset(self, request):
        same = (
            Report.objects.filter(subject=OuterRef("subject"), status=Report.Status.OPEN)
            .order_by()
            .values("subject")
            .annotate(n=Count("pk"))
            .values("n")
        )
        still_open = Case(When(status=Report.Status.OPEN, then=1), default=0)
        # Not super(): it orders by get_ordering before the annotations exist.
        return (
            Report.objects.select_related("reporter", "player", "message")
            .annotate(
                reports=Coalesce(Subquery(same, output_field=IntegerField()), 0),
                open_first=still_open,
            )
            .order_by(*self.get_ordering(request))
        )

    def get_ordering(self, request):
        return ["-open_first", "-reports", "-created_at", "-pk"]

    @admin.display(description=_("reports of it"), ordering="reports")
    def times_reported(self, report: Report) -> int:
        return report.reports

    @admin.display(description=_("about"))
    def about(self, report: Report) -> str:
        if report.message_id:
            hidden = gettext(" (hidden by a moderator)") if report.message.hidden_at else ""
            return format_html("{}: “{}”{}", report.player, report.message.text, hidden)
        return str(report.player or report.game)

    @admin.display(description=_("in the game"))
    def where(self, report: Report) -> str:
        if report.message_id:
            return board_link(report.game_id, report.message.version, f"#chat-{report.message_id}")
        return board_link(report.game_id, report.version)

    @admin.action(description=_("Hide the reported chat messages"), permissions=["moderate"])
    def hide(self, request, queryset):
        return hide_messages(self, request, queryset, lambda report: report.message_id)

    @admin.action(
        description=_("Resolve the selected reports (say what was done)"), permissions=["moderate"]
    )
    def resolve(self, request, queryset):
        return with_reason(
            self,
            request,
            queryset,
            title=gettext("Resolve reports"),
            apply=lambda report, data: services.resolve_report(
                request.user, report.pk, data["reason"]
            ),
        )

    @admin.action(description=_("Dismiss the selected reports"), permissions=["moderate"])
    def dismiss(self, request, queryset):
        return with_reason(
            self,
            request,
            queryset,
            title=gettext("Dismiss reports"),
            apply=lambda report, data: services.dismiss_report(
                request.user, report.pk, data["reason"]
            ),
        )


# The audit log ----------------------------------------------------------------------------------


@admin.register(Entry)
class EntryAdmin(ModeratedAdmin):
    list_display = ("created_at", "moderator", "action", "user", "game", "seat", "reason")
    list_filter = ("action",)
    search_fields = ("moderator__username", "user__username", "game__pk", "reason")
    date_hierarchy = "created_at"


# Users ------------------------------------------------------------------------------------------


class StandingInline(admin.StackedInline):
    model = Standing
    can_delete = False
    readonly_fields = ("muted", "suspended_until", "banned", "reason")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


admin.site.unregister(User)


@admin.register(User)
class ModeratedUserAdmin(UserAdmin):
    """The user admin with the moderators' actions; deleting is the account deletion (the
    account is anonymised and its seats go to the AI), one user at a time, with a reason."""

    inlines = [*UserAdmin.inlines, StandingInline]
    actions = ["warn", "mute", "suspend", "ban", "reinstate"]
    delete_confirmation_template = "moderation/delete_user.html"

    def has_moderate_permission(self, request):
        return request.user.has_perm(services.PERMISSION)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # no bulk deletion: one user, one reason
        return actions

    def _user_action(self, request, queryset, title: str, service, form_class=ReasonForm):
        """The action's form, then ``service(moderator, user, data)`` for each user."""
        return with_reason(
            self,
            request,
            queryset,
            title=title,
            form_class=form_class,
            apply=lambda user, data: service(request.user, user, data),
        )

    def _reasoned(self, request, queryset, title: str, service):
        """An action whose service takes the moderator, the user and the reason alone."""
        return self._user_action(
            request, queryset, title, lambda by, user, data: service(by, user, data["reason"])
        )

    @admin.action(description=_("Warn the selected users (by email)"), permissions=["moderate"])
    def warn(self, request, queryset):
        return self._reasoned(request, queryset, gettext("Warn users"), services.warn)

    @admin.action(description=_("Mute the selected users"), permissions=["moderate"])
    def mute(self, request, queryset):
        return self._reasoned(request, queryset, gettext("Mute users"), services.mute)

    @admin.action(description=_("Suspend the selected users"), permissions=["moderate"])
    def suspend(self, request, queryset):
        return self._user_action(
            request,
            queryset,
            gettext("Suspend users"),
            lambda by, user, data: services.suspend(
                by, user, timedelta(days=data["days"]), data["reason"]
            ),
            SuspendForm,
        )

    @admin.action(description=_("Ban the selected users"), permissions=["moderate"])
    def ban(self, request, queryset):
        return self._reasoned(request, queryset, gettext("Ban users"), services.ban)

    @admin.action(
        description=_("Lift mute, suspension and ban of the selected users"),
        permissions=["moderate"],
    )
    def reinstate(self, request, queryset):
        return self._reasoned(request, queryset, gettext("Reinstate users"), services.reinstate)

    def delete_view(self, request, object_id, extra_context=None):
        """A deletion without a reason is not done: the page asks again."""
        if request.method == "POST":
            refusal = ""
            if not request.POST.get("reason", "").strip():
                refusal = gettext("Say why: the reason is required.")
            elif str(request.user.pk) == str(object_id):
                refusal = gettext("Delete your own account on your profile page.")
            if refusal:
                self.message_user(request, refusal, messages.ERROR)
                return HttpResponseRedirect(request.path)
        return super().delete_view(request, object_id, extra_context)

    def get_deleted_objects(self, objs, request):
        """Nothing is deleted but the account's personal data: no list of related rows (and
        none that would block it), just the account."""
        return [str(obj) for obj in objs], {}, set(), []

    def delete_model(self, request, obj):
        services.delete_account(request.user, obj, request.POST.get("reason", ""))
