from rest_framework import serializers

from .models import Task


class TaskSerializer(serializers.ModelSerializer):
    class Meta:
        model = Task
        fields = ["id", "title", "done", "updated_at", "deleted_at"]
        read_only_fields = ["updated_at", "deleted_at"]
