"""How the JSON API knows who asks: HTTP Basic that waits like the login form."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from accounts import lockout


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
