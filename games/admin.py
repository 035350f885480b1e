"""The admin for moderators: games with their seats, moves, the email outbox, vacations."""

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import DropVote, Game, Move, Notification, Seat, Vacation
from games.ui import get_ui


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "ai_level", "colour", "taken_over_at", "dropped", "timed_out_at")
    readonly_fields = ("position", "colour")
    raw_id_fields = ("user",)
    show_change_link = True


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "pk",
        "engine",
        "num_players",
        "status",
        "version",
        "move_time",
        "on_timeout",
        "deadline",
        "created_at",
    )
    list_filter = ("status", "engine", "on_timeout", "num_players")
    search_fields = ("pk", "seats__user__username", "creator__username")
    date_hierarchy = "created_at"
    readonly_fields = (
        "version",
        "current_position",
        "turn_started_at",
        "seed",
        "invite_code",
        "started_at",
        "finished_at",
        "created_at",
    )
    raw_id_fields = ("creator",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("pk", "game", "user", "ai_level", "position", "taken_over_at", "dropped")
    list_filter = ("ai_level", "dropped")
    search_fields = ("user__username", "game__pk")
    raw_id_fields = ("game", "user")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """The move history is the game's truth: read-only here (moves go through services)."""

    list_display = ("game", "version", "seat", "actor", "forced", "created_at")
    list_filter = ("forced",)
    search_fields = ("game__pk",)
    raw_id_fields = ("game", "seat", "actor")
    readonly_fields = ("told",)

    @admin.display(description=_("log, as the players read it"))
    def told(self, move: Move) -> str:
        names = move.game.names()
        describe = get_ui(move.game.engine).describe_event
        return "\n".join(describe(event, names) for event in move.log)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = (
        "pk",
        "kind",
        "user",
        "game",
        "status",
        "attempts",
        "created_at",
        "sent_at",
        "last_error",
    )
    list_filter = ("kind", ("sent_at", admin.EmptyFieldListFilter), "discarded_at")
    search_fields = ("user__username", "user__email", "dedupe_key", "game__pk")
    date_hierarchy = "created_at"
    raw_id_fields = ("user", "game")
    readonly_fields = ("dedupe_key", "created_at", "sent_at")
    actions = ["retry"]

    @admin.display(description=_("status"))
    def status(self, obj):
        return {"sent": _("sent"), "discarded": _("discarded"), "pending": _("pending")}[obj.status]

    @admin.action(description=_("Retry the selected unsent emails now"))
    def retry(self, request, queryset):
        count = queryset.filter(sent_at__isnull=True).update(
            discarded_at=None, attempts=0, next_attempt_at=timezone.now(), last_error=""
        )
        messages.info(
            request,
            ngettext(
                "%(count)d email goes out with the next sweep (within a minute).",
                "%(count)d emails go out with the next sweep (within a minute).",
                count,
            )
            % {"count": count},
        )


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ("user", "start", "end", "settled")
    list_filter = ("settled",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(DropVote)
class DropVoteAdmin(admin.ModelAdmin):
    list_display = ("seat", "voter", "created_at")
    raw_id_fields = ("seat", "voter")
