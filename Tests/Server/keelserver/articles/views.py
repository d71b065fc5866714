from rest_framework import viewsets
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import PageNumberPagination

from .models import Article, Attachment, Author, Book, Team
from .serializers import (
    ArticleSerializer,
    AttachmentSerializer,
    AuthorSerializer,
    BookSerializer,
    TeamSerializer,
)


class StockViewSet(viewsets.ModelViewSet):
    # The project-wide AlwaysJSON negotiation is a test-server convenience;
    # these resources negotiate like any DRF deployment (406 for an Accept
    # header that JSON cannot satisfy).
    content_negotiation_class = DefaultContentNegotiation


class ArticleViewSet(StockViewSet):
    queryset = Article.objects.all()
    serializer_class = ArticleSerializer


class BulkArticleViewSet(StockViewSet):
    """Articles that can also be created in bulk: a list posted to the list URL goes
    through ``many=True``, DRF's ListSerializer, as its documentation on bulk creation
    shows. The list is validated as a whole: one invalid article creates none, and the
    400 lists one error object per article."""

    queryset = Article.objects.all()
    serializer_class = ArticleSerializer

    def get_serializer(self, *args, **kwargs):
        if isinstance(kwargs.get("data"), list):
            kwargs["many"] = True
        return super().get_serializer(*args, **kwargs)


class ArticlePagination(PageNumberPagination):
    page_size = 3


class PagedArticleViewSet(StockViewSet):
    queryset = Article.objects.all()
    serializer_class = ArticleSerializer
    pagination_class = ArticlePagination


class AuthorViewSet(StockViewSet):
    queryset = Author.objects.all()
    serializer_class = AuthorSerializer


class BookViewSet(StockViewSet):
    queryset = Book.objects.all()
    serializer_class = BookSerializer


class TeamViewSet(StockViewSet):
    queryset = Team.objects.prefetch_related("members")
    serializer_class = TeamSerializer


class AttachmentViewSet(StockViewSet):
    queryset = Attachment.objects.all()
    serializer_class = AttachmentSerializer
    parser_classes = [MultiPartParser, FormParser, JSONParser]
