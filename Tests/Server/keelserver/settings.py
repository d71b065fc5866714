"""Django settings for the Keel test server. Not for production use."""

import os

SECRET_KEY = "keel-test-server-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

# Notes, todos and users live in thread-safe in-memory dicts (keelserver.store)
# and DRF serializers do the validation. The stock DRF resources
# (keelserver.articles) and the Drupal sessions use SQLite: a fresh file per
# server process, created and migrated by serve.py (KEEL_TEST_SERVER_DB).
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("KEEL_TEST_SERVER_DB", ":memory:"),
        # Parallel tests write from many request threads: wait for the lock
        # instead of failing with "database is locked".
        "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"},
    }
}
INSTALLED_APPS = ["django.contrib.sessions", "rest_framework", "keelserver.articles", "keelserver.idempotency", "keelserver.library", "keelserver.jsonapi", "keelserver.changes"]

MIDDLEWARE = [
    # Outermost: method override (emulateHTTP / _method), original method,
    # exception logging, 204/304 header clean-up.
    "keelserver.middleware.KeelMiddleware",
    # Sessions are only touched by the Drupal emulation (keelserver.drupal);
    # other endpoints never read them, so they send no cookies.
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Sets Content-Length so keep-alive works, and APPEND_SLASH redirects.
    "django.middleware.common.CommonMiddleware",
    # Idempotency-Key on creates: a stored key gets the same response again.
    "keelserver.idempotency.middleware.IdempotencyKeyMiddleware",
]
# No CsrfViewMiddleware and no django.contrib.auth: notes, todos, users and
# /drf/ are CSRF-free; the Drupal emulation checks X-CSRF-Token itself.

# Drupal names its session cookie SESS + substr(sha256(cookie domain), 0, 32).
SESSION_COOKIE_NAME = "SESS12ca17b49af2289436f303e0166030a2"
SESSION_COOKIE_AGE = 2000000  # Drupal's default session lifetime (~23 days)

ROOT_URLCONF = "keelserver.urls"
# Django's default: a URL that only resolves with a trailing slash answers
# 301 to it (only the /drf/ routes; every other route resolves either way).
APPEND_SLASH = True
USE_I18N = False
USE_TZ = True
TIME_ZONE = "UTC"
LANGUAGE_CODE = "en-us"
DEFAULT_CHARSET = "utf-8"
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024 * 1024
# Uploaded files (keelserver.articles.Attachment) go beside the database file, so they are
# deleted with it; larger uploads than FILE_UPLOAD_MAX_MEMORY_SIZE stream to temporary files.
MEDIA_ROOT = os.path.join(os.path.dirname(os.path.abspath(DATABASES["default"]["NAME"])), "media")
MEDIA_URL = "/media/"
TEMPLATES = []

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Always answer JSON, whatever the Accept header says (no 406s).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "keelserver.negotiation.AlwaysJSON",
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "UNICODE_JSON": True,
    "COMPACT_JSON": True,
    # djangorestframework-jsonapi's handler: JSON:API error objects for its views only
    # (keelserver.jsonapi); every other view keeps DRF's errors.
    "EXCEPTION_HANDLER": "rest_framework_json_api.exceptions.exception_handler",
}

VERBOSE = os.environ.get("KEEL_TEST_SERVER_VERBOSE", "") not in ("", "0")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr"}},
    "loggers": {
        # 4xx/5xx responses are expected in tests; unhandled exceptions are
        # printed by KeelMiddleware instead.
        "django.request": {"handlers": ["stderr"], "level": "WARNING" if VERBOSE else "CRITICAL", "propagate": False},
        "django.server": {"handlers": ["stderr"], "level": "INFO" if VERBOSE else "CRITICAL", "propagate": False},
        "django": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
    },
}
