"""Account changes that reach beyond the user row."""

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import DELETED_USERNAME_PREFIX, User
from games.models import Seat
from games.services import hand_seats_to_ai

FORMER_PLAYER = "a former player"


class NotFresh(ValueError):
    """Why an account cannot become a bot account, in the reader's words."""


def become_bot(user: User) -> None:
    """Make ``user`` a bot account, for good. Only a fresh account may: one that has never
    taken a seat, so no person's games, record or rating pass to a program."""
    if Seat.objects.filter(user=user).exists():
        raise NotFresh(gettext("only an account that has never played may become a bot account"))
    User.objects.filter(pk=user.pk).update(is_bot=True)
    user.is_bot = True


def delete_account(user: User) -> None:
    """Anonymise ``user`` and keep their games playable.

    Running games: their seats go to AI players. Open games: their seats are freed. Finished
    games keep the seat under the anonymous name. The row stays (moves point at seats, and
    seats at users), but nothing personal is left on it and nobody can log in as it."""
    with transaction.atomic():
        hand_seats_to_ai(user)
        EmailAddress.objects.filter(user=user).delete()
        Authenticator.objects.filter(user=user).delete()
        user.username = f"{DELETED_USERNAME_PREFIX}{user.pk}"
        user.email = ""
        user.first_name = user.last_name = ""
        user.display_name = FORMER_PLAYER
        user.set_unusable_password()
        user.is_active = False
        user.is_staff = user.is_superuser = False
        user.save()
