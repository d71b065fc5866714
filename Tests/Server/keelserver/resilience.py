"""
Endpoints for Keel's request-management decorators, written as Django and DRF
users write them: a flaky endpoint for retries, a resource with ETag and
Last-Modified through Django's ``condition`` decorator, and short-lived bearer
tokens checked by a DRF authentication class.
"""

import secrets
import threading
import time
from datetime import datetime, timezone

from django.views.decorators.http import condition
from rest_framework import status
from rest_framework.authentication import BaseAuthentication
from rest_framework.decorators import api_view
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

LOCK = threading.Lock()


# Flaky: 503 (or 429) with Retry-After the first N times per key --------------

ATTEMPTS = {}  # key -> number of requests received


@api_view(["GET", "POST", "PUT", "PATCH", "DELETE"])
def flaky(request, key):
    try:
        failures = int(request.query_params.get("failures", "2"))
        code = int(request.query_params.get("status", "503"))
    except ValueError:
        return Response({"detail": "failures and status must be integers"}, status=400)
    retry_after = request.query_params.get("retry_after", "0")
    with LOCK:
        ATTEMPTS[key] = ATTEMPTS.get(key, 0) + 1
        attempt = ATTEMPTS[key]
    if attempt <= failures:
        return Response(
            {"detail": "Service temporarily unavailable.", "attempt": attempt},
            status=code,
            headers={"Retry-After": retry_after},
        )
    return Response({"key": key, "method": request.method, "attempts": attempt})


@api_view(["GET"])
def flaky_attempts(request, key):
    with LOCK:
        return Response({"key": key, "attempts": ATTEMPTS.get(key, 0)})


# Documents: ETag and Last-Modified, 304 through Django's condition decorator --

DOCUMENTS = {}  # key -> {"record": dict, "version": int, "modified": datetime, "reads": int}


def document_etag(request, key):
    with LOCK:
        document = DOCUMENTS.get(key)
        return f'"{key}-v{document["version"]}"' if document else None


def document_modified(request, key):
    with LOCK:
        document = DOCUMENTS.get(key)
        return document["modified"] if document else None


@api_view(["GET", "PUT"])
@condition(etag_func=document_etag, last_modified_func=document_modified)
def document(request, key):
    with LOCK:
        if request.method == "PUT":
            previous = DOCUMENTS.get(key)
            version = previous["version"] + 1 if previous else 1
            record = {**request.data, "id": key, "version": version}
            DOCUMENTS[key] = {
                "record": record,
                "version": version,
                "modified": datetime.now(timezone.utc).replace(microsecond=0),
                "full_reads": 0,
            }
            return Response(record)
        found = DOCUMENTS.get(key)
        if found is None:
            return Response({"detail": "Not found."}, status=status.HTTP_404_NOT_FOUND)
        found["full_reads"] += 1
        return Response(found["record"], headers={"X-Full-Reads": str(found["full_reads"])})


# Tokens: short-lived bearer tokens, 401 when expired ---------------------------

USERS = {"ann": "secret", "bob": "hunter2"}
TOKENS = {}  # token -> (username, expires at, as time.time())
ISSUED = {}  # username -> tokens issued


class TokenUser:
    is_authenticated = True

    def __init__(self, username):
        self.username = username


class ExpiringBearerAuthentication(BaseAuthentication):
    """`Authorization: Bearer <token>`; an unknown or expired token is a 401."""

    def authenticate(self, request):
        parts = request.headers.get("Authorization", "").split()
        if len(parts) != 2 or parts[0].lower() != "bearer":
            return None
        with LOCK:
            found = TOKENS.get(parts[1])
        if found is None:
            raise AuthenticationFailed("Invalid token.")
        username, expires = found
        if expires <= time.time():
            raise AuthenticationFailed("Token is expired.")
        return (TokenUser(username), parts[1])

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


@api_view(["POST"])
def issue_token(request):
    username = request.data.get("username")
    if USERS.get(username) != request.data.get("password"):
        return Response({"detail": "No active account found with the given credentials"}, status=401)
    try:
        lifetime = float(request.data.get("lifetime", 300))
    except (TypeError, ValueError):
        return Response({"lifetime": ["A valid number is required."]}, status=400)
    token = secrets.token_urlsafe(24)
    with LOCK:
        TOKENS[token] = (username, time.time() + lifetime)
        ISSUED[username] = ISSUED.get(username, 0) + 1
    return Response({"access": token, "token_type": "Bearer", "expires_in": lifetime})


class Me(APIView):
    authentication_classes = [ExpiringBearerAuthentication]
    permission_classes = [IsAuthenticated]

    def get(self, request):
        with LOCK:
            issued = ISSUED.get(request.user.username, 0)
        return Response({"username": request.user.username, "tokens_issued": issued})
