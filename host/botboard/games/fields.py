"""Reading the fields of a scenario file so that a bad value is reported with its field.

Parsers read a value inside ``parsing(field)``; a value they refuse (BadValue) or one
that trips them (a string where a list belongs, a list where a number does) comes out
as a BadValue naming the whole path, e.g. ``position.robots.p1.hand[2]: bad card 'x'``.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, TypeVar

from .base import GameError, InvalidNotation, ScenarioError

T = TypeVar("T")


class BadValue(ScenarioError):
    """A value refused where the parser cannot tell the field (a square, a card...): each
    enclosing ``parsing(field)`` puts its field in front."""

    def __init__(self, problem: str, field: str = "") -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.problem, self.field = problem, field


# What a parser trips on when a file gives a value of another type or size than it reads
# (a string for a list, a list for a number, 1e400 for a count...)
_TRIPPED = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError)


@contextmanager
def parsing(field: str) -> Iterator[None]:
    """Parse the value at ``field`` (relative to the enclosing ``parsing``). Errors that name
    their field already (other ScenarioErrors, the engines' GameErrors) pass through."""
    try:
        yield
    except (BadValue, InvalidNotation) as err:
        inner = getattr(err, "field", "")
        path = f"{field}{inner}" if inner.startswith("[") else f"{field}.{inner}" if inner else field
        raise BadValue(getattr(err, "problem", str(err)), path) from err
    except GameError:
        raise
    except _TRIPPED as err:
        problem = f"missing or unknown key {err.args[0]!r}" if isinstance(err, KeyError) else \
            f"a value of the wrong type or size ({err})"
        raise BadValue(problem, field) from err


@contextmanager
def reading_state() -> Iterator[None]:
    """Read a whole state as state_to_json writes it: a missing field or a value of the wrong
    type comes out as a ScenarioError saying so (other ScenarioErrors pass through)."""
    try:
        yield
    except KeyError as err:
        raise ScenarioError(f"state: missing field {err}") from err
    except ScenarioError:
        raise
    except (TypeError, ValueError) as err:
        raise ScenarioError(f"state: {err}") from err


def known_fields(doc: Mapping[str, Any], known: set[str], where: str = "position", hint: str = "") -> None:
    """ScenarioError naming the fields of ``doc`` that are not ``known`` (``hint``: where they go)."""
    unknown = set(doc) - known
    if unknown:
        raise ScenarioError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; "
                            f"known: {', '.join(sorted(known))}{hint}")


def field(doc: Mapping[str, Any], key: str, parse: Callable[[Any], T], default: Any = ...) -> T:
    """``parse(doc[key])`` with errors naming ``key``; without the key, ``default`` (if given)."""
    if key not in doc:
        if default is ...:
            raise BadValue(f"missing field {key!r}")
        return default
    with parsing(key):
        return parse(doc[key])


def each(value: Any, parse: Callable[[Any], T]) -> list[T]:
    """A JSON list, each item parsed with errors naming its index."""
    if not isinstance(value, list):
        raise BadValue(f"expected a list, got {value!r}")
    out = []
    for i, item in enumerate(value):
        with parsing(f"[{i}]"):
            out.append(parse(item))
    return out


def entries(value: Any, parse_key: Callable[[str], Any], parse: Callable[[Any], Any]) -> dict[Any, Any]:
    """A JSON object, each key and value parsed with errors naming the key."""
    if not isinstance(value, Mapping):
        raise BadValue(f"expected an object, got {value!r}")
    out = {}
    for key, item in value.items():
        with parsing(str(key)):
            out[parse_key(key)] = parse(item)
    return out


def number_key(parse: Callable[[int], T]) -> Callable[[str], T]:
    """``parse`` for an object's key, which JSON writes as a string (``"3"``)."""
    def parse_key(key: str) -> T:
        try:
            number = int(key)
        except ValueError:
            raise BadValue(f"expected a number, got {key!r}") from None
        return parse(number)
    return parse_key


def whole(low: int, high: int, what: str = "") -> Callable[[Any], int]:
    """A parser of a whole number from ``low`` to ``high``; ``what`` says why the bounds."""
    def parse(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise BadValue(f"expected a whole number from {low} to {high}{what}, got {value!r}")
        return value
    return parse
