from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Event streams")

    def ready(self) -> None:
        from events import journal  # noqa: F401  (connects the signal receivers)
