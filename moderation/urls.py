"""The players' moderation pages, mounted at ``/reports/``."""

from django.urls import path

from moderation import views

app_name = "moderation"
urlpatterns = [path("game/<int:pk>/", views.report, name="report")]
