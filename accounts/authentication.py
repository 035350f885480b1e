"""How the JSON API knows who asks: HTTP Basic that waits like the login form."""

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
