from django.apps import AppConfig


class LibraryConfig(AppConfig):
    """Documents as a stock Django REST framework project serves them: a model with an optional
    FileField, a ModelSerializer, a ModelViewSet paged by PageNumberPagination, a DefaultRouter."""

    name = "keelserver.library"
    label = "library"
    default_auto_field = "django.db.models.BigAutoField"
