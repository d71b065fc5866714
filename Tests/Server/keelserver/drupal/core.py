"""
Drupal 8+ core REST (`?_format=json`): /session/token, /user/login, /user/logout,
/node and /node/{nid}, and a Views REST export at /api/articles.
See Tests/Server/README.md for what is emulated and what is not.
"""

import html
import json
import uuid

from django.http import HttpResponse

from . import fields
from .common import ADMIN, BUNDLES, HASH_SALT, PRIVATE_KEY, NodeStore, current_uid, hmac_base64, media_type
from .common import php_json_response, random_seed

STORE = NodeStore()
HEADER_TOKEN_KEY = "X-CSRF-Token request header"  # CsrfRequestHeaderAccessCheck::TOKEN_KEY
SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")
READ_ONLY = {
    "nid": " The entity ID cannot be changed.",
    "uuid": " The entity UUID cannot be changed.",
    "vid": "",
    "type": "",
    "langcode": "",
    "changed": "",
    "revision_timestamp": "",
    "revision_uid": "",
}
LIST_PAGE_SIZE = 10


def message(status, text, headers=None):
    return php_json_response({"message": text}, status=status, headers=headers)


def csrf_token(request, value):
    """Drupal's CsrfTokenGenerator::get(): an HMAC of `value` keyed by the session's seed."""
    seed = request.session.get("csrf_seed")  # none for anonymous: a throwaway token
    return hmac_base64(value, PRIVATE_KEY + (seed or random_seed()) + HASH_SALT)


def format_error(request):
    requested = request.GET.get("_format") or "html"
    if requested != "json":
        return message(406, f"Not acceptable format: {requested}")
    return None


def content_type_error(request):
    if request.META.get("CONTENT_TYPE") is None:
        return message(415, 'No "Content-Type" request header specified')
    if media_type(request) != "application/json":
        return message(415, f'No route found that matches "Content-Type: {request.META["CONTENT_TYPE"]}"')
    return None


def csrf_error(request):
    """CsrfRequestHeaderAccessCheck: unsafe requests of a logged-in session need X-CSRF-Token."""
    if request.method in SAFE_METHODS or not current_uid(request):
        return None
    sent = request.headers.get("X-CSRF-Token")
    if sent is None:
        return message(403, "X-CSRF-Token request header is missing")
    if sent not in (csrf_token(request, HEADER_TOKEN_KEY), csrf_token(request, "rest")):
        return message(403, "X-CSRF-Token request header is invalid")
    return None


def json_body(request):
    """The decoded body, or a 400 "Syntax error" response."""
    try:
        return json.loads(request.body), None
    except ValueError:
        return None, message(400, "Syntax error")


def not_allowed(request, allowed):
    url = request.build_absolute_uri()
    text = f'No route found for "{request.method} {url}": Method Not Allowed (Allow: {allowed})'
    return message(405, text, headers={"Allow": allowed})


# Session and user ----------------------------------------------------------


def session_token(request):
    """GET /session/token: the X-CSRF-Token for this session, as text/plain."""
    if request.method not in SAFE_METHODS:
        return not_allowed(request, "GET")
    return HttpResponse(csrf_token(request, HEADER_TOKEN_KEY), content_type="text/plain; charset=UTF-8")


def user_login(request):
    if request.method != "POST":
        return not_allowed(request, "POST")
    error = format_error(request)
    if error:
        return error
    if current_uid(request):
        return message(403, "This route can only be accessed by anonymous users.")
    credentials, error = json_body(request)
    if error:
        return error
    if not isinstance(credentials, dict):
        credentials = {}
    if "name" not in credentials and "pass" not in credentials:
        return message(400, "Missing credentials.")
    for key in ("name", "pass"):
        if key not in credentials:
            return message(400, f"Missing credentials.{key}.")
    if credentials["name"] != ADMIN["name"] or credentials["pass"] != ADMIN["pass"]:
        return message(400, "Sorry, unrecognized username or password.")
    request.session.cycle_key()  # Drupal regenerates the session id on login
    request.session["uid"] = ADMIN["uid"]
    request.session["csrf_seed"] = random_seed()
    return php_json_response({
        "current_user": {"uid": str(ADMIN["uid"]), "roles": ["authenticated", "administrator"],
                         "name": ADMIN["name"]},
        "csrf_token": csrf_token(request, "rest"),
        "logout_token": csrf_token(request, "user/logout"),
    })


def user_logout(request):
    if request.method != "POST":
        return not_allowed(request, "POST")
    error = format_error(request)
    if error:
        return error
    if not current_uid(request):
        return message(403, "This route can only be accessed by authenticated users.")
    token = request.GET.get("token")
    if token is None:
        return message(403, "'csrf_token' URL query argument is missing.")
    if token != csrf_token(request, "user/logout"):
        return message(403, "'csrf_token' URL query argument is invalid.")
    request.session.flush()
    return _empty(204)


def _empty(status):
    response = HttpResponse(status=status)
    del response["Content-Type"]
    return response


# Nodes ---------------------------------------------------------------------


def node_collection(request):
    """POST /node?_format=json"""
    if request.method != "POST":
        return not_allowed(request, "POST")
    error = format_error(request) or content_type_error(request) or csrf_error(request)
    if error:
        return error
    body, error = json_body(request)
    if error:
        return error
    if not isinstance(body, dict):
        body = {}
    try:
        bundle = fields.bundle_of(body)
        values, violations = fields.denormalize(body)
    except fields.Unprocessable as exc:
        return message(422, str(exc))
    if values.get("nid") is not None:
        return message(400, "Only new entities can be created")
    uid = current_uid(request)
    if not uid:
        return message(403, f"The 'create {bundle} content' permission is required.")
    for name in values:
        if name in ("vid", "changed", "revision_timestamp", "revision_uid"):
            return message(403, f"Access denied on creating field '{name}'.")
    created = fields.now()
    node = {
        "uuid": str(uuid.uuid4()), "type": bundle, "langcode": "en", "status": True, "uid": uid,
        "title": None, "created": created, "changed": created, "promote": BUNDLES[bundle]["promote"],
        "sticky": False, "revision_timestamp": created, "revision_uid": uid, "revision_log": None,
        "path": None, "body": None, "field_tags": [],
    }
    _apply(node, values)
    violations += fields.validate(node)
    if violations:
        return message(422, fields.validation_message(violations))
    node = STORE.add(node)
    location = request.build_absolute_uri(f"/node/{node['nid']}")
    return php_json_response(fields.normalize(node), status=201, headers={"Location": location})


def node_item(request, nid):
    """GET|PATCH|DELETE /node/{nid}?_format=json (GET without _format: the HTML page)."""
    if request.method not in ("GET", "HEAD", "PATCH", "DELETE"):
        return not_allowed(request, "GET, PATCH, DELETE")
    if request.method in SAFE_METHODS and not request.GET.get("_format"):
        return _html_page(request, nid)
    error = format_error(request)
    if not error and request.method == "PATCH":
        error = content_type_error(request)
    if error:
        return error
    node = STORE.get(int(nid)) if nid.isdigit() else None
    if node is None:
        route = {"HEAD": "GET"}.get(request.method, request.method)
        return message(404, f'The "node" parameter was not converted for the path "/node/{{node}}" '
                            f'(route name: "rest.entity.node.{route}")')
    error = csrf_error(request)
    if error:
        return error
    uid = current_uid(request)
    if request.method in SAFE_METHODS:
        if not node["status"] and not uid:
            return message(403, "The 'view any unpublished content' permission is required.")
        return php_json_response(fields.normalize(node))
    if request.method == "DELETE":
        if not uid:
            return message(403, f"You are not authorized to delete this node entity of bundle {node['type']}.")
        STORE.delete(node["nid"])
        return _empty(204)
    return _patch(request, node, uid)


def _patch(request, node, uid):
    body, error = json_body(request)
    if error:
        return error
    if not isinstance(body, dict):
        body = {}
    try:
        fields.bundle_of(body)
        values, violations = fields.denormalize(body)
    except fields.Unprocessable as exc:
        return message(422, str(exc))
    if not uid:
        return message(403, f"You are not authorized to update this node entity of bundle {node['type']}.")
    for name, value in values.items():
        if name in READ_ONLY and str(value) != str(node.get(name)):
            return message(403, f"Access denied on updating field '{name}'.{READ_ONLY[name]}")
    updated = dict(node)
    _apply(updated, {name: value for name, value in values.items() if name not in READ_ONLY})
    violations += fields.validate(updated)
    if violations:
        return message(422, fields.validation_message(violations))
    updated["changed"] = max(fields.now(), node["changed"])
    saved = STORE.put(updated)
    if saved is None:  # deleted meanwhile
        return message(404, 'The "node" parameter was not converted for the path "/node/{node}" '
                            '(route name: "rest.entity.node.PATCH")')
    return php_json_response(fields.normalize(saved))


def _apply(node, values):
    for name, value in values.items():
        if name in ("default_langcode", "revision_translation_affected"):
            continue
        if value is None and name in ("status", "promote", "sticky", "created", "uid", "langcode"):
            continue  # an empty list leaves a required field at its current (or default) value
        if name == "field_tags":
            node[name] = value or []
        else:
            node[name] = value


def _html_page(request, nid):
    """The node's canonical HTML page, which Drupal serves when no ?_format is given."""
    node = STORE.get(int(nid)) if nid.isdigit() else None
    if node is None or (not node["status"] and not current_uid(request)):
        status = 404 if node is None else 403
        return HttpResponse(f"<!DOCTYPE html>\n<html><body><h1>{'Page not found' if status == 404 else 'Access denied'}"
                            "</h1></body></html>\n", status=status, content_type="text/html; charset=UTF-8")
    title = html.escape(node["title"])
    body = fields.processed(node["body"]["value"], node["body"]["format"]) if node["body"] else ""
    page = f"<!DOCTYPE html>\n<html lang=\"en\"><head><title>{title} | Keel</title></head>" \
           f"<body><article><h1>{title}</h1>{body}</article></body></html>\n"
    return HttpResponse(page, content_type="text/html; charset=UTF-8")


# Views REST export ----------------------------------------------------------


def article_list(request):
    """GET /api/articles?_format=json: published articles, newest first, 10 a page (?page=0…)."""
    if request.method not in SAFE_METHODS:
        return not_allowed(request, "GET")
    error = format_error(request)
    if error:
        return error
    try:
        page = max(int(request.GET.get("page", "0")), 0)
    except ValueError:
        page = 0
    nodes = [n for n in STORE.all() if n["type"] == "article" and n["status"]]
    nodes.sort(key=lambda n: (n["created"], n["nid"]), reverse=True)
    window = nodes[page * LIST_PAGE_SIZE:(page + 1) * LIST_PAGE_SIZE]
    return php_json_response([fields.normalize(n) for n in window])
