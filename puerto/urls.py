"""Site-wide URLs: the home page, the health check, the games, the JSON API, the admin and
sign-in."""

from allauth.account import views as allauth_views
from django.contrib import admin
from django.urls import include, path

from puerto import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("games/", include("games.urls")),
    path("api/", include("games.api_urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # The names of the old sign-in pages, for links that still use them.
    path("accounts/login/", allauth_views.login, name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
    path("admin/", admin.site.urls),
]
