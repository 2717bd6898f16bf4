"""The rule every screen keeps: no engine word reaches a person (tests share it).

A text a person reads names seats by their names (red, blue), never the engines' ``p1``/``p2``;
has no snake_case key (``hit_points``), no raw JSON, and none of the rules' notes to their own
readers ("(the project's cap, not a rule)")."""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

RULES = (
    (re.compile(r"\bp[1-9]\b"), "an engine's seat name"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a snake_case key"),
    (re.compile(r"[{\[]\s*\"|\"\s*:\s"), "raw JSON"),
    (re.compile(r"\(the project's"), "a note for the rules' readers"),
)


def engine_words(text: str) -> list[str]:
    """What in ``text`` breaks the rule, each as "why: the words"; [] when it reads right."""
    return [f"{why}: {m.group(0)!r} in {text!r}" for rule, why in RULES for m in rule.finditer(text)]


def texts(value: Any) -> Iterator[str]:
    """Every string in a value made for people (a list of lines, a record of words)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from texts(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from texts(v)


def broken(values: Iterable[Any]) -> list[str]:
    return [problem for value in values for text in texts(value) for problem in engine_words(text)]


# What the screens show of a view (session/views.py): the shared screen's and a phone's
SHARED = ("now", "message", "log", "end", "station_words", "table_message")
PHONE = ("now", "notice", "message", "result", "words", "end", "table_message")


def shown(view: dict[str, Any], keys: tuple[str, ...]) -> list[Any]:
    """The parts of ``view`` a screen puts before people; a decision by its words."""
    parts = [view.get(k) for k in keys]
    pending = view.get("pending")
    if pending:
        parts += [pending.get("prompt"), pending.get("who"), list((pending.get("words") or {}).values())]
    return parts
