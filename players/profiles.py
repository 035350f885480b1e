"""What a player page and the API show of a player, and of the players someone follows: read
in a fixed number of queries however many games there are, and only the games the reader may
see (``visible_games``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import (
    Count,
    F,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, RowNumber
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.charts import chart
from games.models import Game, Result, Seat
from games.registry import get_ladder
from players.models import Follow, Rating, RatingChange

RECENT_GAMES = 10
CURRENT_GAMES = 20
FAVOURITES = 3
FOLLOWED_GAMES = 50
"""How many games of each list a page shows."""
CHART_LABELS = 8
"""At most this many game numbers under a rating chart."""
HISTORY = 100
"""The rated games of a ladder a player page charts: the latest."""

LAST_SEEN = (
    (timedelta(days=1), "today", _("today")),
    (timedelta(days=7), "this_week", _("this week")),
    (timedelta(days=31), "this_month", _("this month")),
)
NEVER_SEEN = ("long_ago", _("more than a month ago"))
"""Since when a player was last seen, said coarsely: a stranger learns no more than that."""
LAST_SEEN_KEYS = [key for _, key, _ in LAST_SEEN] + [NEVER_SEEN[0]]


def active_player(username: str):
    """The active account of ``username``, else 404: a deleted or blocked account has no page.
    A name no account could have (a NUL, which PostgreSQL refuses) is not looked up."""
    valid = get_user_model().username_validator.regex.fullmatch(username)
    player = valid and get_user_model().objects.filter(username=username, is_active=True).first()
    if not player:
        raise Http404(gettext("no such player"))
    return player


def sees_every_game(viewer, player) -> bool:
    """The player themselves and moderators see all of a player's games."""
    if not viewer.is_authenticated:
        return False
    return viewer.pk == player.pk or viewer.has_perm("games.view_game")


EVERY_GAME, WATCHABLE_GAMES = "every", "watchable"


def visible_games(viewer, player) -> str | None:
    """Which of ``player``'s games ``viewer`` may see: ``EVERY_GAME``, ``WATCHABLE_GAMES``
    (those anyone may watch), or None: none at all (the player hides them)."""
    if sees_every_game(viewer, player):
        return EVERY_GAME
    return WATCHABLE_GAMES if player.games_public else None


def _of_games(shown: str) -> Q:
    """``visible_games``'s answer as a filter on seats and results."""
    return Q() if shown == EVERY_GAME else Q(game__spectators=True)


def last_seen(player) -> tuple[str, str]:
    """(key, words) for when ``player`` was last seen: signed in, or a game of theirs open."""
    seen = Seat.objects.filter(user=player).aggregate(at=Max("seen_at"))["at"]
    latest = max((t for t in (seen, player.last_login) if t is not None), default=None)
    if latest is not None:
        ago = timezone.now() - latest
        for within, key, words in LAST_SEEN:
            if ago < within:
                return key, str(words)
    return NEVER_SEEN[0], str(NEVER_SEEN[1])


def ladder_title(key: str) -> str:
    """The ladder's name as players read it; its key if the game left the shelf."""
    ladder = get_ladder(key)
    return str(ladder.title) if ladder else key


def ranked(ratings):
    """``ratings`` with ``rank``: 1 plus the persons (active accounts) rated higher on the
    same ladder, so equal ratings share a rank, as on the leaderboard with no time limit; a
    bot account's among the bot accounts, which are ranked apart."""
    higher = (
        Rating.objects.filter(
            ladder=OuterRef("ladder"),
            user__isnull=False,
            user__is_active=True,
            user__is_bot=OuterRef("user__is_bot"),
            value__gt=OuterRef("value"),
        )
        .order_by()
        .values("ladder")
        .annotate(n=Count("pk"))
        .values("n")
    )
    above = Coalesce(Subquery(higher, output_field=IntegerField()), Value(0))
    return ratings.annotate(rank=above + 1)


@dataclass
class LadderRating:
    """A player's rating on one ladder and its latest history: (number of the rated game, date,
    value) after each of the last ``HISTORY`` games, from the newcomer's value (game 0) when
    they are all of them."""

    key: str
    title: str
    rating: Rating
    history: list[tuple]

    @property
    def chart(self) -> dict | None:
        points = [(number, [value]) for number, _, value in self.history]
        return chart(points, [self.title], ["blue"], fit=True, labels=CHART_LABELS)


def ladder_ratings(player) -> list[LadderRating]:
    """Each ladder ``player`` has a rating on, with its rank and latest history: two queries,
    and as much drawing, however many games the player has."""
    ratings = list(ranked(Rating.objects.filter(user=player)).order_by("ladder"))
    latest = Window(RowNumber(), partition_by=F("rating_id"), order_by=[F("at").desc(), "-pk"])
    changes = (
        RatingChange.objects.filter(rating__user=player)
        .annotate(back=latest)
        .filter(back__lte=HISTORY)
        .order_by("rating_id", "at", "pk")
    )
    history: dict[int, list[tuple]] = {r.pk: [] for r in ratings}
    games = {r.pk: r.games for r in ratings}
    for rating_id, back, at, before, after in changes.values_list(
        "rating_id", "back", "at", "value_before", "value_after"
    ):
        number = games[rating_id] - back + 1
        if number == 1:
            history[rating_id].append((0, None, before))
        history[rating_id].append((number, at, after))
    return [LadderRating(r.ladder, ladder_title(r.ladder), r, history[r.pk]) for r in ratings]


def record(player, shown: str) -> dict:
    """Finished games played and won, how often at each placement, and the editions played
    most, over the games ``shown``: two queries."""
    rows = Result.objects.filter(
        user=player, game__status=Game.Status.FINISHED, game__imported=False
    ).filter(_of_games(shown))
    by_placement = rows.order_by().values("placement").annotate(n=Count("pk"))
    placements = {row["placement"]: row["n"] for row in by_placement}
    editions: Counter = Counter()
    played = rows.order_by().values("game__engine", "game__options").annotate(n=Count("pk"))
    for row in played:
        game = Game(engine=row["game__engine"], options=row["game__options"])
        editions[(str(game.title), game.variant())] += row["n"]
    return {
        "played": sum(placements.values()),
        "won": placements.get(1, 0),
        "placements": sorted(placements.items()),
        "favourites": [
            {"title": title, "variant": variant, "games": n}
            for (title, variant), n in editions.most_common(FAVOURITES)
        ],
    }


def game_rows(player, shown: str, *, finished: bool) -> list[Seat]:
    """The player's seats in their latest finished games (with ``result`` and any ``review``
    of the player's decisions) or in their running games, newest first, with each game's
    seats and their users: two queries."""
    status = Game.Status.FINISHED if finished else Game.Status.RUNNING
    seats = (
        Seat.objects.filter(_of_games(shown), user=player, game__status=status)
        .filter(game__imported=False)
        .select_related("game", "result", "review")
        .prefetch_related(Prefetch("game__seats", Seat.objects.select_related("user")))
    )
    if finished:
        return list(seats.order_by("-game__finished_at", "-game_id")[:RECENT_GAMES])
    return list(seats.order_by("-game__started_at", "-game_id")[:CURRENT_GAMES])


def following(viewer, player) -> bool | None:
    """Whether ``viewer`` follows ``player``; None where following is no question (not
    signed in, or their own page)."""
    if not viewer.is_authenticated or viewer.pk == player.pk:
        return None
    return Follow.objects.filter(follower=viewer, followed=player).exists()


def profile(viewer, player) -> dict:
    """Everything a player page and ``GET /api/players/<name>/`` show of ``player`` to
    ``viewer``: a fixed number of queries, however many games the player has."""
    shown = visible_games(viewer, player)
    seen_key, seen_words = last_seen(player)
    data = {
        "player": player,
        "last_seen": seen_key,
        "last_seen_words": seen_words,
        "ratings": ladder_ratings(player),
        "games_shown": shown is not None,
        "record": None,
        "recent": [],
        "current": [],
        "following": following(viewer, player),
    }
    if shown is not None:
        data["record"] = record(player, shown)
        data["recent"] = game_rows(player, shown, finished=True)
        data["current"] = game_rows(player, shown, finished=False)
    return data


def followed_games(viewer) -> list[Seat]:
    """The latest games of the players ``viewer`` follows, as the followed players' seats,
    newest first: games they started and games they finished (with ``result``), each where
    ``viewer`` may see it (``visible_games``). One query (two with the moderator check)."""
    seats = Seat.objects.filter(
        user__followers__follower=viewer,
        user__is_active=True,
        game__started_at__isnull=False,
        game__imported=False,
        game__status__in=[Game.Status.RUNNING, Game.Status.FINISHED],
    )
    if not viewer.has_perm("games.view_game"):
        seats = seats.filter(user__games_public=True, game__spectators=True)
    return list(
        seats.annotate(at=Coalesce("game__finished_at", "game__started_at"))
        .select_related("game", "user", "result")
        .order_by(F("at").desc(), "-game_id", "position")[:FOLLOWED_GAMES]
    )
