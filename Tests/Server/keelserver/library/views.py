from rest_framework import viewsets
from rest_framework.pagination import PageNumberPagination

from .models import Document
from .serializers import DocumentSerializer


class DocumentPagination(PageNumberPagination):
    # DRF's documented way to let clients choose the page size.
    page_size = 2
    page_size_query_param = "size"
    max_page_size = 10


class DocumentViewSet(viewsets.ModelViewSet):
    queryset = Document.objects.all()
    serializer_class = DocumentSerializer
    pagination_class = DocumentPagination
