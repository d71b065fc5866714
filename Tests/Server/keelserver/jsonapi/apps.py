from django.apps import AppConfig


class JsonapiConfig(AppConfig):
    name = "keelserver.jsonapi"
    label = "jsonapi"
    default_auto_field = "django.db.models.AutoField"
