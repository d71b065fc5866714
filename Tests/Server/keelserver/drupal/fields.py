"""
Node fields of the emulated Drupal 8+ site: reading Drupal's entity JSON (every
field a list of items) into a plain node dict, validating it the way Drupal's
entity validation reports it, and writing it back out as Drupal normalizes it.
"""

import html
import re
import time
from datetime import datetime, timezone

from .common import BUNDLES, TERMS, USERS

TIMESTAMP_FORMAT = "Y-m-d\\TH:i:sP"
TEXT_FORMATS = ("basic_html", "restricted_html", "full_html", "plain_text")
TIMESTAMP_FIELDS = ("created", "changed", "revision_timestamp")
BOOLEAN_FIELDS = ("status", "promote", "sticky", "default_langcode", "revision_translation_affected")
REFERENCE_FIELDS = {"type": "node_type", "uid": "user", "revision_uid": "user", "field_tags": "taxonomy_term"}
MAIN_PROPERTY = {"type": "target_id", "uid": "target_id", "revision_uid": "target_id", "field_tags": "target_id",
                 "path": "alias"}
LABELS = {"nid": "ID", "uuid": "UUID", "vid": "Revision ID", "langcode": "Language", "type": "Content type",
          "revision_timestamp": "Revision create time", "revision_uid": "Revision user",
          "revision_log": "Revision log message", "status": "Published", "uid": "Authored by", "title": "Title",
          "created": "Authored on", "changed": "Changed", "promote": "Promoted to front page",
          "sticky": "Sticky at top of lists", "default_langcode": "Default translation",
          "revision_translation_affected": "Revision translation affected", "path": "URL alias", "body": "Body"}
MULTI_VALUED = ("field_tags",)
KNOWN_FIELDS = tuple(LABELS) + MULTI_VALUED


class Unprocessable(Exception):
    """A body Drupal cannot denormalize: 422 with this message."""


def now():
    return int(time.time())


def timestamp_text(seconds):
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def parse_timestamp(value):
    if isinstance(value, bool):
        raise Unprocessable(_date_message(value))
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        if re.fullmatch(r"-?[0-9]+", value):
            return int(value)
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise Unprocessable(_date_message(value))
        if parsed.tzinfo is None:
            raise Unprocessable(_date_message(value))
        return int(parsed.timestamp())
    raise Unprocessable(_date_message(value))


def _date_message(value):
    return (f'The specified date "{value}" is not in an accepted format: "Y-m-d\\TH:i:sP" (RFC 3339), '
            f'"Y-m-d\\TH:i:sO" (ISO 8601).')


def field_items(name, data):
    """
    A field's items as a list of dicts: the field is a list (null is an empty
    one); an item that is a bare value is its main property (FieldItemBase::setValue).
    """
    main = MAIN_PROPERTY.get(name, "value")
    return [item if isinstance(item, dict) else {main: item} for item in data or []]


def bundle_of(body):
    """
    The `type` of a submitted entity, as Drupal's EntityDenormalizerBase extracts
    it: `[{"target_id": "article"}]`, or a bare "article".
    """
    data = body.get("type")
    if isinstance(data, list):
        value = data[0].get("target_id") if data and isinstance(data[0], dict) else None
    else:
        value = data
    if not isinstance(value, str):
        raise Unprocessable('Could not determine entity type bundle: "type" field is missing.')
    if value not in BUNDLES:
        raise Unprocessable(f'"{value}" is not a valid bundle type for denormalization.')
    return value


def denormalize(body):
    """
    The submitted fields (in body order) as {name: value}, plus the violations
    of values of the wrong primitive type.
    """
    values, violations = {}, []
    for name, data in body.items():
        if name not in KNOWN_FIELDS:
            raise Unprocessable(f"Field {name} is unknown.")
        if name == "type" and isinstance(data, str):
            values[name] = data
            continue
        if data is not None and not isinstance(data, list):
            violations.append(f"{name}: This value should be of the correct primitive type.")
            continue
        items = [item for item in field_items(name, data) if not _is_empty(name, item)]
        if len(items) > 1 and name not in MULTI_VALUED:
            violations.append(f"{name}: {LABELS[name]}: this field cannot hold more than 1 values.")
            continue
        first = items[0] if items else None
        main = MAIN_PROPERTY.get(name, "value")
        if name in MULTI_VALUED:
            values[name] = [_integer(item.get("target_id")) for item in items]
        elif name == "body":
            values[name] = None if first is None else {
                "value": str(first.get("value") or ""),
                "summary": str(first.get("summary") or ""),
                "format": first.get("format") or "basic_html",
            }
        elif first is None:
            values[name] = None
        elif name in TIMESTAMP_FIELDS:
            values[name] = parse_timestamp(first.get("value"))
        elif name in BOOLEAN_FIELDS:
            flag = _boolean(first.get("value"))
            if flag is None:
                violations.append(f"{name}.0.value: This value should be of the correct primitive type.")
            values[name] = flag
        elif name in ("nid", "vid", "uid", "revision_uid"):
            values[name] = _integer(first.get(main))
        elif name == "title" and not isinstance(first.get("value"), str):
            violations.append("title.0.value: This value should be of the correct primitive type.")
            values[name] = None
        else:
            values[name] = first.get(main)
    return values, violations


def _is_empty(name, item):
    main = MAIN_PROPERTY.get(name, "value")
    return item.get(main) in (None, "") and name != "path"


def _integer(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"[0-9]+", value):
        return int(value)
    return value


def _boolean(value):
    if value in (True, 1, "1", "true"):
        return True
    if value in (False, 0, "0", "false"):
        return False
    return None


def validate(node):
    """Drupal's entity validation: the violations as `property.path: message` lines."""
    violations = []
    title = node.get("title")
    if title is None or title == "":
        violations.append("title: This value should not be null.")
    elif isinstance(title, str) and len(title) > 255:
        violations.append("title.0.value: Title: may not be longer than 255 characters.")
    if node.get("langcode") != "en":
        violations.append("langcode.0.value: The value you selected is not a valid choice.")
    if node.get("uid") not in USERS:
        violations.append(f"uid.0.target_id: The referenced entity (user: {node.get('uid')}) does not exist.")
    for delta, tid in enumerate(node.get("field_tags") or []):
        if tid not in TERMS:
            violations.append(
                f"field_tags.{delta}.target_id: The referenced entity (taxonomy_term: {tid}) does not exist.")
    body = node.get("body")
    if body is not None and body["format"] not in TEXT_FORMATS:
        violations.append("body.0.format: The value you selected is not a valid choice.")
    return violations


def validation_message(violations):
    return "Unprocessable Entity: validation failed.\n" + "".join(line + "\n" for line in violations)


def processed(text, text_format):
    """A rough stand-in for Drupal's text format filters (the `processed` property)."""
    if text_format == "plain_text":
        return "<p>" + html.escape(text).replace("\n", "<br>\n") + "</p>\n"
    if text_format == "full_html":
        return text
    return re.sub(r"<(script|style)\b[^>]*>.*?</\1\s*>", "", text, flags=re.IGNORECASE | re.DOTALL)


def _reference(target_type, target_id, uuid, url=None):
    item = {"target_id": target_id, "target_type": target_type, "target_uuid": uuid}
    if url is not None:
        item["url"] = url
    return item


def _user(uid):
    return [_reference("user", uid, USERS[uid]["uuid"], f"/user/{uid}")]


def _timestamp(seconds):
    return [{"value": timestamp_text(seconds), "format": TIMESTAMP_FORMAT}]


def normalize(node):
    """A node as Drupal's serializer emits it for ?_format=json."""
    body = node.get("body")
    return {
        "nid": [{"value": node["nid"]}],
        "uuid": [{"value": node["uuid"]}],
        "vid": [{"value": node["vid"]}],
        "langcode": [{"value": node["langcode"]}],
        "type": [_reference("node_type", node["type"], BUNDLES[node["type"]]["uuid"])],
        "revision_timestamp": _timestamp(node["revision_timestamp"]),
        "revision_uid": _user(node["revision_uid"]),
        "revision_log": [] if not node.get("revision_log") else [{"value": node["revision_log"]}],
        "status": [{"value": node["status"]}],
        "uid": _user(node["uid"]),
        "title": [{"value": node["title"]}],
        "created": _timestamp(node["created"]),
        "changed": _timestamp(node["changed"]),
        "promote": [{"value": node["promote"]}],
        "sticky": [{"value": node["sticky"]}],
        "default_langcode": [{"value": True}],
        "revision_translation_affected": [{"value": True}],
        "path": [{"alias": node.get("path"), "pid": node["nid"] if node.get("path") else None, "langcode": "en"}],
        "body": [] if body is None else [{
            "value": body["value"],
            "format": body["format"],
            "processed": processed(body["value"], body["format"]),
            "summary": body["summary"],
        }],
        "field_tags": [
            _reference("taxonomy_term", tid, TERMS[tid]["uuid"], f"/taxonomy/term/{tid}") for tid in node["field_tags"]
        ],
    }
