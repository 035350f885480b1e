"""Pages in the signed-in player's own time zone and language."""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth.middleware import get_user
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject


def activate_preferences(request, user) -> None:
    """Use ``user``'s time zone and language for the rest of this request."""
    try:
        timezone.activate(ZoneInfo(user.time_zone))
    except (ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()
    if user.language and translation.check_for_language(user.language):
        translation.activate(user.language)
        request.LANGUAGE_CODE = translation.get_language()


def activate_now(request) -> None:
    """Use the signed-in reader's time zone and language from here on, for a view that says
    something before it has looked at who is asking."""
    request.user.is_authenticated  # noqa: B018 - looking at the user activates them


class UserPreferencesMiddleware:
    """Activate the user's time zone and language (visitors: UTC, and the language that
    ``LocaleMiddleware`` chose from their browser).

    It happens when the request's user is first looked at, not before: a view that never asks
    who is calling (the cheap polling and version endpoints) costs no session or user query.
    Every page that renders anything personal looks at the user first."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.deactivate()

        def load_user():
            user = get_user(request)
            if user.is_authenticated:
                activate_preferences(request, user)
            return user

        request.user = SimpleLazyObject(load_user)
        return self.get_response(request)


class RateLimitHeadersMiddleware:
    """``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (seconds until a request leaves
    the window) on every answer the API's rate counted (``accounts.authentication.RequestRate``)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        for name, value in getattr(request, "rate_limit", {}).items():
            response[f"X-RateLimit-{name}"] = str(value)
        return response
