"""The profile, API tokens and account deletion; allauth's pages share the /accounts/ prefix."""

from django.urls import path

from accounts import views

app_name = "accounts"
urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("language/", views.language, name="language"),
    path("tokens/", views.api_tokens, name="api_tokens"),
    path("tokens/<int:pk>/revoke/", views.revoke_api_token, name="revoke_api_token"),
    path("bot/", views.bot_account, name="bot_account"),
    path("delete/", views.delete_account, name="delete"),
    path("deleted/", views.account_deleted, name="deleted"),
    path("confirm-again/", views.resend_confirmation, name="resend_confirmation"),
]
