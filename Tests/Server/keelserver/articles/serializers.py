import hashlib

from rest_framework import serializers

from .models import Article, Attachment, Author, Book, Member, Team


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


class MemberSerializer(serializers.ModelSerializer):
    # Writable so that a team's update can tell existing members from new ones.
    id = serializers.IntegerField(required=False)

    class Meta:
        model = Member
        fields = ["id", "email", "role"]


class TeamSerializer(serializers.ModelSerializer):
    """A team with its members nested, writable as DRF's documentation shows:
    members with an id are updated, members without one are created, and
    members left out are deleted."""

    members = MemberSerializer(many=True)

    class Meta:
        model = Team
        fields = ["id", "name", "members"]

    def create(self, validated_data):
        members = validated_data.pop("members")
        team = Team.objects.create(**validated_data)
        for member in members:
            member.pop("id", None)
            Member.objects.create(team=team, **member)
        return team

    def update(self, instance, validated_data):
        members = validated_data.pop("members", None)
        instance.name = validated_data.get("name", instance.name)
        instance.save()
        if members is not None:
            kept = []
            for member in members:
                member_id = member.pop("id", None)
                if member_id is not None:
                    Member.objects.filter(team=instance, id=member_id).update(**member)
                    kept.append(member_id)
                else:
                    kept.append(Member.objects.create(team=instance, **member).id)
            instance.members.exclude(id__in=kept).delete()
        return instance


class AddressSerializer(serializers.Serializer):
    city = serializers.CharField()
    zip = serializers.CharField(required=False)


class AttachmentSerializer(serializers.ModelSerializer):
    """A multipart upload: the file, text fields, a ListField and a nested serializer
    (which form data carries as tags[0] and address.city); answers with what arrived."""

    tags = serializers.ListField(child=serializers.CharField(), required=False)
    address = AddressSerializer(required=False, allow_null=True)
    size = serializers.SerializerMethodField()
    sha256 = serializers.SerializerMethodField()

    class Meta:
        model = Attachment
        fields = ["id", "title", "file", "original_filename", "content_type", "tags", "address", "size", "sha256"]
        read_only_fields = ["original_filename", "content_type"]

    def get_size(self, attachment):
        return attachment.file.size if attachment.file else None

    def get_sha256(self, attachment):
        if not attachment.file:
            return None
        digest = hashlib.sha256()
        with attachment.file.open("rb") as stored:
            for chunk in stored.chunks():
                digest.update(chunk)
        return digest.hexdigest()

    def _describe_upload(self, validated_data):
        upload = validated_data.get("file")
        if upload is not None:
            validated_data["original_filename"] = upload.name
            validated_data["content_type"] = upload.content_type or ""
        return validated_data

    def create(self, validated_data):
        return Attachment.objects.create(**self._describe_upload(validated_data))

    def update(self, instance, validated_data):
        for name, value in self._describe_upload(validated_data).items():
            setattr(instance, name, value)
        instance.save()
        return instance
