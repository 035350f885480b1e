"""Challenges in the JSON API: the creator of an open game challenges a player by username;
the requester's challenges, sent and received; accept, decline, withdraw. Each change calls
``games.challenges``, as the pages do (``docs/api.md``, *Challenges*)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken
from games import challenges, services
from games.api import ERROR, _error, _query_parameters, _refused
from games.api_lobby import _page
from games.api_schemas import page_of
from games.forms import PageForm
from games.models import Challenge, Game

# Serializers: the bodies in and out, for the answer and for the OpenAPI schema. -------------


class NameField(serializers.CharField):
    """A name as JSON gives it: a string, never a number read as one."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class ChallengeRequestSerializer(serializers.Serializer):
    username = NameField(max_length=challenges.MAX_USERNAME, help_text="The player to challenge.")


class ChallengePlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(source="public_name", help_text="The name others see.")
    bot = serializers.BooleanField(source="is_bot", help_text="A bot account.")


class ChallengeGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    engine = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    num_players = serializers.IntegerField()
    seated = serializers.SerializerMethodField(help_text="Seats taken.")
    rated = serializers.BooleanField()
    bots_allowed = serializers.BooleanField()

    @extend_schema_field(serializers.IntegerField())
    def get_seated(self, game: Game) -> int:
        return len(game.seats.all())


class ChallengeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Challenge.Status.choices)
    direction = serializers.SerializerMethodField(
        help_text="received: you are challenged; sent: you challenged the invitee."
    )
    game = ChallengeGameSerializer()
    challenger = ChallengePlayerSerializer()
    invitee = ChallengePlayerSerializer()
    created_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(
        allow_null=True, help_text="When it was accepted, declined or withdrawn."
    )

    @extend_schema_field(serializers.ChoiceField(choices=["received", "sent"]))
    def get_direction(self, challenge: Challenge) -> str:
        user = self.context.get("user")
        return "received" if user is not None and user.pk == challenge.invitee_id else "sent"


def challenge_document(challenge: Challenge, user) -> dict:
    """A challenge as its challenger or invitee ``user`` reads it: what the API answers and
    what a ``challenge`` event of their stream carries."""
    return ChallengeSerializer(challenge, context={"user": user}).data


def _no_body(request: Request) -> Response | None:
    """An answer takes no body: one that does not parse, or says anything, is a 400."""
    if request.body and request.data not in ({}, None):
        return _error(400, _("send no body: the address says which challenge"))
    return None


# Views ----------------------------------------------------------------------------------------


class NewChallenge(APIView):
    """The creator of an open game challenges a player to it; 201 with the challenge."""

    token_scope = ApiToken.Scope.CREATE

    @extend_schema(
        operation_id="challenge",
        summary="Challenge a player to your open game",
        request=ChallengeRequestSerializer,
        responses={201: ChallengeSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, pk: int) -> Response:
        asked = ChallengeRequestSerializer(data=request.data)
        if not asked.is_valid():
            message = _('send the player as a JSON object: {"username": "bob"}')
            return _error(400, message, fields=asked.errors)
        try:
            made = challenges.challenge(pk, request.user, asked.validated_data["username"])
        except services.GameError as error:
            return _refused(error)
        return Response(challenge_document(made, request.user), status=201)


class MyChallenges(APIView):
    """The requester's challenges, received and sent: pending ones first, then the latest,
    50 a page."""

    @extend_schema(
        operation_id="my_challenges",
        summary="Your challenges, received and sent",
        parameters=_query_parameters(PageForm),
        responses={200: page_of("ChallengesPage", ChallengeSerializer), 400: ERROR},
    )
    def get(self, request: Request) -> Response:
        rows = Challenge.objects.of(request.user)
        return _page(request, rows, lambda row: challenge_document(row, request.user))


class ChallengeAnswer(APIView):
    """A change to a challenge by the requester (``act``), answered with the challenge."""

    token_scope = ApiToken.Scope.CREATE

    def act(self, pk: int, user) -> Challenge:
        raise NotImplementedError

    def post(self, request: Request, pk: int) -> Response:
        refused = _no_body(request)
        if refused:
            return refused
        try:
            changed = self.act(pk, request.user)
        except services.GameError as error:
            return _refused(error)
        return Response(challenge_document(changed, request.user))


ANSWER_SCHEMA = {
    "request": None,
    "responses": {200: ChallengeSerializer, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
}


class AcceptChallenge(ChallengeAnswer):
    """The invitee takes the seat held for them; the game starts if it was the last."""

    @extend_schema(operation_id="accept_challenge", summary="Accept a challenge", **ANSWER_SCHEMA)
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)

    def act(self, pk: int, user) -> Challenge:
        return challenges.accept(pk, user)


class DeclineChallenge(ChallengeAnswer):
    """The invitee says no; the seat held for them is free again."""

    @extend_schema(operation_id="decline_challenge", summary="Decline a challenge", **ANSWER_SCHEMA)
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)

    def act(self, pk: int, user) -> Challenge:
        return challenges.decline(pk, user)


class WithdrawChallenge(ChallengeAnswer):
    """The challenger takes the challenge back; the seat held is free again."""

    @extend_schema(
        operation_id="withdraw_challenge", summary="Withdraw your challenge", **ANSWER_SCHEMA
    )
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)

    def act(self, pk: int, user) -> Challenge:
        return challenges.withdraw(pk, user)
