"""
Drupal 10 core's JSON:API module for article nodes: /jsonapi/node/article and
/jsonapi/node/article/{uuid}, with the users and tags they link to as includable
resources. It shares the Drupal 8+ site's nodes and sessions (core.py): a node
created through REST is served here and the other way round. See
Tests/Server/README.md for what is emulated and what is not.
"""

import json
import uuid

from django.http import HttpResponse

from . import core, fields, filters
from .common import ADMIN, BUNDLES, TERMS, USERS, current_uid, media_type

MEDIA_TYPE = "application/vnd.api+json"
TYPE = "node--article"
JSONAPI = {"version": "1.0", "meta": {"links": {"self": {"href": "http://jsonapi.org/format/1.0/"}}}}
MAX_LIMIT = 50
READ_ONLY = ("drupal_internal__nid", "drupal_internal__vid", "changed", "revision_timestamp")
RELATIONSHIPS = {"node_type": "node_type--node_type", "uid": "user--user", "revision_uid": "user--user",
                 "field_tags": "taxonomy_term--tags"}
INCLUDABLE = ("uid", "revision_uid", "field_tags")


def document(request, body, status=200, headers=None):
    body = {"jsonapi": JSONAPI, **body}
    return HttpResponse(json.dumps(body), status=status, content_type=MEDIA_TYPE, headers=headers)


def error(request, status, title, detail, pointer=None):
    item = {"title": title, "status": str(status), "detail": detail,
            "links": {"via": {"href": request.build_absolute_uri()}}}
    if pointer:
        item["source"] = {"pointer": pointer}
    return document(request, {"errors": [item]}, status=status)


def _base(request):
    return request.build_absolute_uri("/jsonapi")


# Resource objects -----------------------------------------------------------


def _user(request, uid):
    user_uuid = USERS[uid]["uuid"]
    attributes = {"display_name": "Anonymous" if uid == 0 else ADMIN["name"], "drupal_internal__uid": uid}
    if uid:
        attributes["name"] = ADMIN["name"]
    return {"type": "user--user", "id": user_uuid, "attributes": attributes,
            "links": {"self": {"href": f"{_base(request)}/user/user/{user_uuid}"}}}


def _term(request, tid):
    term = TERMS[tid]
    return {"type": "taxonomy_term--tags", "id": term["uuid"],
            "attributes": {"drupal_internal__tid": tid, "name": term["name"]},
            "links": {"self": {"href": f"{_base(request)}/taxonomy_term/tags/{term['uuid']}"}}}


def _identifier(kind, target):
    if kind == "node_type--node_type":
        return {"type": kind, "id": BUNDLES[target]["uuid"], "meta": {"drupal_internal__target_id": target}}
    if kind == "user--user":
        return {"type": kind, "id": USERS[target]["uuid"], "meta": {"drupal_internal__target_id": target}}
    return {"type": kind, "id": TERMS[target]["uuid"], "meta": {"drupal_internal__target_id": target}}


def resource(request, node, fieldset=None):
    self_link = f"{_base(request)}/node/article/{node['uuid']}"
    body = node.get("body")
    attributes = {
        "drupal_internal__nid": node["nid"], "drupal_internal__vid": node["vid"], "langcode": node["langcode"],
        "revision_timestamp": fields.timestamp_text(node["revision_timestamp"]), "revision_log": node.get("revision_log"),
        "status": node["status"], "title": node["title"], "created": fields.timestamp_text(node["created"]),
        "changed": fields.timestamp_text(node["changed"]), "promote": node["promote"], "sticky": node["sticky"],
        "default_langcode": True, "revision_translation_affected": True,
        "path": {"alias": node.get("path"), "pid": None, "langcode": "en"},
        "body": None if body is None else {"value": body["value"], "format": body["format"],
                                           "processed": fields.processed(body["value"], body["format"]),
                                           "summary": body["summary"]},
    }
    targets = {"node_type": node["type"], "uid": node["uid"], "revision_uid": node["revision_uid"],
               "field_tags": node["field_tags"]}
    relationships = {}
    for name, kind in RELATIONSHIPS.items():
        target = targets[name]
        data = [_identifier(kind, t) for t in target] if isinstance(target, list) else _identifier(kind, target)
        relationships[name] = {"data": data, "links": {"related": {"href": f"{self_link}/{name}"},
                                                       "self": {"href": f"{self_link}/relationships/{name}"}}}
    if fieldset is not None:
        attributes = {k: v for k, v in attributes.items() if k in fieldset}
        relationships = {k: v for k, v in relationships.items() if k in fieldset}
    return {"type": TYPE, "id": node["uuid"], "links": {"self": {"href": self_link}},
            "attributes": attributes, "relationships": relationships}


def _included(request, nodes, include):
    """The users and tags the `include` paths reach, each once."""
    seen, included = set(), []
    for node in nodes:
        for name in include:
            targets = node["field_tags"] if name == "field_tags" else [node[name]]
            for target in targets:
                item = _term(request, target) if name == "field_tags" else _user(request, target)
                if (item["type"], item["id"]) not in seen:
                    seen.add((item["type"], item["id"]))
                    included.append(item)
    return included


def _values_at(request, node, path):
    """The values a filter path reaches on a node: an attribute, a relationship's target
    (`uid.id`), or an attribute of a user or tag it links to (`uid.name`, `field_tags.name`).
    Raises filters.Invalid for a path Drupal would refuse."""
    item = resource(request, node)
    head, _, rest = path.partition(".")
    if head in item["attributes"] and not rest:
        return [item["attributes"][head]]
    if head == "id" and not rest:
        return [item["id"]]
    if head in ("uid", "revision_uid", "field_tags"):
        linkage = item["relationships"][head]["data"]
        targets = linkage if isinstance(linkage, list) else [linkage]
        field = rest or "id"
        if field == "id":
            return [t["id"] for t in targets]
        values = []
        for target in targets:
            tid = target["meta"]["drupal_internal__target_id"]
            related = _term(request, tid) if head == "field_tags" else _user(request, tid)
            if field not in related["attributes"]:
                raise filters.Invalid(f"Invalid nested filtering. The field `{field}`, given in the path `{path}`, "
                                      "does not exist.")
            values.append(related["attributes"][field])
        return values
    raise filters.Invalid(f"Invalid nested filtering. The field `{head}`, given in the path `{path}`, does not exist.")


def _selection(request):
    """(include, fieldset of node--article) from the query, or an error response."""
    include = [path for path in request.GET.get("include", "").split(",") if path]
    for path in include:
        if path not in INCLUDABLE:
            return None, None, error(request, 400, "Bad Request",
                                     f"`{path}` is not a valid relationship field name. "
                                     f"Possible values: {', '.join(RELATIONSHIPS)}.")
    fields_param = request.GET.get(f"fields[{TYPE}]")
    fieldset = set(fields_param.split(",")) if fields_param is not None else None
    return include, fieldset, None


# Routes ---------------------------------------------------------------------


def collection(request):
    """GET|POST /jsonapi/node/article"""
    if request.method == "POST":
        return _create(request)
    if request.method not in core.SAFE_METHODS:
        return error(request, 405, "Method Not Allowed", f"No route found for \"{request.method}\": Method Not Allowed (Allow: GET, POST)")
    include, fieldset, failure = _selection(request)
    if failure:
        return failure
    nodes = sorted((n for n in core.STORE.all() if n["type"] == "article"), key=lambda n: n["nid"])
    if not current_uid(request):
        nodes = [n for n in nodes if n["status"]]
    try:
        matches = filters.parse(request.GET)
        nodes = [n for n in nodes if matches(lambda path, n=n: _values_at(request, n, path))]
    except filters.Invalid as exc:
        return error(request, 400, "Bad Request", str(exc))
    try:
        offset = max(int(request.GET.get("page[offset]", "0")), 0)
        limit = min(max(int(request.GET.get("page[limit]", str(MAX_LIMIT))), 1), MAX_LIMIT)
    except ValueError:
        return error(request, 400, "Bad Request", "The page parameters must be integers.")
    window = nodes[offset:offset + limit]
    links = {"self": {"href": request.build_absolute_uri()}}
    query = request.GET.copy()
    if offset + limit < len(nodes):
        query["page[offset]"] = str(offset + limit)
        query["page[limit]"] = str(limit)
        links["next"] = {"href": f"{_base(request)}/node/article?{query.urlencode()}"}
    if offset > 0:
        query["page[offset]"] = str(max(offset - limit, 0))
        query["page[limit]"] = str(limit)
        links["prev"] = {"href": f"{_base(request)}/node/article?{query.urlencode()}"}
    body = {"data": [resource(request, n, fieldset) for n in window], "links": links}
    if include:
        body["included"] = _included(request, window, include)
    return document(request, body)


def item(request, node_uuid):
    """GET|PATCH|DELETE /jsonapi/node/article/{uuid}"""
    if request.method not in ("GET", "HEAD", "PATCH", "DELETE"):
        return error(request, 405, "Method Not Allowed", f"No route found for \"{request.method}\": Method Not Allowed (Allow: GET, PATCH, DELETE)")
    node = next((n for n in core.STORE.all() if n["uuid"] == node_uuid and n["type"] == "article"), None)
    if node is None:
        return error(request, 404, "Not Found", 'The "entity" parameter was not converted for the path '
                                                '"/jsonapi/node/article/{entity}" (route name: "jsonapi.node--article.individual")')
    if request.method in core.SAFE_METHODS:
        if not node["status"] and not current_uid(request):
            return error(request, 403, "Forbidden", "The current user is not allowed to GET the selected resource.")
        include, fieldset, failure = _selection(request)
        if failure:
            return failure
        body = {"data": resource(request, node, fieldset), "links": {"self": {"href": request.build_absolute_uri()}}}
        if include:
            body["included"] = _included(request, [node], include)
        return document(request, body)
    failure = _write_access(request, "PATCH" if request.method == "PATCH" else "DELETE")
    if failure:
        return failure
    if request.method == "DELETE":
        core.STORE.delete(node["nid"])
        response = HttpResponse(status=204)
        del response["Content-Type"]
        return response
    return _update(request, node)


def _write_access(request, verb):
    """Content negotiation, the CSRF token of a cookie session, then the permission."""
    if verb != "DELETE" and media_type(request) != MEDIA_TYPE:
        return error(request, 415, "Unsupported Media Type",
                     f'No route found that matches "Content-Type: {request.META.get("CONTENT_TYPE", "")}"')
    csrf = core.csrf_error(request)
    if csrf:
        return error(request, 403, "Forbidden", json.loads(csrf.content)["message"])
    if not current_uid(request):
        return error(request, 403, "Forbidden",
                     f"The current user is not allowed to {verb} the selected resource. The following permissions "
                     "are required: 'administer content' OR 'create article content'.")
    return None


def _values(request, body, node):
    """The node fields a document sets, or an error response."""
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        return None, error(request, 400, "Bad Request", "Missing `data`.")
    if data.get("type") != TYPE:
        return None, error(request, 409, "Conflict", f"The provided type ({data.get('type')}) does not match the "
                                                     f"destination resource types ({TYPE}).", "/data/type")
    values = {}
    for name, value in (data.get("attributes") or {}).items():
        if name in READ_ONLY:
            current = resource(request, node)["attributes"].get(name) if node else None
            if value != current:
                verb = "PATCH" if node else "POST"
                return None, error(request, 403, "Forbidden",
                                   f"The current user is not allowed to {verb} the selected field ({name}).",
                                   f"/data/attributes/{name}")
            continue
        if name == "body":
            value = None if value is None else {"value": value.get("value", ""), "format": value.get("format") or "basic_html",
                                                "summary": value.get("summary") or ""}
        elif name == "path":
            value = value.get("alias") if isinstance(value, dict) else value
        elif name in ("created",):
            try:
                value = fields.parse_timestamp(value)
            except fields.Unprocessable as exc:
                return None, error(request, 422, "Unprocessable Entity", f"{name}: {exc}", f"/data/attributes/{name}")
        values[name] = value
    by_uuid = {"user--user": {u["uuid"]: uid for uid, u in USERS.items()},
               "taxonomy_term--tags": {t["uuid"]: tid for tid, t in TERMS.items()}}
    for name, relationship in (data.get("relationships") or {}).items():
        if name not in ("uid", "field_tags"):
            continue
        linkage = relationship.get("data") if isinstance(relationship, dict) else None
        members = linkage if isinstance(linkage, list) else [linkage]
        ids = []
        for member in members:
            target = by_uuid.get(member.get("type") if isinstance(member, dict) else None, {}).get(
                member.get("id") if isinstance(member, dict) else None)
            if target is None:
                return None, error(request, 404, "Not Found", f"The resource identified by `{member}` "
                                                              "(given as a relationship item) could not be found.")
            ids.append(target)
        values[name] = ids if isinstance(linkage, list) else ids[0]
    return values, None


def _violations(request, node):
    items = []
    for line in fields.validate(node):
        path, _, message = line.partition(": ")
        items.append({"title": "Unprocessable Entity", "status": "422", "detail": line,
                      "source": {"pointer": "/data/attributes/" + path.split(".")[0]}})
    if not items:
        return None
    return document(request, {"errors": items}, status=422)


def _create(request):
    failure = _write_access(request, "POST")
    if failure:
        return failure
    try:
        body = json.loads(request.body)
    except ValueError:
        return error(request, 400, "Bad Request", "Syntax error")
    values, failure = _values(request, body, None)
    if failure:
        return failure
    uid = current_uid(request)
    created = fields.now()
    node = {"uuid": str(uuid.uuid4()), "type": "article", "langcode": "en", "status": True, "uid": uid,
            "title": None, "created": created, "changed": created, "promote": BUNDLES["article"]["promote"],
            "sticky": False, "revision_timestamp": created, "revision_uid": uid, "revision_log": None,
            "path": None, "body": None, "field_tags": []}
    node.update({k: v for k, v in values.items() if k in node})
    failure = _violations(request, node)
    if failure:
        return failure
    node = core.STORE.add(node)
    location = f"{_base(request)}/node/article/{node['uuid']}"
    return document(request, {"data": resource(request, node), "links": {"self": {"href": location}}},
                    status=201, headers={"Location": location})


def _update(request, node):
    try:
        body = json.loads(request.body)
    except ValueError:
        return error(request, 400, "Bad Request", "Syntax error")
    if isinstance(body, dict) and isinstance(body.get("data"), dict) and body["data"].get("id") != node["uuid"]:
        return error(request, 400, "Bad Request", "The IDs in the request body and the URL do not match.")
    values, failure = _values(request, body, node)
    if failure:
        return failure
    updated = dict(node)
    updated.update({k: v for k, v in values.items() if k in node})
    failure = _violations(request, updated)
    if failure:
        return failure
    updated["changed"] = max(fields.now(), node["changed"])
    saved = core.STORE.put(updated)
    if saved is None:
        return error(request, 404, "Not Found", "The resource was deleted meanwhile.")
    return document(request, {"data": resource(request, saved), "links": {"self": {"href": request.build_absolute_uri()}}})
