"""
Idempotency-Key on creates, as a payment API or an ``django-idempotency-key``
deployment does it (the IETF draft "The Idempotency-Key HTTP Header Field"):

* The first POST with a key runs normally; a successful (2xx) response is stored
  with the key, in the database, so it survives a restart. A failed one is not:
  the request may be sent again with the same key (as Stripe does for requests
  that fail before the endpoint runs, such as a body cut short by a client that
  died mid-request).
* A later POST with the same key to the same path gets the stored response again
  (status, body, Content-Type) with ``Idempotent-Replayed: true``; the view does
  not run, so nothing is created twice.
* The same key on another path → 422 ``{"detail": "Idempotency-Key reused ..."}``.
* Requests with keys are handled one at a time, so two copies of one request
  sent at once cannot both create.

Every POST that reaches a view and answers 201 is counted per path, and every
replayed one too: ``GET /__creates`` → ``{"<path>": {"creates": n, "replays": m}}``.

``/portal/`` (see ``keelserver/portal.py``) stands for another host, a captive portal or a
proxy in front of this API: its requests pass by untouched, so its answers are neither
stored under a key nor replayed, and a key it saw is still new to the API.
"""

import threading

from django.db import transaction
from django.db.models import F
from django.http import HttpResponse, JsonResponse

from .models import CreateCount, StoredResponse

LOCK = threading.Lock()
# Paths that belong to another host in front of the API (see the module's docstring).
PASS_THROUGH = ("/portal/",)


def count(path, field):
    CreateCount.objects.get_or_create(path=path)
    CreateCount.objects.filter(path=path).update(**{field: F(field) + 1})


class IdempotencyKeyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "POST" or request.path.startswith(PASS_THROUGH):
            return self.get_response(request)
        key = request.headers.get("Idempotency-Key", "").strip()
        if not key:
            response = self.get_response(request)
            if response.status_code == 201:
                with LOCK, transaction.atomic():
                    count(request.path, "creates")
            return response
        with LOCK:
            stored = StoredResponse.objects.filter(key=key).first()
            if stored is not None:
                if stored.path != request.path:
                    return JsonResponse(
                        {"detail": "Idempotency-Key reused for another request."},
                        status=422,
                    )
                with transaction.atomic():
                    count(request.path, "replays")
                response = HttpResponse(
                    bytes(stored.body),
                    status=stored.status,
                    content_type=stored.content_type or None,
                )
                response["Idempotent-Replayed"] = "true"
                return response
            response = self.get_response(request)
            if 200 <= response.status_code < 300:
                if hasattr(response, "render") and not getattr(response, "is_rendered", True):
                    response.render()
                with transaction.atomic():
                    StoredResponse.objects.create(
                        key=key,
                        path=request.path,
                        status=response.status_code,
                        content_type=response.get("Content-Type", ""),
                        body=response.content,
                    )
                    if response.status_code == 201:
                        count(request.path, "creates")
            return response


def creates(request):
    return JsonResponse(
        {row.path: {"creates": row.creates, "replays": row.replays} for row in CreateCount.objects.all()}
    )
