from django.urls import path

from analysis import views

app_name = "analysis"
urlpatterns = [
    path("<int:pk>/hint/", views.hint, name="hint"),
    path("<int:pk>/review/", views.review, name="review"),
]
