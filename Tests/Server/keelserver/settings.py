"""Django settings for the Keel test server. Not for production use."""

import os

SECRET_KEY = "keel-test-server-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

# No database: records live in thread-safe in-memory dicts (keelserver.store)
# and DRF serializers do the validation.
DATABASES = {}
INSTALLED_APPS = ["rest_framework"]

MIDDLEWARE = [
    # Outermost: method override (emulateHTTP / _method), original method,
    # exception logging, 204/304 header clean-up.
    "keelserver.middleware.KeelMiddleware",
    # Sets Content-Length so keep-alive works. APPEND_SLASH is off.
    "django.middleware.common.CommonMiddleware",
]
# No CsrfViewMiddleware, no sessions, no auth: the API is CSRF-free.

ROOT_URLCONF = "keelserver.urls"
APPEND_SLASH = False
USE_I18N = False
USE_TZ = True
LANGUAGE_CODE = "en-us"
DEFAULT_CHARSET = "utf-8"
DATA_UPLOAD_MAX_MEMORY_SIZE = 16 * 1024 * 1024
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
