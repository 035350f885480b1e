from importlib import import_module

from django.apps import AppConfig
from django.conf import settings


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games import receivers  # noqa: F401  (connects the signal receivers)
        from games.registry import register

        for module in settings.PUERTO_GAMES:
            register(import_module(module).GAME)
