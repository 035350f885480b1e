"""Template context from the accounts app."""


def preferences(request) -> dict:
    """Look at the user before a template renders anything, so its time zone and language
    (``UserPreferencesMiddleware``) are active from the first line of the page."""
    user = getattr(request, "user", None)
    if user is not None:
        user.is_authenticated  # noqa: B018 - evaluating the lazy user activates them
    return {}
