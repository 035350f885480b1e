"""The admin of the email outbox, vacations and votes. Games, seats and moves are the
moderation panel's (``moderation.admin``): read-only but for the moderators' actions."""

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.models import DropVote, Notification, Vacation


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
