"""The site itself as an app: its system checks (puerto/checks.py) and housekeeping tasks."""

from django.apps import AppConfig


class PuertoConfig(AppConfig):
    name = "puerto"
    verbose_name = "puerto"

    def ready(self) -> None:
        from puerto import checks  # noqa: F401  (registers them)
