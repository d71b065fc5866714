from django.apps import AppConfig


class JsonapiConfig(AppConfig):
    name = "keelserver.jsonapi"
    label = "jsonapi"
    default_auto_field = "django.db.models.AutoField"

    def ready(self):
        from . import hold
        from .models import Article, Author

        # Test-only, off by default: see hold.py (KEEL_TEST_SERVER_HOLD_MARKER).
        hold.connect(Author, Article)
