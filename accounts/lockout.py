"""Failed logins, counted once for every way in: the login form (``accounts.adapter``), HTTP
Basic on the API (``accounts.authentication``), and any other way that checks a password.

A failure counts for the account its login names (by username or any of its addresses, so
every spelling shares one count; a name that is no account counts as typed) and for the client
address (an IPv6 client by its /64 network, which one subscriber usually holds whole). When a
count reaches its limit within its window (``PUERTO_FAILED_LOGINS_PER_ACCOUNT`` and
``PUERTO_FAILED_LOGINS_PER_ADDRESS``, as failures and seconds), that account or address is
locked for one more window: every login there waits, the right password too, and no password
is hashed meanwhile.

allauth counts failed form logins itself (``ACCOUNT_RATE_LIMITS["login_failed"]``), but its
public functions let every GET through and key the count by a private method, so HTTP Basic
could not share it; this counter takes its place for passwords (two-factor codes keep
allauth's). The counts live in the default cache, through Django's cache API only.
"""

import ipaddress
import math
import time
from hashlib import sha256

from allauth.account.adapter import get_adapter
from allauth.account.signals import password_reset
from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.dispatch import receiver
from django.http import HttpRequest

from accounts.models import User

IPV6_PREFIX = 64
"""IPv6 clients count by network: one subscriber usually gets a whole /64."""


def wait(request: HttpRequest, login: str) -> int:
    """Seconds before ``login`` may be tried again from ``request``'s client; 0: now."""
    now = time.time()
    until = max(
        cache.get_many([_lock(key) for key, _ in _counts(request, login)]).values(), default=0
    )
    return math.ceil(until - now) if until > now else 0


def failed(request: HttpRequest, login: str) -> None:
    """Count a failed login for its account and its client address; lock whichever reached
    its limit for a window from now."""
    now = time.time()
    for key, (limit, seconds) in _counts(request, login):
        if cache.add(key, 1, timeout=seconds):
            count = 1
        else:
            try:
                count = cache.incr(key)
            except ValueError:  # the window ended since ``add``: this failure starts the next
                cache.set(key, 1, timeout=seconds)
                count = 1
        if count >= limit:
            cache.set(_lock(key), now + seconds, timeout=seconds)


@receiver(password_reset, dispatch_uid="accounts.lockout.forgive")
def forgive(sender, *, user: User, **kwargs) -> None:
    """A password reset from the mailed link proves the account's owner: their account's count
    and lock go (as allauth does for its own count); their address's stay."""
    key = _account_key(user.pk)
    cache.delete_many([key, _lock(key)])


def _counts(request: HttpRequest, login: str) -> list[tuple[str, tuple[int, int]]]:
    """The two counts a login at ``request`` feeds, with their (limit, seconds)."""
    return [
        (_account_key(_account(login)), settings.PUERTO_FAILED_LOGINS_PER_ACCOUNT),
        (f"failed-logins:address:{_address(request)}", settings.PUERTO_FAILED_LOGINS_PER_ADDRESS),
    ]


def _account(login: str) -> int | str:
    """The id of the account ``login`` names, else the login itself (hashed: any text)."""
    login = login.strip().lower()
    found = (
        User.objects.filter(Q(username__iexact=login) | Q(emailaddress__email__iexact=login))
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    return found if found is not None else sha256(login.encode()).hexdigest()


def _account_key(account: int | str) -> str:
    return f"failed-logins:account:{account}"


def _address(request: HttpRequest) -> str:
    """The client's address as allauth sees it (``ALLAUTH_TRUSTED_PROXY_COUNT``)."""
    address = ipaddress.ip_address(get_adapter(request).get_client_ip(request))
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


def _lock(key: str) -> str:
    return f"{key}:locked-until"
