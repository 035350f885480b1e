"""The JSON API, mounted at ``/api/`` (see ``games.api``, and ``players.api`` for players and
ratings)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from games import api
from players import api as players_api

app_name = "api"
urlpatterns = [
    path("games/", api.MyGames.as_view(), name="games"),
    path("games/archive/", api.Archive.as_view(), name="archive"),
    path("games/watch/", api.Watch.as_view(), name="watch"),
    path("games/<int:pk>/", api.GameDetail.as_view(), name="game"),
    path("games/<int:pk>/version/", api.game_version, name="version"),
    path("games/<int:pk>/moves/", api.GameMoves.as_view(), name="moves"),
    path("games/<int:pk>/undo/", api.GameUndo.as_view(), name="undo"),
    path("games/<int:pk>/export/", api.GameExport.as_view(), name="export"),
    path("games/import/", api.GameImport.as_view(), name="import"),
    path("games/<int:pk>/chat/", api.GameChat.as_view(), name="chat"),
    path("players/<str:username>/", players_api.PlayerDetail.as_view(), name="player"),
    path("players/<str:username>/follow/", players_api.PlayerFollow.as_view(), name="follow"),
    path("ratings/", players_api.Ladders.as_view(), name="ladders"),
    path("ratings/<str:ladder>/", players_api.Leaderboard.as_view(), name="leaderboard"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
]
