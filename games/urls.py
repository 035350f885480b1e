from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("mine/", views.my_games, name="mine"),
    path("archive/", views.archive, name="archive"),
    path("watch/", views.watch, name="watch"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("join/<str:code>/", views.invite, name="invite"),
    path("<int:pk>/", views.game_page, name="game"),
    path("<int:pk>/board/", views.board, name="board"),
    path("<int:pk>/seats/", views.seats, name="seats"),
    path("<int:pk>/poll/", views.poll, name="poll"),
    path("<int:pk>/move/", views.move, name="move"),
    path("<int:pk>/log/", views.full_log, name="log"),
    path("<int:pk>/undo/", views.undo, name="undo"),
    path("<int:pk>/replay/", views.replay, name="replay"),
    path("<int:pk>/export/", views.export, name="export"),
    path("import/", views.import_game, name="import"),
    path("<int:pk>/chat/", views.chat_post, name="chat"),
    path("<int:pk>/chat/mute/", views.chat_mute, name="chat_mute"),
    path("<int:pk>/join/", views.join, name="join"),
    path("<int:pk>/leave/", views.leave, name="leave"),
    path("<int:pk>/ai/", views.add_ai, name="add_ai"),
    path("<int:pk>/seats/<int:seat_id>/remove/", views.remove_seat, name="remove_seat"),
    path("<int:pk>/cancel/", views.cancel, name="cancel"),
    path("<int:pk>/challenge/", views.challenge, name="challenge"),
    path("challenges/<int:challenge_id>/accept/", views.accept_challenge, name="accept_challenge"),
    path(
        "challenges/<int:challenge_id>/decline/", views.decline_challenge, name="decline_challenge"
    ),
    path(
        "challenges/<int:challenge_id>/withdraw/",
        views.withdraw_challenge,
        name="withdraw_challenge",
    ),
    path("<int:pk>/take-back/", views.take_back, name="take_back"),
    path("<int:pk>/seats/<int:seat_id>/drop/", views.vote_drop, name="vote_drop"),
    path("vacation/", views.vacation, name="vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
