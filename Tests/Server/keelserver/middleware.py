import sys
import traceback

from django.http import QueryDict

FORM_URLENCODED = "application/x-www-form-urlencoded"


def media_type(request):
    return (request.META.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()


class KeelMiddleware:
    """
    * Remembers the HTTP verb on the wire as ``request.original_method``.
    * A POST with ``X-HTTP-Method-Override: VERB`` (Backbone emulateHTTP), or a
      form-encoded POST with a ``_method=VERB`` field (Backbone emulateJSON +
      emulateHTTP, Rails), is routed as VERB everywhere.
    * Prints tracebacks of unhandled exceptions to stderr (the response is
      Django's plain ``<h1>Server Error (500)</h1>``).
    * Drops Content-Length from 204/304 responses (RFC 9110).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.original_method = request.method
        if request.method == "POST":
            override = request.headers.get("X-HTTP-Method-Override", "").strip()
            if not override and media_type(request) == FORM_URLENCODED:
                # Reading request.body caches it; DRF re-reads it from the cache.
                override = QueryDict(request.body, encoding="utf-8").get("_method", "").strip()
            if override:
                request.method = override.upper()
        response = self.get_response(request)
        if response.status_code in (204, 304) and response.has_header("Content-Length"):
            del response["Content-Length"]
        return response

    def process_exception(self, request, exception):
        print(f"keel test server: unhandled exception for {request.method} {request.path}", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        return None
