from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = _("Hints and reviews")

    def ready(self) -> None:
        from analysis import receivers  # noqa: F401  (connects the signal receivers)
