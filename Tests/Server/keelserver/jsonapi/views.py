from atomic_operations.views import AtomicOperationView
from rest_framework.filters import SearchFilter
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework_json_api import views
from rest_framework_json_api.parsers import JSONParser
from rest_framework_json_api.renderers import JSONRenderer
from rest_framework_json_api.pagination import JsonApiPageNumberPagination

from .models import Article, Author, Comment
from .serializers import ArticleSerializer, AuthorSerializer, CommentSerializer


class StockViewSet(views.ModelViewSet):
    # djangorestframework-jsonapi's documented set-up, per view rather than project-wide so
    # the other test resources keep plain DRF: its parser, renderer and pagination, and DRF's
    # own content negotiation (406 and 415 for media types it cannot serve or read).
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = DefaultContentNegotiation
    pagination_class = JsonApiPageNumberPagination


class ArticleViewSet(StockViewSet):
    queryset = Article.objects.all()
    serializer_class = ArticleSerializer
    # DRF's stock search (?search=…), so a test pages through its own articles only.
    filter_backends = [SearchFilter]
    search_fields = ["title"]


class AuthorViewSet(StockViewSet):
    queryset = Author.objects.all()
    serializer_class = AuthorSerializer


class CommentViewSet(StockViewSet):
    queryset = Comment.objects.all()
    serializer_class = CommentSerializer


class Operations(AtomicOperationView):
    # drf-json-api-atomic-operations' documented set-up: one serializer per operation and type,
    # all operations of a request in one database transaction.
    serializer_classes = {
        f"{operation}:{serializer.Meta.model.__name__}": serializer
        for operation in ("add", "update", "remove")
        for serializer in (ArticleSerializer, AuthorSerializer, CommentSerializer)
    }
