"""The lobby in the JSON API: open a game, list the open ones, join, leave, add an AI player,
cancel; and the requester's finished games. Each endpoint calls the service the lobby page
calls, and a new game is checked by the lobby's own form (``NewGameForm``)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken
from games import challenges, services
from games.api import (
    MyGames,
    _error,
    _object_body,
    _query_parameters,
    _refused,
    answer_page,
    game_document,
)
from games.api_schemas import (
    ERROR,
    AddAISerializer,
    FinishedGameSerializer,
    GameSerializer,
    NewGameSerializer,
    OpenGameSerializer,
    VoteSerializer,
    page_of,
)
from games.engines.text import holds_bad_text
from games.forms import PERSON, STANDARD, NewGameForm, PageForm, chosen_game
from games.models import Game, Seat
from puerto import rest

PAGE = 50
"""Games on one page of a list."""
AI_LEVEL_PREFIX = "ai:"


def _page(request: Request, items, row) -> Response:
    """One page (``?page=n``) of ``items``, each as ``row(item)``."""
    form = PageForm(rest.query(request))
    page = Paginator(items, PAGE).get_page(form.cleaned_data["page"]) if form.is_valid() else None
    return answer_page(request, form, page, row)


FLAGS = ("rated", "spectators", "chat_public", "bots_allowed")
"""A new game's yes-or-no fields, JSON booleans."""


def form_data(body: dict) -> dict:
    """A new game as JSON (``docs/api.md``) in the lobby form's fields: ``seats`` lists the
    seats after the creator's, each ``"person"``, ``"ai:<level>"`` or ``{"invite": name}``
    (an open seat the challenge holds); ``options`` the engine's
    options by name; ``move_time`` seconds, ``"none"`` or ``"standard"``."""
    data = {
        "game": body.get("game"),
        "num_players": body.get("num_players"),
        "move_time": body.get("move_time", STANDARD),
        "on_timeout": body.get("on_timeout", ""),
    }
    for flag in FLAGS:
        if body.get(flag, flag == "spectators"):
            data[flag] = "on"
    seats = body.get("seats", [])
    if isinstance(seats, list):
        for number, seat in enumerate(seats, start=2):
            if seat == "person" or isinstance(seat, dict):  # open, or held for an invitee
                data[f"seat_{number}"] = PERSON
            elif isinstance(seat, str) and seat.startswith(AI_LEVEL_PREFIX):
                data[f"seat_{number}"] = seat[len(AI_LEVEL_PREFIX) :]
            else:
                data[f"seat_{number}"] = seat  # the form refuses it by name
    options = body.get("options", {})
    if isinstance(options, dict):
        for name, value in options.items():
            if isinstance(value, bool):
                if value:
                    data[f"option_{name}"] = "on"
            else:
                data[f"option_{name}"] = value
    return {key: value for key, value in data.items() if value is not None}


class OpenGames(APIView):
    """Open games waiting for players, the latest first, 50 a page; for a bot account, only
    those that take bots."""

    @extend_schema(
        operation_id="open_games",
        summary="Open games waiting for players",
        parameters=_query_parameters(PageForm),
        responses={200: page_of("OpenGamesPage", OpenGameSerializer), 400: ERROR},
    )
    def get(self, request: Request) -> Response:
        def row(game: Game) -> dict:
            return {
                "id": game.pk,
                "engine": game.engine,
                "num_players": game.num_players,
                "seated": game.seated,
                "rated": game.rated,
                "bots_allowed": game.bots_allowed,
                "creator": game.creator.public_name if game.creator else None,
                "created_at": game.created_at,
            }

        games = Game.objects.waiting_for_players()
        if request.user.is_bot:
            games = games.filter(bots_allowed=True)
        return _page(request, games, row)


class FinishedGames(APIView):
    """The requester's finished games, the latest first, 50 a page, each with its result."""

    @extend_schema(
        operation_id="my_finished_games",
        summary="The requester's finished games",
        parameters=_query_parameters(PageForm),
        responses={200: page_of("FinishedGamesPage", FinishedGameSerializer), 400: ERROR},
    )
    def get(self, request: Request) -> Response:
        seats = (
            Seat.objects.filter(user=request.user, game__status=Game.Status.FINISHED)
            .select_related("game", "result")
            .order_by("-game__finished_at", "-game_id")
        )

        def row(seat: Seat) -> dict:
            result = getattr(seat, "result", None)
            return {
                "id": seat.game_id,
                "engine": seat.game.engine,
                "num_players": seat.game.num_players,
                "rated": seat.game.rated,
                "finished_at": seat.game.finished_at,
                "you": seat.position,
                "placement": result.placement if result else None,
                "score": result.score if result else None,
            }

        return _page(request, seats, row)


class NewGame(APIView):
    """Open a game as the lobby's form does; 201 with the game."""

    token_scope = ApiToken.Scope.CREATE

    @extend_schema(
        operation_id="create_game",
        summary="Open a game (the body: docs/api.md)",
        request=NewGameSerializer,
        responses={
            201: GameSerializer,
            400: ERROR,
            404: OpenApiResponse(ERROR, description="An invited player unknown (no_such_user)."),
        },
    )
    def post(self, request: Request) -> Response:
        body = _object_body(request, _("send the new game as a JSON object"))
        if isinstance(body, Response):
            return body
        if holds_bad_text(body):  # before the form echoes a value in its error
            return _error(400, _("the new game may not hold NUL characters or lone surrogates"))
        not_boolean = [f for f in FLAGS if f in body and not isinstance(body[f], bool)]
        if not_boolean:
            message = _("%(field)s must be true or false") % {"field": not_boolean[0]}
            return _error(400, message, fields={f: [message] for f in not_boolean})
        shape = NewGameSerializer(data=body)
        if not shape.is_valid():
            return _error(400, _("the new game is not valid"), fields=shape.errors)
        data = form_data(body)
        try:
            if not isinstance(data.get("game", ""), str):
                raise ValueError(_("the game must be named by a string, such as puerto_rico"))
            engine = chosen_game(data)
        except ValueError as error:
            return _error(400, str(error), fields={"game": [str(error)]})
        form = NewGameForm(data, engine=engine)
        if not form.is_valid():
            return _error(400, _("the new game is not valid"), fields=form.errors)
        seats = shape.validated_data.get("seats", [])
        invited = [seat["invite"] for seat in seats if isinstance(seat, dict)]
        try:
            with transaction.atomic():  # a challenge refused: no game either
                game = services.create_game(request.user, **form.game_arguments())
                for username in invited:
                    challenges.challenge(game.pk, request.user, username)
        except services.GameError as error:
            return _refused(error)
        game = Game.objects.with_seats().get(pk=game.pk)
        return Response(game_document(game, request.user), status=201)


class Games(NewGame, MyGames):
    """``GET``: the requester's open and running games (``MyGames``); ``POST``: a new one."""


class LobbyAction(APIView):
    """A change to an open game by the requester (``act``), answered with the game."""

    token_scope = ApiToken.Scope.CREATE

    def act(self, request: Request, pk: int) -> None:
        raise NotImplementedError

    def post(self, request: Request, pk: int) -> Response:
        if Game.objects.hidden_from(pk, request.user):
            return _error(404, _("no such game"))
        try:
            self.act(request, pk)
        except services.GameError as error:
            return _refused(error)
        game = Game.objects.with_seats().filter(pk=pk).first()
        if game is None or not game.visible_to(request.user):
            return Response({"id": pk})  # the creator left: the game went with them
        return Response(game_document(game, request.user))


LOBBY_SCHEMA = {
    "request": None,
    "responses": {200: GameSerializer, 403: ERROR, 404: ERROR, 409: ERROR},
}


class JoinGame(LobbyAction):
    """Take a free seat; the game starts when the last one is taken."""

    @extend_schema(operation_id="join_game", summary="Join an open game", **LOBBY_SCHEMA)
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)

    def act(self, request: Request, pk: int) -> None:
        services.join_game(pk, request.user)


class LeaveGame(LobbyAction):
    """Give up one's seat in an open game."""

    @extend_schema(operation_id="leave_game", summary="Leave an open game", **LOBBY_SCHEMA)
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)

    def act(self, request: Request, pk: int) -> None:
        services.leave_game(pk, request.user)


class CancelGame(LobbyAction):
    """The creator calls off an open game."""

    @extend_schema(operation_id="cancel_game", summary="Cancel an open game", **LOBBY_SCHEMA)
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)

    def act(self, request: Request, pk: int) -> None:
        services.cancel_game(pk, request.user)


class AddAI(LobbyAction):
    """The creator seats an AI player (``{"level": "easy"}``; medium when left out)."""

    @extend_schema(
        operation_id="add_ai",
        summary="Seat an AI player in an open game",
        request=AddAISerializer,
        responses=LOBBY_SCHEMA["responses"],
    )
    def post(self, request: Request, pk: int) -> Response:
        body = request.data  # {} without a body
        if not isinstance(body, dict) or not isinstance(body.get("level", ""), str):
            return _error(400, _('send the AI level as a JSON object: {"level": "easy"}'))
        return super().post(request, pk)

    def act(self, request: Request, pk: int) -> None:
        services.add_ai(pk, request.user, request.data.get("level") or Seat.AI.MEDIUM)


class TakeSeatBack(LobbyAction):
    """Play one's seat again after the AI took it over on a timeout (409 when the others
    handed it to the AI for good)."""

    token_scope = ApiToken.Scope.PLAY

    @extend_schema(operation_id="take_seat_back", summary="Take your seat back", **LOBBY_SCHEMA)
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)

    def act(self, request: Request, pk: int) -> None:
        services.take_seat_back(pk, request.user)


class VoteToDrop(LobbyAction):
    """One vote to hand a timed-out player's seat to an AI player for good
    (``{"position": n}``, the seat's position as a game's ``seats`` give it)."""

    token_scope = ApiToken.Scope.PLAY

    @extend_schema(
        operation_id="vote_to_drop",
        summary="Vote to hand a timed-out seat to the AI for good",
        request=VoteSerializer,
        responses=LOBBY_SCHEMA["responses"],
    )
    def post(self, request: Request, pk: int) -> Response:
        body = request.data
        position = body.get("position") if isinstance(body, dict) else None
        if not services.is_whole_number(position):
            return _error(400, _('send the seat as a JSON object: {"position": 2}'))
        return super().post(request, pk)

    def act(self, request: Request, pk: int) -> None:
        seat = Seat.objects.filter(game_id=pk, position=request.data["position"]).first()
        if seat is None:
            raise services.Conflict(_("there is no vote on that seat"), "no_vote")
        services.vote_to_drop(pk, request.user, seat.pk)
