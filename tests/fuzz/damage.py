"""Damage, derived from a format's own shape: hypothesis strategies that turn a good document
(JSON, TOML, SQLite rows, bytes) into what a user's hand or a damaged disk makes of it: a value
of the wrong type, empty, huge, deep, not UTF-8, truncated, another version.

``FUZZ`` is every fuzz test's settings: a modest number of examples in the default suite;
``BOTBOARD_FUZZ_EXAMPLES=N`` for a longer run (tests/README.md). Hypothesis's database
(.hypothesis/) keeps every failing case it finds and tries it first the next time.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=int(os.environ.get("BOTBOARD_FUZZ_EXAMPLES", "25")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])

# JSON that json.dumps cannot write: put in as markers, spelled out in the text afterwards
HUGE_NUMBER, DEEP = "\x00huge-number\x00", "\x00deep\x00"
_SPELLED = {json.dumps(HUGE_NUMBER): "9" * 5000, json.dumps(DEEP): "[" * 50_000 + "]" * 50_000}

ODD_TEXT = st.sampled_from(["", " ", "\x00", "\u202e", "é", "\ud800", "a" * 70_000, "-1", "1e999", "NaN",
                            "../../etc/passwd", "null", "{", "\n\n"])
NASTY = st.one_of(
    st.sampled_from([None, True, False, 0, -1, 2**63, -2**63 - 1, 2**64, 1.5, -0.0, math.nan, math.inf,
                     -math.inf, [], {}, [[]], {"": None}, [None] * 3, HUGE_NUMBER, DEEP]),
    ODD_TEXT,
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                 max_leaves=6),
)


def dumps(doc: Any) -> str:
    """``doc`` as JSON text, with its markers spelled out (a 5,000-digit number, 50,000-deep nesting)."""
    text = json.dumps(doc, ensure_ascii=False, allow_nan=True)
    for marker, spelled in _SPELLED.items():
        text = text.replace(marker, spelled)
    return text


def paths_in(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths_in(item, at + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += paths_in(item, at + (i,))
    return out


def replaced(doc: Any, at: tuple[Any, ...], new: Any) -> Any:
    if not at:
        return new
    copy: Any = dict(doc) if isinstance(doc, dict) else list(doc)
    copy[at[0]] = replaced(doc[at[0]], at[1:], new)
    return copy


def _drop(doc: Any, at: tuple[Any, ...]) -> Any:
    if len(at) == 1:
        copy: Any = dict(doc) if isinstance(doc, dict) else list(doc)
        del copy[at[0]]
        return copy
    return replaced(doc, at[:1], _drop(doc[at[0]], at[1:]))


@st.composite
def damaged_doc(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` with one value anywhere swapped for a nasty one, or one key or item dropped."""
    paths = paths_in(doc)
    at = draw(st.sampled_from(paths))
    if at and draw(st.booleans()) and draw(st.booleans()):
        return _drop(doc, at)
    return replaced(doc, at, draw(NASTY))


@st.composite
def damaged_bytes(draw: st.DrawFn, good: bytes) -> bytes:
    """A good file's bytes cut short, with bytes that are not UTF-8, as UTF-16, emptied, or noise."""
    how = draw(st.sampled_from(["truncate", "not-utf8", "utf16", "empty", "noise", "flip"]))
    if how == "truncate":
        return good[:draw(st.integers(0, max(0, len(good) - 1)))]
    if how == "not-utf8":
        at = draw(st.integers(0, len(good)))
        return good[:at] + b"\xff\xfe\xc3" + good[at:]
    if how == "utf16":
        return good.decode("utf-8", "replace").encode("utf-16")
    if how == "empty":
        return b""
    if how == "noise":
        return draw(st.binary(max_size=200))
    data = bytearray(good)
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if data:
            data[at] ^= draw(st.integers(1, 255))
    return bytes(data)
