"""The JSON API for clients and bots: a game as its requester may see it, its version, and moves.

Thin like the HTML views: every change goes through ``services.submit_move``, and a game is
shown only through the engine's ``player_view``, so hidden information never leaves.
"""

from __future__ import annotations

from django import forms
from django.db.models import F
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils.choices import flatten_choices
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts.authentication import TokenScopes
from accounts.models import ApiToken
from games import chat, rates, services, transfer
from games.api_schemas import (
    ERROR,
    GameSerializer,
    ImportAnswerSerializer,
    MoveAnswerSerializer,
    MoveRequestSerializer,
    MyGamesSerializer,
    UndoAnswerSerializer,
    UndoRequestSerializer,
    page_of,
)
from games.forms import ArchiveForm, PageForm
from games.models import VISIBILITY_FIELDS, Game, Move, Seat
from games.registry import get_game
from games.views import (
    MAX_MOVE_BODY,
    archive_page,
    http_status,
    listed_players,
    too_large,
    watch_page,
)
from puerto import refusals, rest


def _error(status: int, message: str, code: str = "", **extra) -> Response:
    """A refusal in the API's one shape (``puerto.refusals``)."""
    return Response(refusals.body(status, message, code, **extra), status=status)


def _refused(error: services.GameError, **extra) -> Response:
    """A refusal with its status, reason, code and params, and ``Retry-After`` past a rate
    limit."""
    response = _error(http_status(error), error.message, error.code, params=error.params, **extra)
    if isinstance(error, rates.TooFast):
        response["Retry-After"] = str(error.retry_after)
    return response


def _seated_user(request: Request):
    user = request.user
    return user if user.is_authenticated else None


def _visible_game(request: Request, pk: int) -> Game | None:
    """The game (seats prefetched) if the requester may see it (``Game.visible_to``), else
    None: a game hidden from them is answered like one that does not exist."""
    game = Game.objects.with_seats().filter(pk=pk).first()
    if game is None or not game.visible_to(request.user):
        return None
    return game


def game_document(game: Game, user) -> dict:
    """A game as ``user`` may know it (seats prefetched): their seat's view, and their legal
    actions when it is their turn. What a read answers, and what a move answers with, so a
    client that moves again need not read the game first."""
    mine = game.seat_of(user)
    you = mine.position if mine else None
    data = {
        "id": game.pk,
        "engine": game.engine,
        "status": game.status,
        "version": game.version,
        "num_players": game.num_players,
        "rated": game.rated,
        "spectators": game.spectators,
        "bots_allowed": game.bots_allowed,
        "seats": [
            {
                "position": s.position,
                "name": s.name,
                "ai": s.is_ai,
                "bot": s.is_bot,
                "taken_over": s.taken_over,
                "vote_open": s.timed_out_at is not None and not s.is_ai,
            }
            for s in game.seats.all()
        ],
        "to_act": game.current_position,
        "you": you,
        "view": None,
        "legal_actions": None,
        "legal_schema": None,
        "legal_count": None,
        "result": transfer.result(game) if game.status == Game.Status.FINISHED else None,
    }
    if game.state is not None:
        rules = game.rules
        state = rules.from_json(game.state)
        data["view"] = rules.player_view(state, you)
        acting = game.status == Game.Status.RUNNING and game.current_position == you
        if you is not None and acting:
            legal = rules.legal_actions(state)
            data["legal_count"] = len(legal)
            # The mayor's placements are a sequence computed on demand, often thousands
            # long: their number and the schema a client builds a placement from.
            if isinstance(legal, list):
                data["legal_actions"] = [rules.action_to_json(a) for a in legal]
            else:
                data["legal_schema"] = rules.legal_schema(state)
    return data


class GameDetail(APIView):
    """A game as the requester may know it; spectators (and anonymous readers, as on the
    public game page) get the spectator's view."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="game",
        summary="Read a game",
        responses={200: GameSerializer, 404: ERROR},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = _visible_game(request, pk)
        if game is None:
            return _error(404, _("no such game"))
        return Response(game_document(game, _seated_user(request)))


class MyGames(APIView):
    """The requester's open and running games, those waiting for their move first, then the
    longest waiting: ``?waiting=1`` keeps only those. What a client polls to learn where it
    is to move: one query, no game state read. ``?documents=1``: each game waiting for the
    requester's move also carries its ``game`` document (as ``GET /api/games/<id>/`` answers),
    two queries more in all, so a client can move without reading each game first."""

    @extend_schema(
        operation_id="my_games",
        summary="The requester's open and running games",
        parameters=[
            OpenApiParameter("waiting", bool, description="Only those waiting for your move."),
            OpenApiParameter("documents", bool, description="Each such game's document too."),
        ],
        responses={200: MyGamesSerializer, 400: ERROR},
    )
    def get(self, request: Request) -> Response:
        seats = (
            Seat.objects.filter(
                user=request.user, game__status__in=[Game.Status.OPEN, Game.Status.RUNNING]
            )
            .with_your_turn()
            .order_by("-your_turn", F("game__turn_started_at").asc(nulls_last=True), "game_id")
            .values(
                "game_id",
                "position",
                "your_turn",
                "game__engine",
                "game__status",
                "game__version",
                "game__current_position",
                "game__turn_started_at",
            )
        )
        if _flag(request, "waiting"):
            seats = seats.filter(your_turn=True)
        listed = [
            {
                "id": row["game_id"],
                "engine": row["game__engine"],
                "status": row["game__status"],
                "version": row["game__version"],
                "to_act": row["game__current_position"],
                "you": row["position"],
                "your_turn": row["your_turn"],
                "turn_started_at": row["game__turn_started_at"],
            }
            for row in seats
        ]
        if _flag(request, "documents"):
            waiting = [row["id"] for row in listed if row["your_turn"]]
            loaded = Game.objects.with_seats().in_bulk(waiting)
            for row in listed:
                if row["id"] in loaded:
                    row["game"] = game_document(loaded[row["id"]], request.user)
        return Response({"games": listed})


FLAG = {"": False, "0": False, "false": False, "1": True, "true": True}
"""A yes-or-no query parameter's spellings."""


def _flag(request: Request, name: str) -> bool:
    """A yes-or-no query parameter, absent: no; any other spelling is a 400."""
    values = request.query_params.getlist(name)
    if any(value not in FLAG for value in values):
        message = _("%(field)s must be true or false") % {"field": name}
        raise exceptions.ValidationError({name: [message]})
    return any(FLAG[value] for value in values)


@require_GET
def game_version(request: HttpRequest, pk: int) -> JsonResponse:
    """What a waiting client polls, so as cheap as the HTML poll: for a game anyone may watch
    one indexed query, no session lookup and none of REST framework's negotiation (its version
    and seat to act are public, as on its page). A game only its players may watch is answered
    only to those who may see it, the requester authenticated as by the rest of the API."""
    fields = ("version", "current_position", *VISIBILITY_FIELDS)
    row = Game.objects.only(*fields).filter(pk=pk).first()
    if row is not None and not row.visible_to(None):
        authenticators = [cls() for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES]
        api_request = Request(request, authenticators=authenticators)
        try:
            user = api_request.user
        except exceptions.APIException as error:  # a wrong token or password
            answer = refusals.body(error.status_code, str(error.detail), error.detail.code)
            return JsonResponse(answer, status=error.status_code)
        row = row if row.visible_to(user) else None
    if row is None:
        return JsonResponse(refusals.body(404, _("no such game")), status=404)
    return JsonResponse({"version": row.version, "to_act": row.current_position})


class GameMoves(APIView):
    """Submit the requester's move: ``{"action": {...}, "version": n, "key": "..."}``. The
    answer holds the move's log and the game as the mover now sees it (``game``)."""

    token_scope = ApiToken.Scope.PLAY

    @extend_schema(
        operation_id="move",
        summary="Make a move",
        request=MoveRequestSerializer,
        responses={
            200: OpenApiResponse(MoveAnswerSerializer, description="Made before (same key)."),
            201: MoveAnswerSerializer,
            400: ERROR,
            409: OpenApiResponse(ERROR, description="Not your turn, or not the version you saw."),
            413: ERROR,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        if too_large(request, MAX_MOVE_BODY) or len(request.body) > MAX_MOVE_BODY:
            return _error(413, _("that request is too large to be a move"))
        if Game.objects.hidden_from(pk, request.user):
            return _error(404, _("no such game"))
        body = _object_body(request, _("send a JSON object with 'action' and 'version'"))
        if isinstance(body, Response):
            return body
        action, version, key = body.get("action"), body.get("version"), body.get("key", "")
        if not isinstance(action, dict):
            return _error(400, _("'action' must be an object"))
        if not services.is_whole_number(version):
            return _error(400, _("'version' must be the game version you saw (an integer)"))
        if not isinstance(key, str):
            return _error(400, _("'key' must be a string"))
        try:
            result = services.submit_move(
                pk, action, user=request.user, expected_version=version, idempotency_key=key
            )
        except services.Conflict as error:  # with the game as it is now, to decide again
            game = Game.objects.with_seats().get(pk=pk)
            document = game_document(game, request.user)
            return _refused(error, version=game.version, game=document)
        except services.GameError as error:
            return _refused(error)
        game, move = result.game, result.move
        names = game.names()
        describe = get_game(game.engine).describe_event
        body = {
            "version": _version_after(move) if result.replayed else game.version,
            "move": {
                "version": move.version,
                "log": [describe(event, names) for event in move.log],
                "events": move.log,
            },
            "game": game_document(game, request.user),
        }
        return Response(body, status=200 if result.replayed else 201)


def _version_after(move: Move) -> int:
    """The game's version right after ``move`` and the forced moves the site played with it,
    so a replayed request gets the answer the first one got."""
    later = Move.objects.filter(game_id=move.game_id, version__gt=move.version).order_by("version")
    version = move.version
    for number, forced in later.values_list("version", "forced")[: services.MAX_FORCED_MOVES]:
        if not forced:
            break
        version = number
    return version


class GameUndo(APIView):
    """Take back the requester's last decision: ``{"version": n}`` (optional, the version
    seen). The answer holds the versions taken back and the game as the requester now sees it."""

    token_scope = ApiToken.Scope.PLAY

    @extend_schema(
        operation_id="undo",
        summary="Take back your last decision (docs/platform.md)",
        request=UndoRequestSerializer,
        responses={201: UndoAnswerSerializer, 400: ERROR, 403: ERROR, 409: ERROR},
    )
    def post(self, request: Request, pk: int) -> Response:
        if Game.objects.hidden_from(pk, request.user):
            return _error(404, _("no such game"))
        body = _object_body(request, _("send a JSON object with 'version'"))
        if isinstance(body, Response):
            return body
        version = body.get("version")
        if version is not None and not services.is_whole_number(version):
            return _error(400, _("'version' must be the game version you saw (an integer)"))
        try:
            undo = services.undo_move(pk, request.user, expected_version=version)
        except services.GameError as error:
            return _refused(error)
        game = Game.objects.with_seats().get(pk=pk)
        body = {"version": undo.version, "undone": undo.action["undo"]}
        return Response({**body, "game": game_document(game, request.user)}, status=201)


def _object_body(request: Request, expected: str) -> dict | Response:
    """The request's JSON object, or the 400 that says what is wrong with it (``expected``:
    what the body should be)."""
    body = request.data  # a parse error answers 400 (``puerto.rest``)
    if not isinstance(body, dict):
        return _error(400, expected)
    return body


class GameExport(APIView):
    """A finished game as its file (``docs/export.md``), for whoever may see its page; its chat
    only for those who may read it."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="export",
        summary="A finished game as its file (docs/export.md)",
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="docs/export.schema.json"),
            404: ERROR,
            409: ERROR,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        game = _visible_game(request, pk)
        if game is None:
            return _error(404, _("no such game"))
        if game.status != Game.Status.FINISHED:
            return _error(409, _("only a finished game can be exported"))
        return Response(transfer.export_game(game, request.user))


class GameImport(APIView):
    """Import an exported game (the file as the body): 201 with the new game's id and its
    replay page (200 with the game imported before, for the same game sent again), or 400
    with the reason and ``move``, the version of the move that failed."""

    token_scope = ApiToken.Scope.CREATE

    @extend_schema(
        operation_id="import",
        summary="Import an exported game (docs/export.md)",
        request=OpenApiTypes.OBJECT,  # docs/export.schema.json
        responses={
            200: OpenApiResponse(ImportAnswerSerializer, description="Imported before."),
            201: ImportAnswerSerializer,
            400: ERROR,
            413: ERROR,
            429: OpenApiResponse(ERROR, description="More than 20 imports an hour."),
        },
    )
    def post(self, request: Request) -> Response:
        limit = transfer.MAX_IMPORT_BYTES
        if too_large(request, limit) or len(request.body) > limit:
            return _error(413, _("The file is larger than 2 MB."))
        body = _object_body(request, _("send the exported game, a JSON object"))
        if isinstance(body, Response):
            return body
        try:
            game, created = transfer.import_game(body, request.user)
        except transfer.ImportRefused as error:
            return _error(400, error.message, move=error.version)
        except rates.TooFast as error:
            return _refused(error)
        replay = reverse("games:replay", args=[game.pk])
        return Response({"id": game.pk, "replay_url": replay}, status=201 if created else 200)


# The chat ------------------------------------------------------------------------------------


class ChatMessageSerializer(serializers.Serializer):
    """One message, as ``games.chat.as_json`` writes it."""

    id = serializers.IntegerField()
    author = serializers.CharField(help_text="The author's public name.")
    text = serializers.CharField(help_text="Plain text, never HTML.")
    after_move = serializers.IntegerField(help_text="Moves made when it was written.")
    version = serializers.IntegerField(help_text="The game's version when it was written.")
    created_at = serializers.DateTimeField()


class ChatPostSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=chat.MAX_LENGTH)


class GameChat(APIView):
    """The game's chat: players read and write it; spectators read it if the game's creator
    allowed it. Hidden messages and those of players the requester muted are left out."""

    token_scope = ApiToken.Scope.CHAT

    permission_classes = [IsAuthenticatedOrReadOnly, TokenScopes]

    @extend_schema(
        operation_id="chat",
        summary="Read the chat",
        responses={
            200: inline_serializer(
                "Chat",
                {
                    "chat_version": serializers.IntegerField(),
                    "messages": ChatMessageSerializer(many=True),
                },
            ),
            403: ERROR,
            404: ERROR,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        game = _visible_game(request, pk)
        if game is None:
            return _error(404, _("no such game"))
        user = _seated_user(request)
        if not chat.may_read(game, user):
            return _error(403, _("the chat of this game is for its players"))
        shown = [chat.as_json(m) for m in chat.messages_for(game, user)]
        return Response({"chat_version": game.chat_version, "messages": shown})

    @extend_schema(
        operation_id="chat_post",
        summary="Write in the chat",
        request=ChatPostSerializer,
        responses={
            201: ChatMessageSerializer,
            400: ERROR,
            403: OpenApiResponse(ERROR, description="Not a player, or muted by a moderator."),
            404: ERROR,
            429: OpenApiResponse(ERROR, description="More than ten messages a minute."),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        if _visible_game(request, pk) is None:
            return _error(404, _("no such game"))
        body = request.data
        text = body.get("text") if isinstance(body, dict) else None
        if not isinstance(text, str):
            return _error(400, _("send a JSON object with 'text'"))
        try:
            message = chat.post(pk, request.user, text)
        except services.GameError as error:
            return _refused(error)
        return Response(chat.as_json(message), status=201)


# The archive and the games to watch -----------------------------------------------------------


class ListedPlayerSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The player's public name (an AI player's colour).")
    ai = serializers.BooleanField(help_text="An AI player's own seat.")


class PlacedPlayerSerializer(ListedPlayerSerializer):
    placement = serializers.IntegerField(help_text="1 for the winners; ties share a place.")
    score = serializers.IntegerField()


class ListedGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    engine = serializers.CharField(help_text="The game (its name on the shelf).")
    title = serializers.CharField(help_text="The game's name in the reader's language.")
    edition = serializers.CharField(help_text="Its named options in words; may be empty.")
    num_players = serializers.IntegerField()
    rated = serializers.BooleanField(help_text="Counts for the ratings; else casual.")
    spectators = serializers.BooleanField(help_text="Anyone may watch it.")
    url = serializers.CharField(help_text="Its page.")


class ArchivedGameSerializer(ListedGameSerializer):
    imported = serializers.BooleanField(help_text="Imported from a file, not played here.")
    finished_at = serializers.DateTimeField(help_text="For an imported game: when imported.")
    players = PlacedPlayerSerializer(many=True, help_text="First place first.")
    replay_url = serializers.CharField()
    export_url = serializers.CharField()


class WatchedGameSerializer(ListedGameSerializer):
    turn_started_at = serializers.DateTimeField(help_text="When the turn last passed.")
    players = ListedPlayerSerializer(many=True, help_text="In seat order.")


def _query_parameters(form_class: type[forms.Form]) -> list[OpenApiParameter]:
    """A GET form's fields as the schema's query parameters: each of its type, a number's
    bounds and a choice's values as the form checks them, or empty, as a form left blank
    sends a field it does not require."""
    parameters = []
    for name, field in form_class().fields.items():
        if isinstance(field, forms.IntegerField):
            kind = {"type": "integer", "minimum": field.min_value, "maximum": field.max_value}
        elif isinstance(field, forms.DateField):
            kind = {"type": "string", "format": "date"}
        else:
            kind = {"type": "string"}
        choices = flatten_choices(getattr(field, "choices", ()))
        values = [str(value) for value, _label in choices if value != ""]
        if values:
            kind["enum"] = values
        schema = {key: value for key, value in kind.items() if value is not None}
        if not field.required:
            schema = {"anyOf": [schema, {"type": "string", "enum": [""]}]}
        described = str(field.help_text or field.label or name)
        parameters.append(OpenApiParameter(name, schema, description=described))
    return parameters


def _listed(game: Game) -> dict:
    """The fields every listed game has (``ListedGameSerializer``)."""
    return {
        "id": game.pk,
        "engine": game.engine,
        "title": str(game.title),
        "edition": game.variant(),
        "num_players": game.num_players,
        "rated": game.rated,
        "spectators": game.spectators,
        "url": game.get_absolute_url(),
        "players": listed_players(game),
    }


def answer_page(request: Request, form, page, row) -> Response:
    """One page of a list in the one shape of every list (``api_schemas.page_of``; ``row``:
    each item's fields), or the 400 with the form's errors."""
    if page is None:
        fields = {name: [str(m) for m in messages] for name, messages in form.errors.items()}
        said = "; ".join(f"{name}: {messages[0]}" for name, messages in fields.items())
        return _error(
            400, _("the search cannot be read: %(errors)s") % {"errors": said}, fields=fields
        )

    def link(number: int) -> str:
        query = request.query_params.copy()
        query["page"] = str(number)
        return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")

    return Response(
        {
            "count": page.paginator.count,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "next": link(page.next_page_number()) if page.has_next() else None,
            "previous": link(page.previous_page_number()) if page.has_previous() else None,
            "results": [row(game) for game in page],
        }
    )


class Archive(APIView):
    """Finished games, the latest first, filtered as the archive's page filters them (the same
    query parameters), 50 a page."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="archive",
        summary="Search the finished games (the archive)",
        parameters=_query_parameters(ArchiveForm),
        responses={200: page_of("ArchivePage", ArchivedGameSerializer), 400: ERROR},
    )
    def get(self, request: Request) -> Response:
        form, page = archive_page(rest.query(request), request.user)

        def row(game: Game) -> dict:
            fields = {
                "imported": game.imported,
                "finished_at": game.finished_at,
                "replay_url": reverse("games:replay", args=[game.pk]),
                "export_url": reverse("games:export", args=[game.pk]),
            }
            return ArchivedGameSerializer({**_listed(game), **fields}).data

        return answer_page(request, form, page, row)


class Watch(APIView):
    """Running games anyone may watch, the one whose turn passed last first, 50 a page."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="watch",
        summary="Running games anyone may watch",
        parameters=_query_parameters(PageForm),
        responses={200: page_of("WatchPage", WatchedGameSerializer), 400: ERROR},
    )
    def get(self, request: Request) -> Response:
        form, page = watch_page(rest.query(request))

        def row(game: Game) -> dict:
            fields = {"turn_started_at": game.turn_started_at}
            return WatchedGameSerializer({**_listed(game), **fields}).data

        return answer_page(request, form, page, row)
