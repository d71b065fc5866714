from django.apps import AppConfig


class ChangesConfig(AppConfig):
    """
    Changes from the server, written as a DRF user writes them: a soft-deleting ModelViewSet
    with an ``updated_since`` filter, and a Server-Sent Events stream (StreamingHttpResponse)
    fed by an outbox table that a post_save signal fills.
    """

    name = "keelserver.changes"
    label = "changes"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import signals  # noqa: F401
