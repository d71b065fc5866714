from django.db import models


class Document(models.Model):
    title = models.CharField(max_length=200)
    # Optional, so a full update (PUT) without a new file keeps the stored one.
    file = models.FileField(upload_to="documents/", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.title
