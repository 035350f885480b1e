"""Site-wide URLs: the home page, the health check, the metrics, the games, the players, the
JSON API, reports, the admin, sign-in, the visitors' language switch and the favicon browsers
ask for at the root."""

from allauth.account import views as allauth_views
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView

from puerto import metrics, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("metrics", metrics.metrics, name="metrics"),
    path("games/", include("games.urls")),
    path("games/", include("analysis.urls")),
    path("players/", include("players.urls")),
    path("api/", include("games.api_urls")),
    path("reports/", include("moderation.urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # The names of the old sign-in pages, for links that still use them.
    path("accounts/login/", allauth_views.login, name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
    path("admin/", admin.site.urls),
    # The moderation panel is the admin; moderators remember this address.
    path("moderation/", RedirectView.as_view(pattern_name="admin:index"), name="moderation"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg"))),
]

handler404 = views.not_found
handler500 = views.server_error
