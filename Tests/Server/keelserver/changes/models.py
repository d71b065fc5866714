from django.db import models


class Task(models.Model):
    """A record whose deletions are soft (``deleted_at``), so that clients can pull them."""

    title = models.CharField(max_length=200)
    done = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["updated_at", "id"]


class TaskEvent(models.Model):
    """The outbox: one row per saved change, with the record as it was; the stream's event id is the row id."""

    task_id = models.BigIntegerField()
    action = models.CharField(max_length=10)  # created, updated, deleted
    payload = models.JSONField()

    class Meta:
        ordering = ["id"]


class Purge(models.Model):
    """When soft-deleted rows were last removed for good: an older ``updated_since`` cursor is expired."""

    purged_at = models.DateTimeField()
