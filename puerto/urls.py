"""Site-wide URLs: the home page, the health check, the games, the JSON API, the admin and
sign-in."""

from django.contrib import admin
from django.urls import include, path

from puerto import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("games/", include("games.urls")),
    path("api/", include("games.api_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
