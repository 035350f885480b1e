"""The leaderboards: persons ranked by the rating they read, those active lately by default,
and the AI levels and bot accounts on tables of their own (neither is ever in the persons'
ranking)."""

from __future__ import annotations

from datetime import timedelta

from django.core.paginator import Paginator
from django.db.models import F, Window
from django.db.models.functions import Rank, RowNumber
from django.utils import timezone

from games.registry import Ladder, ladders
from players.models import Rating

PER_PAGE = 50
TOP = 10
"""Persons on each ladder of the overview."""


def persons(active: str):
    """The persons' ratings with ``rank`` on their ladder (equal ratings share one), of
    players with a rated game in the last ``active`` days (``"all"``: any time)."""
    rows = Rating.objects.filter(user__isnull=False, user__is_active=True, user__is_bot=False)
    if active != "all":
        rows = rows.filter(last_game_at__gte=timezone.now() - timedelta(days=int(active)))
    by_value = F("value").desc()
    return (
        rows.select_related("user")
        .annotate(rank=Window(Rank(), partition_by=F("ladder"), order_by=by_value))
        .order_by("ladder", "-value", "-games", "pk")
    )


def ai_levels(ladder: Ladder) -> list[Rating]:
    return list(Rating.objects.filter(ladder=ladder.key).exclude(ai_level="").order_by("-value"))


def bots(ladder: Ladder) -> list[Rating]:
    """The bot accounts' ratings on ``ladder``, best first, with ``rank`` among them (equal
    ratings share one)."""
    rows = Rating.objects.filter(ladder=ladder.key, user__is_bot=True, user__is_active=True)
    rank = Window(Rank(), order_by=F("value").desc())
    return list(rows.select_related("user").annotate(rank=rank).order_by("-value", "-games"))


def page_of(ladder: Ladder, active: str, number: int):
    """One page (``PER_PAGE`` persons) of the ladder's leaderboard; ``EmptyPage`` past the
    last. Two queries: the count and the page."""
    return Paginator(persons(active).filter(ladder=ladder.key), PER_PAGE).page(number)


def tops(active: str) -> list[tuple[Ladder, list[Rating]]]:
    """Each ladder with its first ``TOP`` persons, in one query."""
    place = Window(RowNumber(), partition_by=F("ladder"), order_by=[F("value").desc(), "-games"])
    top = list(persons(active).annotate(place=place).filter(place__lte=TOP))
    return [(ladder, [r for r in top if r.ladder == ladder.key]) for ladder in ladders()]
