from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = _("Players")

    def ready(self) -> None:
        from players import receivers  # noqa: F401  (connects the signal receivers)
