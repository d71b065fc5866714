"""
What a client meets behind a captive portal or a broken proxy, for the offline
queue's tests. Every method and every path below each prefix gets the same answer:

* ``/portal/html/...``: 200 ``text/html``, a sign-in page (hotel and airport Wi-Fi);
* ``/portal/empty-html/...``: 200 ``text/html`` with an empty body;
* ``/portal/broken-json/...``: 201 ``application/json`` whose body is ``{oops``.

Each answer is counted per prefix: ``GET /portal/__hits`` → ``{"html": n, ...}``.
"""

import threading

from django.http import HttpResponse, JsonResponse
from django.urls import re_path

SIGN_IN_PAGE = "<!DOCTYPE html>\n<html><body><h1>Welcome to Hotel Wi-Fi</h1><a href='/login'>Sign in</a></body></html>\n"
ANSWERS = {
    "html": (200, "text/html; charset=utf-8", SIGN_IN_PAGE),
    "empty-html": (200, "text/html; charset=utf-8", ""),
    "broken-json": (201, "application/json", "{oops"),
}
HITS = {name: 0 for name in ANSWERS}
LOCK = threading.Lock()


def answer(request, kind, rest=""):
    status, content_type, body = ANSWERS[kind]
    with LOCK:
        HITS[kind] += 1
    return HttpResponse(body, status=status, content_type=content_type)


def hits(request):
    with LOCK:
        return JsonResponse(dict(HITS))


urlpatterns = [
    re_path(r"^__hits$", hits),
    re_path(r"^(?P<kind>html|empty-html|broken-json)(?:/(?P<rest>[\s\S]*))?$", answer),
]
