from rest_framework import serializers

from .store import STORE

# Rails-style messages for notes (the notes endpoints answer 422 like Rails).
BLANK = "can't be blank"
TITLE_ERRORS = {
    "required": BLANK,
    "blank": BLANK,
    "null": BLANK,
    "max_length": "is too long (maximum is {max_length} characters)",
}


class NoteSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    title = serializers.CharField(max_length=100, trim_whitespace=False, error_messages=TITLE_ERRORS)
    body = serializers.CharField(allow_blank=True, trim_whitespace=False, default="")
    done = serializers.BooleanField(default=False)
    rank = serializers.IntegerField(default=0)
    tags = serializers.ListField(
        child=serializers.CharField(allow_blank=True, trim_whitespace=False), default=list
    )

    def validate_title(self, value):
        if not value.strip():  # Rails' presence check treats whitespace as blank
            raise serializers.ValidationError(BLANK)
        return value


class NoteQuerySerializer(serializers.Serializer):
    """Validates GET /notes query parameters."""

    title = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    done = serializers.BooleanField(required=False, allow_null=False)
    page = serializers.IntegerField(required=False, min_value=1)
    per_page = serializers.IntegerField(required=False, min_value=1, max_value=10000)


class TodoSerializer(serializers.Serializer):
    """The `todos` example app's records: Rails conventions like notes, titles up to 200."""

    id = serializers.IntegerField(read_only=True)
    title = serializers.CharField(max_length=200, trim_whitespace=False, error_messages=TITLE_ERRORS)
    done = serializers.BooleanField(default=False)

    def validate_title(self, value):
        if not value.strip():
            raise serializers.ValidationError(BLANK)
        return value


class TodoQuerySerializer(serializers.Serializer):
    """Validates GET /todos query parameters."""

    done = serializers.BooleanField(required=False, allow_null=False)


class UserSerializer(serializers.Serializer):
    """DRF conventions: client-chosen string ids, 400 with DRF messages."""

    id = serializers.CharField(max_length=1000, trim_whitespace=False)
    name = serializers.CharField(max_length=1000, trim_whitespace=False)
    email = serializers.CharField(max_length=1000, allow_blank=True, trim_whitespace=False, default="")

    def validate_id(self, value):
        if STORE.has_user(value):
            raise serializers.ValidationError("user with this id already exists.")
        return value

    def validate_name(self, value):
        if not value.strip():  # DRF's default CharField trims, so "  " is blank
            raise serializers.ValidationError(self.fields["name"].error_messages["blank"])
        return value


class UserUpdateSerializer(UserSerializer):
    """PUT/PATCH: the id comes from the URL; an id in the body is ignored."""

    id = serializers.CharField(read_only=True)
