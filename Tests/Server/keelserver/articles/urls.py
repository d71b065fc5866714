from rest_framework import routers

from . import views

router = routers.DefaultRouter()
router.register("articles", views.ArticleViewSet)
router.register("paged-articles", views.PagedArticleViewSet, basename="paged-article")
router.register("authors", views.AuthorViewSet)
router.register("books", views.BookViewSet)
router.register("teams", views.TeamViewSet)
router.register("attachments", views.AttachmentViewSet)

urlpatterns = router.urls
