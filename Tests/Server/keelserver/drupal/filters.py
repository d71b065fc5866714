"""
Drupal 10 JSON:API's `filter` query parameter, read as its FilterParser does: the shorthand
`filter[field]=value` (and `filter[field][value]=…&filter[field][operator]=…`), the long form
`filter[label][condition][path|operator|value|memberOf]`, and groups
`filter[label][group][conjunction|memberOf]`, all members of the root AND group unless they
name another. `parse` returns a predicate over a function that gives the values at a path.
"""

import re

OPERATORS = ("=", "<>", ">", ">=", "<", "<=", "STARTS_WITH", "CONTAINS", "ENDS_WITH", "IN", "NOT IN", "BETWEEN",
             "IS NULL", "IS NOT NULL")
ROOT = "@root"


class Invalid(ValueError):
    """A filter Drupal answers with 400."""


def _tree(query):
    """PHP's reading of `filter[a][b][]=…` keys: nested dicts, `[]` appending to a list."""
    tree = {}
    for key in query.keys():
        if not key.startswith("filter["):
            continue
        parts = re.findall(r"\[([^\]]*)\]", key[len("filter"):])
        for value in query.getlist(key):
            node = tree
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                if part == "":
                    if not isinstance(node, list):
                        raise Invalid("Filter parameters must be well-formed.")
                    node.append(value)
                    break
                if not isinstance(node, dict):
                    raise Invalid("Filter parameters must be well-formed.")
                if last:
                    node[part] = value
                else:
                    following = parts[index + 1]
                    node = node.setdefault(part, [] if following == "" else {})
    return tree


def parse(query):
    """The predicate of a request's filter parameters; raises Invalid as Drupal refuses."""
    conditions, groups = [], {ROOT: {"conjunction": "AND", "memberOf": None}}
    for label, item in _tree(query).items():
        if isinstance(item, str):
            conditions.append({"path": label, "operator": "=", "value": item, "memberOf": ROOT})
        elif "condition" in item:
            conditions.append(_condition(item["condition"]))
        elif "group" in item:
            group = item["group"]
            conjunction = str(group.get("conjunction", "AND")).upper()
            if conjunction not in ("AND", "OR"):
                raise Invalid(f"The conjunction \"{conjunction}\" is not permitted in a filter parameter.")
            groups[label] = {"conjunction": conjunction, "memberOf": group.get("memberOf", ROOT)}
        elif "value" in item or "operator" in item:
            conditions.append(_condition({**item, "path": item.get("path", label)}))
        else:
            raise Invalid(f"Invalid filter parameter `{label}`.")
    for label, group in groups.items():
        if group["memberOf"] is not None and group["memberOf"] not in groups:
            raise Invalid(f"The group `{group['memberOf']}` named by `{label}` does not exist.")
    for condition in conditions:
        if condition["memberOf"] not in groups:
            raise Invalid(f"The group `{condition['memberOf']}` named by a condition does not exist.")

    def holds(label, values_at):
        group = groups[label]
        results = [_holds(c, values_at) for c in conditions if c["memberOf"] == label]
        results += [holds(name, values_at) for name, g in groups.items() if g["memberOf"] == label]
        return all(results) if group["conjunction"] == "AND" else any(results)

    return lambda values_at: holds(ROOT, values_at)


def _condition(item):
    if not isinstance(item, dict) or "path" not in item:
        raise Invalid("Filter parameter is missing a 'path' key.")
    operator = item.get("operator", "=")
    if operator not in OPERATORS:
        raise Invalid(f"The operator \"{operator}\" is not permitted in a filter parameter.")
    value = item.get("value")
    if operator in ("IS NULL", "IS NOT NULL"):
        if value is not None:
            raise Invalid(f"Filters using the \"{operator}\" operator should not provide a value.")
    elif operator in ("IN", "NOT IN", "BETWEEN"):
        if not isinstance(value, list) or (operator == "BETWEEN" and len(value) != 2):
            raise Invalid(f"The \"{operator}\" operator needs a list of values"
                          + (" with two members." if operator == "BETWEEN" else "."))
    elif value is None:
        raise Invalid("Filter parameter is missing a 'value' key.")
    elif not isinstance(value, str):
        raise Invalid(f"The \"{operator}\" operator takes one value.")
    return {"path": item["path"], "operator": operator, "value": value, "memberOf": item.get("memberOf", ROOT)}


def _comparable(stored, text):
    """The query text as the stored value's type, as the database compares them."""
    if isinstance(stored, bool):
        return text.lower() in ("1", "true")
    if isinstance(stored, int):
        try:
            return int(text)
        except ValueError:
            return text
    return text


def _holds(condition, values_at):
    operator, wanted = condition["operator"], condition["value"]
    values = values_at(condition["path"])
    if operator == "IS NULL":
        return all(v is None for v in values)
    if operator == "IS NOT NULL":
        return any(v is not None for v in values)
    return any(v is not None and _matches(v, operator, wanted) for v in values)


def _matches(stored, operator, wanted):
    if operator in ("IN", "NOT IN"):
        found = stored in [_comparable(stored, w) for w in wanted]
        return found if operator == "IN" else not found
    if operator == "BETWEEN":
        low, high = (_comparable(stored, w) for w in wanted)
        return low <= stored <= high
    value = _comparable(stored, wanted)
    if operator in ("STARTS_WITH", "CONTAINS", "ENDS_WITH"):
        text, part = str(stored).lower(), str(value).lower()
        return {"STARTS_WITH": text.startswith, "CONTAINS": text.__contains__, "ENDS_WITH": text.endswith}[operator](part)
    if type(value) is not type(stored):
        return False
    return {"=": stored == value, "<>": stored != value, ">": stored > value, ">=": stored >= value,
            "<": stored < value, "<=": stored <= value}[operator]
