"""How the JSON API knows who asks: a personal token (``Authorization: Bearer``), or HTTP
Basic that waits like the login form; what a token may do (``TokenScopes``); and how often
(``RequestRate``)."""

import math

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions, permissions, throttling

from accounts import lockout, tokens
from accounts.models import ApiToken


class BasicAuthentication(authentication.BasicAuthentication):
    """DRF's HTTP Basic, counting wrong passwords with the login form's (``accounts.lockout``):
    a locked account or address gets 429 with ``Retry-After`` before any password is hashed,
    the right one too, so guessing costs the server nothing once the limit is reached."""

    def authenticate_credentials(self, userid, password, request=None):
        wait = lockout.wait(request, userid)
        if wait:
            raise exceptions.Throttled(wait)
        try:
            return super().authenticate_credentials(userid, password, request)
        except exceptions.AuthenticationFailed:
            lockout.failed(request, userid)
            raise


class BasicAuthenticationScheme(OpenApiAuthenticationExtension):
    """The API's Basic authentication in its OpenAPI schema (drf-spectacular), as HTTP Basic."""

    target_class = BasicAuthentication
    name = "basicAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "basic"}


class TokenAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <token>`` with a personal API token (``accounts.tokens``). A
    wrong token counts as a failed login of the client's address (``accounts.lockout``), the
    same count as wrong passwords: a locked client gets 429 before any token is looked up."""

    def authenticate(self, request):
        words = authentication.get_authorization_header(request).split()
        if not words or words[0].lower() != b"bearer":
            return None
        try:
            (text,) = (word.decode() for word in words[1:])
        except (ValueError, UnicodeError):
            raise exceptions.AuthenticationFailed(
                gettext("the Bearer header must hold one token")
            ) from None
        login = f"token:{tokens.prefix_of(text) or ''}"
        wait = lockout.wait(request, login)
        if wait:
            raise exceptions.Throttled(wait)
        token = tokens.find(text)
        if token is None or not token.user.is_active:
            lockout.failed(request, login)
            raise exceptions.AuthenticationFailed(
                gettext("the token is not valid: revoked, mistyped or never made")
            )
        return token.user, token

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'


class TokenScopes(permissions.BasePermission):
    """A request made with a token changes something only if the token has the view's
    ``token_scope`` (``ApiToken.Scope``); every token reads. Sessions and HTTP Basic may do
    what their account may."""

    def has_permission(self, request, view) -> bool:
        token = request.auth
        if not isinstance(token, ApiToken) or request.method in permissions.SAFE_METHODS:
            return True
        needed = getattr(view, "token_scope", None)
        if needed in token.scopes:
            return True
        self.message = gettext("this token may not do that: it needs the scope %(scope)s") % {
            "scope": needed or "-"
        }
        return False


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """Personal tokens in the OpenAPI schema, as HTTP bearer authentication."""

    target_class = TokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer"}


class RequestRate(throttling.SimpleRateThrottle):
    """At most ``API_RATE`` requests (settings) in any sliding window: per token, per account
    for a session or HTTP Basic, per address for anonymous readers. A client over it gets 429
    with ``Retry-After``; every answer says where it stands
    (``accounts.middleware.RateLimitHeadersMiddleware``)."""

    scope = "api"

    def get_rate(self) -> str | None:
        return settings.API_RATE

    def get_cache_key(self, request, view) -> str:
        if isinstance(request.auth, ApiToken):
            who = f"token:{request.auth.pk}"
        elif request.user.is_authenticated:
            who = f"user:{request.user.pk}"
        else:
            who = f"address:{self.get_ident(request)}"
        return f"throttle:api:{who}"

    def allow_request(self, request, view) -> bool:
        allowed = super().allow_request(request, view)
        if self.rate is not None:
            oldest_leaves = self.duration - (self.now - self.history[-1]) if self.history else 0
            request._request.rate_limit = {
                "Limit": self.num_requests,
                "Remaining": max(0, self.num_requests - len(self.history)),
                "Reset": math.ceil(max(0, oldest_leaves)),
            }
        return allowed
