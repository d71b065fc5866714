"""
Notes served in formats other than JSON, for RESTSync's body codecs:

* ``/codecs/form/notes[/<id>]``: bodies read and written as
  ``application/x-www-form-urlencoded``, the answer built with ``QueryDict.urlencode()``;
* ``/codecs/plist/notes[/<id>]``: bodies read and written as XML property lists
  (``application/x-plist``) with Python's ``plistlib``.

GET, POST (create), PUT and PATCH (update). Form values stay text; property-list values
keep their types. Records live in memory, one store per format.
"""

import plistlib
import threading

from django.http import HttpResponse, QueryDict
from django.urls import re_path
from django.views.decorators.csrf import csrf_exempt

FORM = "application/x-www-form-urlencoded"
PLIST = "application/x-plist"
STORES = {"form": {}, "plist": {}}
LOCK = threading.Lock()


def read_body(kind, request):
    if kind == "form":
        return {key: values[0] if len(values) == 1 else values for key, values in QueryDict(request.body).lists()}
    return plistlib.loads(request.body)


def reply(kind, record, status=200):
    if kind == "form":
        query = QueryDict(mutable=True)
        for key, value in record.items():
            query.setlist(key, [str(item) for item in value] if isinstance(value, list) else [str(value)])
        return HttpResponse(query.urlencode(), status=status, content_type=FORM)
    return HttpResponse(plistlib.dumps(record, fmt=plistlib.FMT_XML), status=status, content_type=PLIST)


@csrf_exempt
def notes(request, kind, note_id=None):
    store = STORES[kind]
    with LOCK:
        if note_id is None:
            if request.method != "POST":
                return HttpResponse(status=405)
            record = read_body(kind, request)
            record["id"] = len(store) + 1
            store[record["id"]] = record
            return reply(kind, record, status=201)
        record = store.get(int(note_id))
        if record is None:
            return HttpResponse(status=404)
        if request.method in ("PUT", "PATCH"):
            record.update(read_body(kind, request))
            record["id"] = int(note_id)
        elif request.method != "GET":
            return HttpResponse(status=405)
        return reply(kind, record)


urlpatterns = [
    re_path(r"^(?P<kind>form|plist)/notes/?$", notes),
    re_path(r"^(?P<kind>form|plist)/notes/(?P<note_id>[0-9]+)/?$", notes),
]
