from django.urls import path
from rest_framework import routers

from . import views

router = routers.DefaultRouter(trailing_slash=False)
router.register("articles", views.ArticleViewSet)
router.register("authors", views.AuthorViewSet)
router.register("comments", views.CommentViewSet)

# The Atomic Operations extension (https://jsonapi.org/ext/atomic): POST /jsonapi/operations.
urlpatterns = router.urls + [path("operations", views.Operations.as_view())]
