"""Articles with authors and comments, served by djangorestframework-jsonapi as its
documentation writes them (types are the model names: Article, Author, Comment)."""

from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=100)
    email = models.EmailField(blank=True)

    class Meta:
        ordering = ["id"]


class Article(models.Model):
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    author = models.ForeignKey(Author, null=True, blank=True, on_delete=models.SET_NULL, related_name="articles")

    class Meta:
        ordering = ["id"]


class Comment(models.Model):
    article = models.ForeignKey(Article, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(Author, null=True, blank=True, on_delete=models.SET_NULL, related_name="comments")
    body = models.TextField()

    class Meta:
        ordering = ["id"]
