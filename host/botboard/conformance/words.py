"""Where two JSON-like documents first differ, said in words a game's author can act on."""

from __future__ import annotations

import json
from typing import Any


def shown(value: Any) -> str:
    """``value`` as canonical JSON text: what a screen or a log would carry."""
    return json.dumps(value, sort_keys=True, default=str)


def first_difference(a: Any, b: Any, at: str = "") -> str | None:
    """The path of the first place ``a`` and ``b`` differ, with both values; None if equal."""
    a, b = json.loads(shown(a)), json.loads(shown(b))
    return _walk(a, b, at)


def _walk(a: Any, b: Any, at: str) -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{_join(at, key)} is in one and not the other"
            found = _walk(a[key], b[key], _join(at, key))
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _walk(x, y, _join(at, str(i)))
            if found:
                return found
        return None
    if a == b:
        return None
    return f"{at or 'the whole value'}: {_short(a)} against {_short(b)}"


def _join(at: str, key: str) -> str:
    return f"{at}.{key}" if at else str(key)


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def parts(doc: Any, at: str = "") -> dict[str, str]:
    """Every leaf of ``doc`` by its path (list items by index), as canonical JSON text."""
    if isinstance(doc, dict):
        out: dict[str, str] = {}
        for key, value in doc.items():
            out.update(parts(value, _join(at, str(key))))
        return out or {at: "{}"}
    if isinstance(doc, list):
        out = {}
        for i, value in enumerate(doc):
            out.update(parts(value, _join(at, str(i))))
        return out or {at: "[]"}
    return {at: json.dumps(doc, sort_keys=True, default=str)}
