import json
import time

from django.db import close_old_connections, transaction
from django.http import StreamingHttpResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from .models import Purge, Task, TaskEvent
from .serializers import TaskSerializer


class TaskViewSet(viewsets.ModelViewSet):
    """
    ``GET /changes/tasks/`` lists the kept tasks; ``?updated_since=<ISO 8601>`` lists every task
    changed after that time, soft-deleted ones included (with their ``deleted_at``). A time
    before the last purge answers 410 Gone: the tombstones it would need are gone.
    ``DELETE`` soft-deletes.
    """

    serializer_class = TaskSerializer

    def get_queryset(self):
        since = self.request.query_params.get("updated_since")
        if since is None or self.action != "list":
            return Task.objects.filter(deleted_at__isnull=True)
        moment = parse_datetime(since)
        if moment is None:
            raise ValidationError({"updated_since": ["Enter a valid date/time."]})
        return Task.objects.filter(updated_at__gt=moment)

    def list(self, request, *args, **kwargs):
        since = parse_datetime(request.query_params.get("updated_since") or "")
        last = Purge.objects.order_by("-purged_at").first()
        if since is not None and last is not None and since < last.purged_at:
            return Response({"updated_since": ["This cursor has expired."]}, status=status.HTTP_410_GONE)
        return super().list(request, *args, **kwargs)

    def perform_destroy(self, instance):
        instance.deleted_at = timezone.now()
        instance.save()

    @action(detail=False, methods=["post"])
    def bulk(self, request):
        """Creates one task per title, in order, each in its own save (so each gets an event)."""
        for title in request.data.get("titles", []):
            Task.objects.create(title=title)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @action(detail=False, methods=["post"])
    def purge(self, request):
        """Removes soft-deleted tasks for good; cursors from before now expire."""
        with transaction.atomic():
            Task.objects.filter(deleted_at__isnull=False).delete()
            Purge.objects.create(purged_at=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


def stream(request):
    """
    ``GET /changes/tasks/stream`` as Server-Sent Events: ``id`` (the outbox row), ``event``
    (created, updated, deleted) and ``data`` (the task as it was saved). It resumes after
    ``Last-Event-ID``; without one it starts with the next change. A comment every second
    keeps proxies from closing a quiet stream.
    """
    last = request.headers.get("Last-Event-ID", "")

    def events():
        cursor = int(last) if last.isdigit() else (TaskEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0)
        yield "retry: 250\n: connected\n\n"
        quiet_since = time.monotonic()
        try:
            while True:
                batch = list(TaskEvent.objects.filter(id__gt=cursor).order_by("id")[:200])
                for event in batch:
                    cursor = event.id
                    yield f"id: {event.id}\nevent: {event.action}\ndata: {json.dumps(event.payload)}\n\n"
                if batch:
                    quiet_since = time.monotonic()
                    continue
                if time.monotonic() - quiet_since >= 1:
                    quiet_since = time.monotonic()
                    yield ": heartbeat\n\n"
                time.sleep(0.05)
        finally:
            close_old_connections()

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
