from rest_framework_json_api import serializers
from rest_framework_json_api.relations import ResourceRelatedField

from .models import Article, Author, Comment


class AuthorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Author
        fields = ["id", "name", "email"]


class CommentSerializer(serializers.ModelSerializer):
    article = ResourceRelatedField(queryset=Article.objects)
    author = ResourceRelatedField(queryset=Author.objects, required=False, allow_null=True)

    included_serializers = {"author": AuthorSerializer, "article": "keelserver.jsonapi.serializers.ArticleSerializer"}

    class Meta:
        model = Comment
        fields = ["id", "body", "article", "author"]


class ArticleSerializer(serializers.ModelSerializer):
    author = ResourceRelatedField(queryset=Author.objects, required=False, allow_null=True)
    comments = ResourceRelatedField(many=True, read_only=True)

    included_serializers = {"author": AuthorSerializer, "comments": CommentSerializer}

    class Meta:
        model = Article
        fields = ["id", "title", "body", "published_at", "author", "comments"]
