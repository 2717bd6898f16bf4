"""Events recorded as their values, put into data and words when first read.

    ctx.record("move", robot, _moved, "move", target, time)  # _moved(...) -> (words, data), when read

A stage records about thirty events (every move, turn, shot and hit); a search
and a benchmark read none of them, a live table reads each once. Recording the
values (numbers, names and squares, never a live robot) costs a fraction of
building each event's dictionary and sentence, so those are made on first
read, from the same values: what a reader gets is what ``Ctx.emit`` builds.
A copy or a pickle is a plain ``Event``.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..base import JSON, Event

# a form turns the recorded values into (words, data): words as the report prints them in
# the robot's column, data without the turn, stage, step and robot that every event carries
Form = Callable[..., tuple[str, dict[str, Any]]]


class Recorded(Event):
    """An ``Event`` of ``kind``: ``head`` is (turn, stage, step, robot name or None)."""

    def __init__(self, kind: str, head: tuple[int, int, str, str | None], form: Form,
                 values: tuple[Any, ...]) -> None:
        fields = self.__dict__
        fields["kind"], fields["_head"], fields["_form"], fields["_values"] = kind, head, form, values

    def __getattr__(self, name: str) -> Any:
        """``data`` or ``text`` on first reading (later readings find them in the instance)."""
        if name not in ("data", "text"):
            raise AttributeError(name)
        fields = self.__dict__
        turn, stage, step, robot = fields["_head"]
        words, data = fields["_form"](*fields["_values"])
        fields["data"] = {"turn": turn, "stage": stage, "step": step, "robot": robot, **data}
        fields["text"] = f"{robot}: {words}" if robot is not None else words
        return fields[name]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.kind, self.data, self.text) == (other.kind, other.data, other.text)

    __hash__ = None  # type: ignore[assignment]  # as Event's: its data is a dict

    def __reduce__(self) -> tuple[type[Event], tuple[str, Mapping[str, JSON], str]]:
        return Event, (self.kind, self.data, self.text)


def said(words: str, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The form of an event whose words and data were made when it happened."""
    return words, data
