from django.urls import re_path
from rest_framework import routers

from . import views

router = routers.DefaultRouter()
router.register("tasks", views.TaskViewSet, basename="task")

urlpatterns = [re_path(r"^tasks/stream/?$", views.stream)] + router.urls
