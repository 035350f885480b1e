"""The JSON API, mounted at ``/api/`` (see ``games.api``, and ``players.api`` for players and
ratings)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from accounts import api as accounts_api
from events import views as events
from games import api, api_challenges, api_lobby
from players import api as players_api

app_name = "api"
urlpatterns = [
    path("games/", api_lobby.Games.as_view(), name="games"),
    path("games/open/", api_lobby.OpenGames.as_view(), name="open"),
    path("games/finished/", api_lobby.FinishedGames.as_view(), name="finished"),
    path("games/<int:pk>/join/", api_lobby.JoinGame.as_view(), name="join"),
    path("games/<int:pk>/leave/", api_lobby.LeaveGame.as_view(), name="leave"),
    path("games/<int:pk>/ai/", api_lobby.AddAI.as_view(), name="add_ai"),
    path("games/<int:pk>/cancel/", api_lobby.CancelGame.as_view(), name="cancel"),
    path("games/<int:pk>/seat-back/", api_lobby.TakeSeatBack.as_view(), name="seat_back"),
    path("games/<int:pk>/vote/", api_lobby.VoteToDrop.as_view(), name="vote"),
    path("games/<int:pk>/challenges/", api_challenges.NewChallenge.as_view(), name="challenge"),
    path("challenges/", api_challenges.MyChallenges.as_view(), name="challenges"),
    path(
        "challenges/<int:pk>/accept/",
        api_challenges.AcceptChallenge.as_view(),
        name="accept_challenge",
    ),
    path(
        "challenges/<int:pk>/decline/",
        api_challenges.DeclineChallenge.as_view(),
        name="decline_challenge",
    ),
    path(
        "challenges/<int:pk>/withdraw/",
        api_challenges.WithdrawChallenge.as_view(),
        name="withdraw_challenge",
    ),
    path("games/archive/", api.Archive.as_view(), name="archive"),
    path("games/watch/", api.Watch.as_view(), name="watch"),
    path("games/<int:pk>/", api.GameDetail.as_view(), name="game"),
    path("games/<int:pk>/version/", api.game_version, name="version"),
    path("games/<int:pk>/moves/", api.GameMoves.as_view(), name="moves"),
    path("games/<int:pk>/undo/", api.GameUndo.as_view(), name="undo"),
    path("games/<int:pk>/export/", api.GameExport.as_view(), name="export"),
    path("games/import/", api.GameImport.as_view(), name="import"),
    path("games/<int:pk>/chat/", api.GameChat.as_view(), name="chat"),
    path("games/<int:pk>/events/", events.game_events, name="game_events"),
    path("events/", events.user_events, name="events"),
    path("account/", accounts_api.Account.as_view(), name="account"),
    path("account/bot/", accounts_api.BotAccount.as_view(), name="account_bot"),
    path("players/<str:username>/", players_api.PlayerDetail.as_view(), name="player"),
    path("players/<str:username>/follow/", players_api.PlayerFollow.as_view(), name="follow"),
    path("ratings/", players_api.Ladders.as_view(), name="ladders"),
    path("ratings/<str:ladder>/", players_api.Leaderboard.as_view(), name="leaderboard"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
]
