from rest_framework import routers

from . import members, views

router = routers.DefaultRouter()
router.register("articles", views.ArticleViewSet)
router.register("bulk-articles", views.BulkArticleViewSet, basename="bulk-article")
router.register("paged-articles", views.PagedArticleViewSet, basename="paged-article")
router.register("authors", views.AuthorViewSet)
router.register("books", views.BookViewSet)
router.register("teams", views.TeamViewSet)
router.register("attachments", views.AttachmentViewSet)

# A nested resource: /drf/teams/<team_pk>/members/ (see members.py).
urlpatterns = router.urls + members.urlpatterns
