from django.apps import AppConfig


class ArticlesConfig(AppConfig):
    """A stock Django REST framework resource: ORM models, ModelSerializer, ModelViewSet, DefaultRouter."""

    name = "keelserver.articles"
    label = "articles"
    default_auto_field = "django.db.models.BigAutoField"
