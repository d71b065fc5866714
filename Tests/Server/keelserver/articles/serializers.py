from rest_framework import serializers

from .models import Article, Author, Book


class ArticleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Article
        fields = "__all__"

    def validate(self, attrs):
        # The one documented object-level rule: a body that merely repeats the
        # title is refused with a non-field error.
        title = attrs.get("title", getattr(self.instance, "title", None))
        body = attrs.get("body", getattr(self.instance, "body", ""))
        if title is not None and title == body:
            raise serializers.ValidationError("The body must not repeat the title.")
        return attrs


class AuthorSerializer(serializers.ModelSerializer):
    class Meta:
        model = Author
        fields = "__all__"


class BookSerializer(serializers.ModelSerializer):
    class Meta:
        model = Book
        fields = "__all__"
