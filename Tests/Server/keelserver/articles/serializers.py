from rest_framework import serializers

from .models import Article, Author, Book, Member, Team


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
