import json
import time
import urllib.parse
from http import HTTPStatus
from io import BytesIO

from django.http import HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParser, MultiPartParserError
from django.views.decorators.csrf import csrf_exempt
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.response import Response
from rest_framework.views import APIView

from .middleware import FORM_URLENCODED, media_type
from .serializers import (
    NoteQuerySerializer,
    NoteSerializer,
    TodoQuerySerializer,
    TodoSerializer,
    UserSerializer,
    UserUpdateSerializer,
)
from .store import STORE

NOT_FOUND = {"error": "not found"}
SERVER_ERROR_HTML = "<h1>Server Error (500)</h1>"
FORM_TYPES = (FORM_URLENCODED, "multipart/form-data")


# Helpers -------------------------------------------------------------------


def raw_path(request):
    """The request path exactly as received on the wire (still percent-encoded)."""
    raw = request.META.get("RAW_URI")
    if raw is None:
        return urllib.parse.quote(request.path, safe="/:@!$&'()*+,;=-._~%")
    if not raw.startswith("/"):  # absolute-form request target
        raw = urllib.parse.urlsplit(raw).path or "/"
    return raw.split("?", 1)[0]


def raw_tail(request, prefix, fallback):
    """
    Decode the part of the raw path after ``prefix`` as ONE segment, so
    ``/users/a%2Fb`` gives ``a/b``. Falls back to the (already decoded) URL
    kwarg when the raw URI is unavailable.
    """
    path = raw_path(request)
    if request.META.get("RAW_URI") is None or not path.startswith(prefix):
        return fallback
    tail = path[len(prefix):]
    # http.server decodes the request line as latin-1; undo that first so raw
    # (unencoded) UTF-8 bytes and %-escapes both decode as UTF-8.
    data = urllib.parse.unquote_to_bytes(tail.encode("latin-1", "replace"))
    return data.decode("utf-8", "replace")


def multi_dict(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            if not isinstance(out[key], list):
                out[key] = [out[key]]
            out[key].append(value)
        else:
            out[key] = value
    return out


def payload(request):
    """
    The record fields of a notes/users write request:
    JSON body, or Backbone emulateJSON form body (``model=<json>``), or plain
    form fields.
    """
    media = media_type(request)
    if media in FORM_TYPES:
        data = request.data  # parsed by DRF's FormParser / MultiPartParser
        if "model" in data:
            try:
                model = json.loads(data["model"])
            except ValueError as exc:
                raise ParseError(f"JSON parse error in 'model' form field - {exc}")
            return model
        return {k: v for k, v in data.items() if k != "_method"}
    if media in ("", "text/plain"):
        body = request.body
        if not body.strip():
            return {}
        try:
            return json.loads(body)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}")
    return request.data  # JSONParser; other media types -> DRF's 415


def empty(code):
    response = HttpResponse(status=code)
    del response["Content-Type"]
    return response


def validation_failed(serializer, code):
    return Response(serializer.errors, status=code)


# Notes (Rails conventions: integer ids, 422 on validation errors) -----------


class NoteList(APIView):
    def get(self, request):
        # A plain dict: with a QueryDict DRF treats an absent boolean as false.
        query = NoteQuerySerializer(data=request.query_params.dict())
        if not query.is_valid():
            return Response(query.errors, status=status.HTTP_400_BAD_REQUEST)
        params = query.validated_data
        notes = STORE.list_notes()
        if "title" in params:
            notes = [n for n in notes if n["title"] == params["title"]]
        if "done" in params:
            notes = [n for n in notes if n["done"] == params["done"]]
        total = len(notes)
        if "page" in params or "per_page" in params:
            page = params.get("page", 1)
            per_page = params.get("per_page", 25)
            notes = notes[(page - 1) * per_page : page * per_page]
        return Response(notes, headers={"X-Total-Count": str(total)})

    def post(self, request):
        serializer = NoteSerializer(data=payload(request))
        if not serializer.is_valid():
            return validation_failed(serializer, status.HTTP_422_UNPROCESSABLE_ENTITY)
        return Response(STORE.create_note(serializer.validated_data), status=status.HTTP_201_CREATED)


class NoteDetail(APIView):
    def get(self, request, note_id):
        note = STORE.get_note(int(note_id))
        if note is None:
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        return Response(note)

    def put(self, request, note_id, partial=False):
        note_id = int(note_id)
        note = STORE.get_note(note_id)
        if note is None:
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        serializer = NoteSerializer(note, data=payload(request), partial=partial)
        if not serializer.is_valid():
            return validation_failed(serializer, status.HTTP_422_UNPROCESSABLE_ENTITY)
        updated = STORE.update_note(note_id, serializer.validated_data)
        if updated is None:  # deleted concurrently
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        return Response(updated)

    def patch(self, request, note_id):
        return self.put(request, note_id, partial=True)

    def delete(self, request, note_id):
        if not STORE.delete_note(int(note_id)):
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        return Response(status=status.HTTP_204_NO_CONTENT)


# Todos (the `todos` example app; Rails conventions like notes) ---------------


class TodoList(APIView):
    def get(self, request):
        query = TodoQuerySerializer(data=request.query_params.dict())
        if not query.is_valid():
            return Response(query.errors, status=status.HTTP_400_BAD_REQUEST)
        todos = STORE.list_todos()
        if "done" in query.validated_data:
            todos = [t for t in todos if t["done"] == query.validated_data["done"]]
        return Response(todos, headers={"X-Total-Count": str(len(todos))})

    def post(self, request):
        serializer = TodoSerializer(data=payload(request))
        if not serializer.is_valid():
            return validation_failed(serializer, status.HTTP_422_UNPROCESSABLE_ENTITY)
        return Response(STORE.create_todo(serializer.validated_data), status=status.HTTP_201_CREATED)


class TodoDetail(APIView):
    def get(self, request, todo_id):
        todo = STORE.get_todo(int(todo_id))
        if todo is None:
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        return Response(todo)

    def put(self, request, todo_id, partial=False):
        todo_id = int(todo_id)
        todo = STORE.get_todo(todo_id)
        if todo is None:
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        serializer = TodoSerializer(todo, data=payload(request), partial=partial)
        if not serializer.is_valid():
            return validation_failed(serializer, status.HTTP_422_UNPROCESSABLE_ENTITY)
        updated = STORE.update_todo(todo_id, serializer.validated_data)
        if updated is None:  # deleted concurrently
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        return Response(updated)

    def patch(self, request, todo_id):
        return self.put(request, todo_id, partial=True)

    def delete(self, request, todo_id):
        if not STORE.delete_todo(int(todo_id)):
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        return Response(status=status.HTTP_204_NO_CONTENT)


# Users (DRF conventions: client-chosen string ids, 400 on validation errors)


class UserList(APIView):
    def get(self, request):
        return Response(STORE.list_users())

    def post(self, request):
        serializer = UserSerializer(data=payload(request))
        with STORE.lock:  # uniqueness check + insert are atomic
            if not serializer.is_valid():
                return validation_failed(serializer, status.HTTP_400_BAD_REQUEST)
            record = STORE.put_user(serializer.validated_data)
        return Response(record, status=status.HTTP_201_CREATED)


class UserDetail(APIView):
    def user_id(self, request, user_id):
        return raw_tail(request, "/users/", user_id)

    def get(self, request, user_id):
        user = STORE.get_user(self.user_id(request, user_id))
        if user is None:
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        return Response(user)

    def put(self, request, user_id, partial=False):
        user_id = self.user_id(request, user_id)
        with STORE.lock:
            user = STORE.get_user(user_id)
            if user is None:
                return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
            serializer = UserUpdateSerializer(user, data=payload(request), partial=partial)
            if not serializer.is_valid():
                return validation_failed(serializer, status.HTTP_400_BAD_REQUEST)
            return Response(STORE.update_user(user_id, serializer.validated_data))

    def patch(self, request, user_id):
        return self.put(request, user_id, partial=True)

    def delete(self, request, user_id):
        if not STORE.delete_user(self.user_id(request, user_id)):
            return Response(NOT_FOUND, status=status.HTTP_404_NOT_FOUND)
        return Response(status=status.HTTP_204_NO_CONTENT)


# Test utilities --------------------------------------------------------------


@csrf_exempt
def echo(request, rest=None):
    body = request.body
    media = media_type(request)
    text = body.decode("utf-8", "replace")
    try:
        parsed_json = json.loads(body) if body.strip() else None
    except ValueError:
        parsed_json = None
    form = None
    if media == FORM_URLENCODED:
        form = multi_dict(urllib.parse.parse_qsl(text, keep_blank_values=True))
    elif media == "multipart/form-data":
        try:
            post, files = MultiPartParser(request.META, BytesIO(body), request.upload_handlers, "utf-8").parse()
            form = multi_dict([(k, v) for k, vs in post.lists() for v in vs])
            form.update({k: f.name for k, f in files.items()})
        except MultiPartParserError:
            form = None
    headers = {name.lower(): value for name, value in request.headers.items()}
    return JsonResponse(
        {
            "method": request.method,
            "original_method": getattr(request, "original_method", request.method),
            "path": raw_path(request),
            "query": multi_dict(urllib.parse.parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)),
            "headers": headers,
            "content_type": request.META.get("CONTENT_TYPE", ""),
            "body": text,
            "json": parsed_json,
            "form": form,
        },
        json_dumps_params={"ensure_ascii": False},
    )


def slow(request):
    try:
        seconds = float(request.GET.get("seconds", "1"))
    except ValueError:
        return JsonResponse({"seconds": ["must be a number"]}, status=400)
    if seconds != seconds:  # NaN
        seconds = 0.0
    seconds = min(max(seconds, 0.0), 30.0)
    time.sleep(seconds)
    return JsonResponse({"slept": seconds})


def malformed(request):
    return HttpResponse('{"id": 1, "title": ', content_type="application/json")


def server_error(request):
    return HttpResponse(SERVER_ERROR_HTML, status=500, content_type="text/html")


def status_code(request, code):
    code = int(code)
    if not 200 <= code <= 599:
        return JsonResponse({"status": ["must be between 200 and 599"]}, status=400)
    if code in (204, 304):
        return empty(code)
    return JsonResponse({"status": code}, status=code)


WEBSITE_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{phrase} &middot; Example</title>
</head>
<body>
  <h1>{phrase}</h1>
  <p>Sorry, the page at <code>{path}</code> cannot be shown.</p>
</body>
</html>
"""


@csrf_exempt
def website(request, code):
    """Another web site's error page, for clients pointed at the wrong URL."""
    code = int(code)
    if not 400 <= code <= 599:
        return JsonResponse({"status": ["must be between 400 and 599"]}, status=400)
    try:
        phrase = HTTPStatus(code).phrase
    except ValueError:
        phrase = "Error"
    page = WEBSITE_PAGE.format(phrase=phrase, path=request.path)
    return HttpResponse(page, status=code, content_type="text/html; charset=utf-8")


def reset(request):
    if request.method != "POST":
        return JsonResponse({"detail": f'Method "{request.method}" not allowed.'}, status=405, headers={"Allow": "POST"})
    STORE.reset()
    return empty(204)


# Error handlers (DEBUG=False) ------------------------------------------------


def handler404(request, exception=None):
    return JsonResponse(NOT_FOUND, status=404)


def handler500(request):
    return HttpResponse(SERVER_ERROR_HTML, status=500, content_type="text/html")
