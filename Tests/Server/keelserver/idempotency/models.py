from django.db import models


class StoredResponse(models.Model):
    """The first response to a create sent with an Idempotency-Key."""

    key = models.CharField(max_length=255, unique=True)
    path = models.CharField(max_length=2048)
    status = models.IntegerField()
    content_type = models.CharField(max_length=255, blank=True)
    body = models.BinaryField()


class CreateCount(models.Model):
    """How many creates reached a collection's view (replays not counted)."""

    path = models.CharField(max_length=2048, unique=True)
    creates = models.IntegerField(default=0)
    replays = models.IntegerField(default=0)
