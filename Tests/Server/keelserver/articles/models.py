import uuid

from django.db import models


class Article(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    rating = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    reference = models.UUIDField(default=uuid.uuid4, unique=True)
    website = models.URLField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.title


class Author(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.name


class Book(models.Model):
    title = models.CharField(max_length=200)
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="books")
    tags = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.title


class Team(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.name


class Member(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    email = models.EmailField()
    role = models.CharField(max_length=50, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.email


class Attachment(models.Model):
    """A file with a title, as a DRF user stores uploads: a FileField in MEDIA_ROOT."""

    title = models.CharField(max_length=200)
    file = models.FileField(upload_to="attachments/")
    # What the client sent with the file (the stored name may differ from it).
    original_filename = models.CharField(max_length=255, blank=True)
    content_type = models.CharField(max_length=255, blank=True)
    tags = models.JSONField(default=list, blank=True)
    address = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.title
