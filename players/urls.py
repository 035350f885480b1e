from django.urls import path

from players import views

app_name = "players"
urlpatterns = [
    path("ratings/", views.ratings, name="ratings"),
    path("ratings/<str:ladder>/", views.leaderboard, name="leaderboard"),
    path("following/", views.following, name="following"),
    path("<str:username>/", views.player, name="player"),
    path("<str:username>/follow/", views.follow, name="follow"),
]
