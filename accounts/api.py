"""The requester's account in the JSON API (routes in ``games.api_urls``): who they are, and
turning a fresh account into a bot account."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken, User
from accounts.services import NotFresh, become_bot
from games.api import ERROR, _error


class AccountSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(source="public_name", help_text="As other players read it.")
    bot = serializers.BooleanField(source="is_bot", help_text="A bot account.")
    language = serializers.CharField()
    time_zone = serializers.CharField()
    date_joined = serializers.DateTimeField()


def _account(user: User) -> Response:
    return Response(AccountSerializer(user).data)


class Account(APIView):
    """The requester's account."""

    @extend_schema(operation_id="account", responses={200: AccountSerializer})
    def get(self, request: Request) -> Response:
        return _account(request.user)


class BotAccount(APIView):
    """Turn the requester's account into a bot account, for good; only an account that has
    never taken a seat may (409 otherwise). A token needs the scope ``bot``."""

    token_scope = ApiToken.Scope.BOT

    @extend_schema(
        operation_id="account_bot",
        request=None,
        responses={200: AccountSerializer, 409: ERROR},
    )
    def post(self, request: Request) -> Response:
        try:
            become_bot(request.user)
        except NotFresh as error:
            return _error(409, str(error))
        return _account(request.user)
