"""Pieces shared by the Drupal 8+ core REST and Drupal 7 Services emulations."""

import base64
import hashlib
import hmac
import json
import secrets
import threading
import uuid

from django.conf import settings
from django.http import HttpResponse

# Drupal's per-site secrets (drupal_get_private_key(), $settings['hash_salt']).
PRIVATE_KEY = "keel-drupal-private-key"
HASH_SALT = "keel-drupal-hash-salt"
UUID_NAMESPACE = uuid.UUID("6f1b3e52-8f8e-4c0a-9d7e-2b8f3c1d0a55")


def stable_uuid(name):
    return str(uuid.uuid5(UUID_NAMESPACE, name))


# The one account (besides anonymous, uid 0). Documented in Tests/Server/README.md.
ADMIN = {
    "uid": 1,
    "name": "admin",
    "pass": "admin",
    "mail": "admin@example.com",
    "uuid": stable_uuid("user/1"),
    "created": 1700000000,
}
USERS = {0: {"uuid": stable_uuid("user/0")}, 1: ADMIN}

# Taxonomy terms (vocabulary "tags") that field_tags may reference.
TERM_NAMES = ["drupal", "rest", "keel", "swift", "backbone"]
TERMS = {
    tid: {"name": name, "uuid": stable_uuid(f"taxonomy_term/{tid}")} for tid, name in enumerate(TERM_NAMES, start=1)
}

BUNDLES = {
    "article": {"uuid": stable_uuid("node_type/article"), "promote": True},
    "page": {"uuid": stable_uuid("node_type/page"), "promote": False},
}


def php_json(value):
    """
    JSON exactly as PHP's json_encode() with JSON_HEX_TAG | JSON_HEX_APOS |
    JSON_HEX_AMP | JSON_HEX_QUOT writes it (Drupal's serializer and Symfony's
    JsonResponse): `/` becomes `\\/`, `< > & ' "` inside strings become
    `\\u003C \\u003E \\u0026 \\u0027 \\u0022`, non-ASCII becomes `\\uXXXX`.
    """
    if isinstance(value, str):
        return _php_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{" + ",".join(_php_string(str(k)) + ":" + php_json(v) for k, v in value.items()) + "}"
    return "[" + ",".join(php_json(v) for v in value) + "]"


_HEX = {"<": "\\u003C", ">": "\\u003E", "&": "\\u0026", "'": "\\u0027", '"': "\\u0022"}
_SHORT = {"\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _php_string(text):
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in _HEX:
            out.append(_HEX[ch])
        elif ch in _SHORT:
            out.append(_SHORT[ch])
        elif code < 0x20 or 0x80 <= code <= 0xFFFF:
            out.append("\\u%04x" % code)
        elif code > 0xFFFF:
            code -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def php_json_response(data, status=200, reason=None, headers=None):
    response = HttpResponse(php_json(data), status=status, content_type="application/json", headers=headers)
    if reason:
        response.reason_phrase = reason
    return response


def hmac_base64(data, key):
    """Drupal's Crypt::hmacBase64(): URL-safe base64 of an HMAC-SHA256, no padding."""
    digest = hmac.new(key.encode(), data.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def random_seed():
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()


def has_session_cookie(request):
    return settings.SESSION_COOKIE_NAME in request.COOKIES


def current_uid(request):
    """1 when the request's session cookie belongs to a logged-in admin, else 0."""
    if not has_session_cookie(request):
        return 0
    return 1 if request.session.get("uid") == 1 else 0


def media_type(request):
    return (request.META.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()


class NodeStore:
    """Thread-safe in-memory nodes of one site (the Drupal 8+ site, or the Drupal 7 site)."""

    def __init__(self):
        self.lock = threading.RLock()
        self.nodes = {}
        self.next_nid = 1

    def add(self, node):
        with self.lock:
            node["nid"] = node["vid"] = self.next_nid
            self.next_nid += 1
            self.nodes[node["nid"]] = node
            return dict(node)

    def get(self, nid):
        with self.lock:
            node = self.nodes.get(nid)
            return dict(node) if node is not None else None

    def put(self, node):
        with self.lock:
            if node["nid"] not in self.nodes:
                return None
            self.nodes[node["nid"]] = dict(node)
            return dict(node)

    def delete(self, nid):
        with self.lock:
            return self.nodes.pop(nid, None) is not None

    def all(self):
        with self.lock:
            return [dict(n) for n in self.nodes.values()]
