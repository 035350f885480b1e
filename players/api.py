"""The JSON API of players and ratings (routes in ``games.api_urls``): a player's profile as
their page shows it to the requester, the leaderboards, and following a player."""

from __future__ import annotations

from django.core.paginator import EmptyPage
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken
from games.api import ERROR, _error
from games.models import Game, Seat
from games.registry import get_ladder, ladders
from players import follows, leaderboards, profiles
from players.forms import ACTIVE_CHOICES, LAST_PAGE, LeaderboardForm
from puerto import rest

# Serializers: what each answer holds, for the OpenAPI schema and for the answer itself. ----


class RatingPointSerializer(serializers.Serializer):
    game = serializers.IntegerField(
        help_text="The rated game on the ladder it follows: 1 the first; 0 the newcomer's rating."
    )
    at = serializers.DateTimeField(
        allow_null=True, help_text="When the game finished; null for the newcomer's rating."
    )
    value = serializers.IntegerField()


class LadderRatingSerializer(serializers.Serializer):
    ladder = serializers.CharField(help_text="The ladder's key, as in /api/ratings/<ladder>/.")
    title = serializers.CharField()
    value = serializers.IntegerField(help_text="The rating players read.")
    provisional = serializers.BooleanField(help_text="Fewer rated games than it takes to settle.")
    games = serializers.IntegerField(help_text="Rated games on this ladder.")
    wins = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1 plus the persons rated higher on the ladder.")
    last_game_at = serializers.DateTimeField(allow_null=True)
    history = RatingPointSerializer(
        many=True, help_text="The rating after each of the latest rated games (100 at most)."
    )


class PlacementSerializer(serializers.Serializer):
    placement = serializers.IntegerField()
    games = serializers.IntegerField()


class FavouriteSerializer(serializers.Serializer):
    title = serializers.CharField(help_text="The game.")
    variant = serializers.CharField(help_text="Its edition in words; empty if it has none.")
    games = serializers.IntegerField()


class RecordSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Finished games.")
    won = serializers.IntegerField(help_text="Finished games placed first (ties included).")
    placements = PlacementSerializer(many=True)
    favourites = FavouriteSerializer(many=True, help_text="The games and editions played most.")


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    username = serializers.CharField(allow_null=True, help_text="null for an AI player.")
    ai = serializers.BooleanField()


class PlayerGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    engine = serializers.CharField()
    title = serializers.CharField()
    variant = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    rated = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    placement = serializers.IntegerField(allow_null=True, help_text="null while it runs.")
    score = serializers.IntegerField(allow_null=True)
    seats = SeatSerializer(many=True)
    url = serializers.CharField(help_text="The game page.")
    replay_url = serializers.CharField(allow_null=True, help_text="null while it runs.")


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(help_text="The name others see.")
    member_since = serializers.DateTimeField()
    last_seen = serializers.ChoiceField(
        choices=profiles.LAST_SEEN_KEYS, help_text="When last seen on the site, coarsely."
    )
    games_shown = serializers.BooleanField(
        help_text="false: the player keeps their games to themselves (record and lists null)."
    )
    ratings = LadderRatingSerializer(many=True)
    record = RecordSerializer(allow_null=True)
    recent_games = PlayerGameSerializer(many=True, allow_null=True)
    current_games = PlayerGameSerializer(many=True, allow_null=True)
    following = serializers.BooleanField(
        allow_null=True, help_text="Whether you follow them; null if not signed in or yourself."
    )
    url = serializers.CharField(help_text="The player page.")


class LadderSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    player_counts = serializers.ListField(child=serializers.IntegerField())
    url = serializers.CharField(help_text="Its leaderboard in the API.")
    page_url = serializers.CharField(help_text="Its leaderboard page.")


class LaddersSerializer(serializers.Serializer):
    ladders = LadderSerializer(many=True)


class EntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Equal ratings share a rank.")
    username = serializers.CharField()
    name = serializers.CharField()
    value = serializers.IntegerField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    last_game_at = serializers.DateTimeField(allow_null=True)


class AiRatingSerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=[c for c in Seat.AI.choices if c[0]])
    name = serializers.CharField()
    value = serializers.IntegerField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()


class LeaderboardSerializer(serializers.Serializer):
    ladder = serializers.CharField()
    title = serializers.CharField()
    active = serializers.ChoiceField(
        choices=[key for key, _ in ACTIVE_CHOICES],
        help_text="Persons with a rated game in the last N days, or all.",
    )
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    count = serializers.IntegerField(help_text="Persons on the leaderboard, on every page.")
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = EntrySerializer(many=True, help_text="Persons only, best first.")
    ai_levels = AiRatingSerializer(many=True, help_text="The AI levels, apart from persons.")
    bots = EntrySerializer(many=True, help_text="The bot accounts, apart from persons, best first.")


class FollowSerializer(serializers.Serializer):
    following = serializers.BooleanField()


# The answers --------------------------------------------------------------------------------


def _game(seat: Seat) -> dict:
    game = seat.game
    finished = game.status == Game.Status.FINISHED
    result = getattr(seat, "result", None) if finished else None
    return {
        "id": game.pk,
        "engine": game.engine,
        "title": str(game.title),
        "variant": game.variant(),
        "status": game.status,
        "rated": game.rated,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "placement": result.placement if result else None,
        "score": result.score if result else None,
        "seats": [
            {
                "position": s.position,
                "name": s.name,
                "username": s.user.username if s.user_id else None,
                "ai": s.is_ai,
            }
            for s in game.seats.all()
        ],
        "url": game.get_absolute_url(),
        "replay_url": reverse("games:replay", args=[game.pk]) if finished else None,
    }


def _rating(entry: profiles.LadderRating) -> dict:
    rating = entry.rating
    return {
        "ladder": entry.key,
        "title": entry.title,
        "value": rating.value,
        "provisional": rating.provisional,
        "games": rating.games,
        "wins": rating.wins,
        "rank": rating.rank,
        "last_game_at": rating.last_game_at,
        "history": [
            {"game": number, "at": at, "value": value} for number, at, value in entry.history
        ],
    }


def _record(record: dict | None) -> dict | None:
    if record is None:
        return None
    placements = [{"placement": p, "games": n} for p, n in record["placements"]]
    return {**record, "placements": placements}


def _no_body(request: Request) -> Response | None:
    """These endpoints take no body: one that does not parse, or says anything, is a 400."""
    if request.body and request.data not in ({}, None):
        return _error(400, _("send no body: the address says whom to follow"))
    return None


def _player_or_404(username: str):
    try:
        return profiles.active_player(username), None
    except Http404 as missing:
        return None, _error(404, str(missing))


class PlayerDetail(APIView):
    """A player as their page shows them to the requester: ratings with their history, and
    (unless they keep them to themselves) their record and games."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="player",
        summary="A player's ratings and games",
        responses={200: PlayerSerializer, 404: ERROR},
    )
    def get(self, request: Request, username: str) -> Response:
        player, missing = _player_or_404(username)
        if missing:
            return missing
        data = profiles.profile(request.user, player)
        shown = data["games_shown"]
        body = {
            "username": player.username,
            "name": player.public_name,
            "member_since": player.date_joined,
            "last_seen": data["last_seen"],
            "games_shown": shown,
            "ratings": [_rating(r) for r in data["ratings"]],
            "record": _record(data["record"]),
            "recent_games": [_game(s) for s in data["recent"]] if shown else None,
            "current_games": [_game(s) for s in data["current"]] if shown else None,
            "following": data["following"],
            "url": reverse("players:player", args=[player.username]),
        }
        return Response(PlayerSerializer(body).data)


class PlayerFollow(APIView):
    """Follow a player (``POST``) or stop (``DELETE``); either twice changes nothing."""

    token_scope = ApiToken.Scope.CREATE

    def _set(self, request: Request, username: str, on: bool) -> Response:
        refused = _no_body(request)
        if refused:
            return refused
        player, missing = _player_or_404(username)
        if missing:
            return missing
        try:
            follows.set_following(request.user, player, on)
        except follows.CannotFollow as refusal:
            return _error(400, str(refusal))
        return Response(FollowSerializer({"following": on}).data)

    @extend_schema(
        operation_id="follow",
        summary="Follow a player",
        request=None,
        responses={200: FollowSerializer, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    def post(self, request: Request, username: str) -> Response:
        return self._set(request, username, True)

    @extend_schema(
        operation_id="unfollow",
        summary="Stop following a player",
        request=None,
        responses={200: FollowSerializer, 400: ERROR, 403: ERROR, 404: ERROR},
    )
    def delete(self, request: Request, username: str) -> Response:
        return self._set(request, username, False)


class Ladders(APIView):
    """Every rating ladder, with the addresses of its leaderboard."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="ladders", summary="The rating ladders", responses={200: LaddersSerializer}
    )
    def get(self, request: Request) -> Response:
        rows = [
            {
                "key": ladder.key,
                "title": str(ladder.title),
                "player_counts": list(ladder.player_counts),
                "url": reverse("api:leaderboard", args=[ladder.key]),
                "page_url": reverse("players:leaderboard", args=[ladder.key]),
            }
            for ladder in ladders()
        ]
        return Response(LaddersSerializer({"ladders": rows}).data)


QUERY = [
    OpenApiParameter(
        "active",
        str,
        enum=[key for key, _ in ACTIVE_CHOICES],
        description="Only persons with a rated game in the last N days (default 90).",
    ),
    OpenApiParameter(
        "page",
        {"type": "integer", "minimum": 1, "maximum": LAST_PAGE},
        description="From 1; 50 persons a page; past the last, 404.",
    ),
]


def _entries(ratings) -> list[dict]:
    """Ratings with their ``rank`` as a leaderboard's rows (``EntrySerializer``)."""
    return [
        {
            "rank": r.rank,
            "username": r.user.username,
            "name": r.user.public_name,
            "value": r.value,
            "provisional": r.provisional,
            "games": r.games,
            "wins": r.wins,
            "last_game_at": r.last_game_at,
        }
        for r in ratings
    ]


class Leaderboard(APIView):
    """One ladder's persons, best first, a page at a time, and its AI levels apart."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="leaderboard",
        summary="A ladder's leaderboard",
        parameters=QUERY,
        responses={200: LeaderboardSerializer, 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request, ladder: str) -> Response:
        board = get_ladder(ladder)
        if board is None:
            return _error(404, _("There is no such leaderboard."))
        form = LeaderboardForm(rest.query(request))
        if not form.is_valid():
            return _error(400, form.first_error())
        active, number = form.cleaned_data["active"], form.cleaned_data["page"]
        try:
            page = leaderboards.page_of(board, active, number)
        except EmptyPage:
            return _error(404, _("The leaderboard has no such page."))

        def link(n: int | None) -> str | None:
            url = reverse("api:leaderboard", args=[board.key])
            return request.build_absolute_uri(f"{url}?active={active}&page={n}") if n else None

        body = {
            "ladder": board.key,
            "title": str(board.title),
            "active": active,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "count": page.paginator.count,
            "next": link(page.next_page_number() if page.has_next() else None),
            "previous": link(page.previous_page_number() if page.has_previous() else None),
            "results": _entries(page),
            "bots": _entries(leaderboards.bots(board)),
            "ai_levels": [
                {
                    "level": r.ai_level,
                    "name": r.get_ai_level_display(),
                    "value": r.value,
                    "provisional": r.provisional,
                    "games": r.games,
                    "wins": r.wins,
                }
                for r in leaderboards.ai_levels(board)
            ],
        }
        return Response(LeaderboardSerializer(body).data)
