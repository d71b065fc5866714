"""
Drupal 7 with the Services 3.x module (REST server, session authentication), its
endpoint at path `d7`: /d7/user/login.json, /d7/user/logout.json,
/d7/user/token.json, /d7/node.json and /d7/node/{nid}.json.
See Tests/Server/README.md for what is emulated and what is not.
"""

import html
import json
import time
from http import HTTPStatus

from django.conf import settings

from .common import ADMIN, BUNDLES, HASH_SALT, PRIVATE_KEY, NodeStore, current_uid, hmac_base64, media_type
from .common import php_json_response, random_seed

STORE = NodeStore()
SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")
TEXT_FORMATS = ("filtered_html", "full_html", "plain_text")
DEFAULT_PAGE_SIZE = 20
STATUS_TEXT = {404: "Not found"}


def services_error(status, text, data=None):
    """services_error(): status line `<code> <reason>: <message>`, body [message] (or the data)."""
    reason = f"{STATUS_TEXT.get(status, HTTPStatus(status).phrase)}: {text}"
    return php_json_response([text] if data is None else data, status=status, reason=reason)


def services_token(request):
    """drupal_get_token('services'): an HMAC keyed by the session id."""
    session_id = request.session.session_key or random_seed()
    return hmac_base64("services", session_id + PRIVATE_KEY + HASH_SALT)


def response_format_error(request, ext):
    if ext == ".json" or (not ext and "application/json" in request.headers.get("Accept", "")):
        return None
    return services_error(406, "Unknown or unsupported response format.")


def authentication_error(request, exempt=False):
    """Session authentication: a logged-in session's unsafe requests need X-CSRF-Token."""
    if exempt or request.method in SAFE_METHODS or not current_uid(request):
        return None
    if request.headers.get("X-CSRF-Token") != services_token(request):
        return services_error(401, "CSRF validation failed")
    return None


def request_data(request):
    """The JSON body as a dict, or an error response."""
    if media_type(request) != "application/json":
        return None, services_error(406, f"Unsupported request content type {media_type(request) or 'none'}")
    try:
        data = json.loads(request.body)
    except ValueError:
        return None, services_error(400, "Invalid JSON.")
    if not isinstance(data, dict):
        return None, services_error(400, "Invalid JSON.")
    return data, None


def access_denied(uid):
    return services_error(401 if not uid else 403, f"Access denied for user {'admin' if uid else 'anonymous'}")


def not_allowed(allowed):
    response = services_error(405, "Method not allowed")
    response["Allow"] = allowed
    return response


# Users ---------------------------------------------------------------------


def user_action(request, action, ext=None):
    if request.method != "POST":
        return not_allowed("POST")
    error = response_format_error(request, ext) or authentication_error(request, exempt=action == "token")
    if error:
        return error
    if action == "token":
        return php_json_response({"token": services_token(request)})
    if action == "logout":
        if not current_uid(request):
            return services_error(406, "User is not logged in.")
        request.session.flush()
        return php_json_response([True])
    if current_uid(request):
        return services_error(406, f"Already logged in as {ADMIN['name']}.")
    data, error = request_data(request)
    if error:
        return error
    name = data.get("username", data.get("name"))
    password = data.get("password", data.get("pass"))
    if name != ADMIN["name"] or password != ADMIN["pass"]:
        return services_error(401, "Wrong username or password.")
    request.session.cycle_key()  # user_login_finalize() regenerates the session
    request.session["uid"] = ADMIN["uid"]
    now = int(time.time())
    return php_json_response({
        "sessid": request.session.session_key,
        "session_name": settings.SESSION_COOKIE_NAME,
        "token": services_token(request),
        "user": {
            "uid": str(ADMIN["uid"]), "name": ADMIN["name"], "mail": ADMIN["mail"], "theme": "",
            "signature": "", "signature_format": "filtered_html", "created": str(ADMIN["created"]),
            "access": str(now), "login": now, "status": "1", "timezone": "UTC", "language": "",
            "picture": None, "init": ADMIN["mail"], "data": False,
            "roles": {"2": "authenticated user", "3": "administrator"},
        },
    })


# Nodes ---------------------------------------------------------------------


def node_index_or_create(request, ext=None):
    if request.method not in ("GET", "HEAD", "POST"):
        return not_allowed("GET, POST")
    error = response_format_error(request, ext) or authentication_error(request)
    if error:
        return error
    uid = current_uid(request)
    if request.method in SAFE_METHODS:
        return _index(request, uid)
    if not uid:
        return access_denied(uid)
    data, error = request_data(request)
    if error:
        return error
    if "type" not in data:
        return services_error(406, "Missing node type")
    if data["type"] not in BUNDLES:
        return services_error(406, f"Invalid node type {data['type']}")
    now = int(time.time())
    node = {"type": data["type"], "title": "", "status": True, "promote": BUNDLES[data["type"]]["promote"],
            "sticky": False, "uid": uid, "created": now, "changed": now, "body": None, "field_tags": []}
    error = _apply(node, data)
    if error:
        return error
    node = STORE.add(node)
    return php_json_response(_reference(request, node))


def node_item(request, nid, ext=None):
    if request.method not in ("GET", "HEAD", "PUT", "DELETE"):
        return not_allowed("GET, PUT, DELETE")
    error = response_format_error(request, ext) or authentication_error(request)
    if error:
        return error
    uid = current_uid(request)
    node = STORE.get(int(nid))
    if request.method in SAFE_METHODS:
        if node is None:
            return services_error(404, f"Node {nid} could not be found")
        if not node["status"] and not uid:
            return access_denied(uid)
        return php_json_response(_full(request, node))
    if not uid:
        return access_denied(uid)
    if request.method == "DELETE":
        if not STORE.delete(int(nid)):
            return services_error(404, f"Node {nid} could not be found")
        return php_json_response([True])
    data, error = request_data(request)
    if error:
        return error
    if node is None:
        return services_error(404, f"Node {nid} not found")
    if data.get("type") and data["type"] != node["type"]:
        return services_error(406, "Node type cannot be changed")
    error = _apply(node, data)
    if error:
        return error
    node["changed"] = max(int(time.time()), node["changed"])
    if STORE.put(node) is None:
        return services_error(404, f"Node {nid} not found")
    return php_json_response(_reference(request, node))


def _apply(node, data):
    """Copies the submitted node form values; a form error answers 406 with form_errors."""
    for key in ("status", "promote", "sticky"):
        if key in data:
            node[key] = data[key] in (True, 1, "1", "true")
    if "title" in data:
        node["title"] = data["title"] if isinstance(data["title"], str) else ""
    if "body" in data:
        items = _und(data["body"])
        node["body"] = None if not items or not items[0].get("value") else {
            "value": str(items[0]["value"]),
            "summary": str(items[0].get("summary") or ""),
            "format": items[0].get("format") or "filtered_html",
        }
    if "field_tags" in data:
        node["field_tags"] = [str(item["tid"]) for item in _und(data["field_tags"]) if item.get("tid")]
    errors = {}
    if not node["title"].strip():
        errors["title"] = "Title field is required."
    if node["body"] and node["body"]["format"] not in TEXT_FORMATS:
        errors["body][und][0][format"] = "An illegal choice has been detected. Please contact the site administrator."
    if errors:
        return services_error(406, " ".join(errors.values()), data={"form_errors": errors})
    return None


def _und(field):
    """The items of a Field API value: {"und": [items]} (a bare list of items is taken too)."""
    items = field.get("und") if isinstance(field, dict) else field
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _uri(request, nid):
    return request.build_absolute_uri(f"/d7/node/{nid}")


def _reference(request, node):
    return {"nid": str(node["nid"]), "uri": _uri(request, node["nid"])}


def _summary(request, node):
    return {
        "nid": str(node["nid"]), "vid": str(node["vid"]), "type": node["type"], "language": "und",
        "title": node["title"], "uid": str(node["uid"]), "status": _flag(node["status"]),
        "created": str(node["created"]), "changed": str(node["changed"]), "comment": "1",
        "promote": _flag(node["promote"]), "sticky": _flag(node["sticky"]), "tnid": "0", "translate": "0",
        "uri": _uri(request, node["nid"]),
    }


def _full(request, node):
    body = node["body"]
    return {
        "vid": str(node["vid"]), "uid": str(node["uid"]), "title": node["title"], "log": "",
        "status": _flag(node["status"]), "comment": "1", "promote": _flag(node["promote"]),
        "sticky": _flag(node["sticky"]), "nid": str(node["nid"]), "type": node["type"], "language": "und",
        "created": str(node["created"]), "changed": str(node["changed"]), "tnid": "0", "translate": "0",
        "revision_timestamp": str(node["changed"]), "revision_uid": str(node["uid"]),
        # An empty field is PHP's empty array, which json_encode() writes as [].
        "body": [] if body is None else {"und": [{
            "value": body["value"], "summary": body["summary"], "format": body["format"],
            "safe_value": _safe(body["value"], body["format"]), "safe_summary": _safe(body["summary"], body["format"]),
        }]},
        "field_tags": {"und": [{"tid": tid} for tid in node["field_tags"]]} if node["field_tags"] else [],
        "name": ADMIN["name"] if node["uid"] else "", "picture": "0", "data": None,
        "path": _uri(request, node["nid"]),
    }


def _safe(text, text_format):
    """A rough stand-in for check_markup() (filtered_html: tags escaped or kept, paragraphs)."""
    if not text:
        return ""
    if text_format == "full_html":
        return text
    return "<p>" + html.escape(text, quote=False).replace("\n", "<br />\n") + "</p>\n"


def _flag(value):
    return "1" if value else "0"


def _index(request, uid):
    try:
        page = max(int(request.GET.get("page", "0")), 0)
        size = max(int(request.GET.get("pagesize", str(DEFAULT_PAGE_SIZE))), 1)
    except ValueError:
        return services_error(406, "Invalid page or pagesize.")
    nodes = [n for n in STORE.all() if n["status"] or uid]
    nodes.sort(key=lambda n: (n["sticky"], n["created"], n["nid"]), reverse=True)
    return php_json_response([_summary(request, n) for n in nodes[page * size:(page + 1) * size]])
