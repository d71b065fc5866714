from rest_framework import routers

from . import views

router = routers.DefaultRouter(trailing_slash=False)
router.register("articles", views.ArticleViewSet)
router.register("authors", views.AuthorViewSet)
router.register("comments", views.CommentViewSet)

urlpatterns = router.urls
