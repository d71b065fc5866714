from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import Task, TaskEvent


@receiver(post_save, sender=Task)
def record_change(sender, instance, created, **kwargs):
    from .serializers import TaskSerializer

    action = "created" if created else ("deleted" if instance.deleted_at else "updated")
    TaskEvent.objects.create(task_id=instance.pk, action=action, payload=TaskSerializer(instance).data)
