"""Scenario files: a start position, actions to apply, and expectations.

The format is shared by every game (see docs/scenarios.md); what a position
and an action look like is the game's own business. Expectations compare a
partial JSON tree with the game's ``observe`` view (plus ``events``,
``outcome``, ``pending`` and ``error``) and report every path that differs;
``{"$exactly": ...}`` asks for an exact match where absence matters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from .. import games
from .base import Event, Game, GameError, ScenarioError
from .fields import parsing

_KNOWN_KEYS = {"game", "title", "description", "players", "options", "seed",
               "position", "actions", "expect"}
# Sizes a scenario may ask for in its position and options: far above any real
# game (a box holds tens of tokens, a board a few hundred squares), far below
# what would take minutes or gigabytes to build (999,999,999 VP tokens did).
MAX_NUMBER = 100_000
MAX_ITEMS = 10_000
MAX_DEPTH = 40
# what an engine's notation parser may trip on in an action it did not foresee:
# said as an action not understood, not a traceback
_SHAPE_ERRORS = (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError)


@dataclass
class ScenarioResult:
    game: Game[Any, Any]
    state: Any
    events: list[Event] = field(default_factory=list)
    error: str | None = None  # the error that stopped the actions, if any
    failed_action: int | None = None

    def to_json(self) -> dict[str, Any]:
        game, state = self.game, self.state
        outcome = game.outcome(state)
        pending = game.pending(state)
        return {
            "game": game.info.name,
            "state": game.observe(state),
            "state_hash": game.state_hash(state),
            "events": [e.to_json() for e in self.events],
            "pending": pending.to_json() if pending else None,
            "outcome": outcome.to_json() if outcome else None,
            "error": self.error,
        }


def load(path: str | Path) -> dict[str, Any]:
    """Read and validate the common fields of a scenario file."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise ScenarioError(f"{path}: cannot read: {err.strerror}") from err
    except UnicodeDecodeError as err:
        raise ScenarioError(f"{path}: not UTF-8 text (byte {err.start}): save it as UTF-8 JSON") from err
    except json.JSONDecodeError as err:
        raise ScenarioError(f"{path}: not JSON: {err.msg} at line {err.lineno} column {err.colno}") from err
    except RecursionError as err:
        raise ScenarioError(f"{path}: nested too deeply to be a scenario") from err
    except ValueError as err:  # Python refuses to read an integer of more than 4,300 digits
        raise ScenarioError(f"{path}: holds a number of more than 4,300 digits, too long to read; a "
                            "scenario's numbers are seeds, counts and coordinates: shorten it") from err
    if not isinstance(doc, dict):
        raise ScenarioError(f"{path}: expected a JSON object at the top")
    unknown = set(doc) - _KNOWN_KEYS
    if unknown:
        raise ScenarioError(f"{path}: unknown field(s) {', '.join(sorted(unknown))}; "
                            f"known fields: {', '.join(sorted(_KNOWN_KEYS))}")
    _require(doc, "game", str, path)
    _require(doc, "actions", list, path, default=[])
    _require(doc, "players", int, path, default=2)
    _require(doc, "seed", int, path, default=0)
    _require(doc, "options", dict, path, default={})
    for i, action in enumerate(doc["actions"]):
        if not isinstance(action, str):
            raise ScenarioError(f"{path}: actions[{i}]: expected a string in action notation, "
                                f"got {json.dumps(action)}")
    for key in ("position", "options"):
        if key in doc:
            _within_limits(doc[key], key, path)
    return doc


def _within_limits(value: Any, where: str, path: str | Path, depth: int = 0) -> None:
    """ScenarioError naming the field of a number, list or text too large to be a game's."""
    if depth > MAX_DEPTH:
        raise ScenarioError(f"{path}: {where}: nested more than {MAX_DEPTH} deep")
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, (int, float)) and abs(value) > MAX_NUMBER:
        raise ScenarioError(f"{path}: {where}: {value} is beyond what a scenario may ask for "
                            f"(at most {MAX_NUMBER:,})")
    if isinstance(value, (str, list, dict)) and len(value) > MAX_ITEMS:
        raise ScenarioError(f"{path}: {where}: {len(value)} items, more than a scenario may hold "
                            f"({MAX_ITEMS:,})")
    if isinstance(value, list):
        for i, item in enumerate(value):
            _within_limits(item, f"{where}[{i}]", path, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            _within_limits(item, f"{where}.{key}", path, depth + 1)


def _require(doc: dict[str, Any], key: str, kind: type, path: str | Path,
             default: Any = None) -> None:
    if key not in doc:
        if default is None:
            raise ScenarioError(f"{path}: missing field {key!r}")
        doc[key] = default
    elif not isinstance(doc[key], kind) or (kind is int and isinstance(doc[key], bool)):
        raise ScenarioError(f"{path}: field {key!r} should be {kind.__name__}, "
                            f"got {json.dumps(doc[key])}")


# told the start (action None) and each accepted action with the state after it
Step = Callable[[Game[Any, Any], Any, "str | None"], None]


def run(doc: Mapping[str, Any], step: Step | None = None) -> ScenarioResult:
    """Apply the scenario's actions; an illegal action stops the run and is recorded.

    ``step`` sees the run as it goes (``botboard scenario run --journal`` journals it).
    """
    game = games.get(doc["game"])
    # the parsers name the field of a value they refuse or trip on, under this one
    with parsing("position" if "position" in doc else "options"):
        state = game.scenario_start(doc["players"], doc["options"], doc["seed"], doc.get("position"))
    result = ScenarioResult(game, state)
    if step:
        step(game, state, None)
    for i, text in enumerate(doc["actions"]):
        try:
            result.state, events = game.apply_str(result.state, text)
        except ScenarioError:
            raise
        except GameError as err:
            result.error, result.failed_action = f"actions[{i}] {text!r}: {err}", i
            break
        except _SHAPE_ERRORS as err:  # notation the parser did not foresee: not an action
            result.error, result.failed_action = f"actions[{i}] {text!r}: not understood ({_said(err)})", i
            break
        result.events.extend(events)
        if step:
            step(game, result.state, text)
    return result


def _said(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__


def check(doc: Mapping[str, Any], result: ScenarioResult) -> list[str]:
    """Every way the result differs from the scenario's ``expect`` block (with none,
    an action the rules refused still fails: a scenario's actions must all be legal
    unless it expects the error)."""
    expect = doc.get("expect")
    if expect is None:
        return [f"unexpected error: {result.error}"] if result.error else []
    if not isinstance(expect, dict):
        return ["expect: should be an object"]
    actual = result.to_json()
    failures: list[str] = []
    for key, wanted in expect.items():
        if key == "events":
            failures += _check_events(wanted, actual["events"])
        elif key in ("pending", "outcome", "error", "state_hash"):
            if key == "error" and isinstance(wanted, str) and actual["error"]:
                if wanted.lower() not in actual["error"].lower():
                    failures.append(f"error: expected it to mention {wanted!r}, got {actual['error']!r}")
            else:
                failures += diff(wanted, actual[key], key)
        else:
            failures += _refuse_any(wanted, key) or diff(wanted, actual["state"].get(key, _MISSING), key)
    if "error" not in expect and actual["error"]:
        failures.append(f"unexpected error: {actual['error']}")
    return failures


_MISSING = object()
EXACTLY = "$exactly"  # {"$exactly": value}: no extra keys allowed


def diff(wanted: Any, got: Any, path: str) -> list[str]:
    """Paths where ``got`` does not match the partial tree ``wanted``.

    Objects match when every wanted key matches (extra keys in ``got`` are
    fine); lists match element by element and must have the same length.
    ``{"$exactly": value}`` matches only ``value`` itself, extra keys included,
    which is how an expectation says that something is absent; a field
    expected to be a bare ``{}``, which would match anything, is refused.
    """
    if isinstance(wanted, dict) and EXACTLY in wanted:
        if len(wanted) != 1:
            return [f"{path}: {EXACTLY!r} must be the only key of its object, "
                    f"e.g. {{{json.dumps(EXACTLY)}: {{}}}}"]
        return _exact(wanted[EXACTLY], got, path)
    if got is _MISSING:
        return [f"{path}: expected {json.dumps(wanted)}, but there is no such field"]
    if isinstance(wanted, dict) and isinstance(got, dict):
        out: list[str] = []
        for key, value in wanted.items():
            out += _refuse_any(value, f"{path}.{key}") or diff(value, got.get(key, _MISSING), f"{path}.{key}")
        return out
    if isinstance(wanted, list) and isinstance(got, list):
        if len(wanted) != len(got):
            return [f"{path}: expected {len(wanted)} items, got {len(got)}: {json.dumps(got)}"]
        out = []
        for i, (w, g) in enumerate(zip(wanted, got)):
            out += diff(w, g, f"{path}[{i}]")
        return out
    if wanted != got:
        return [f"{path}: expected {json.dumps(wanted)}, got {json.dumps(got)}"]
    return []


def _refuse_any(wanted: Any, path: str) -> list[str]:
    """A field expected to be ``{}`` would match any object: a check that cannot fail.
    (In a list, ``{}`` is the way to say "any element here".)"""
    if isinstance(wanted, dict) and not wanted:
        return [f"{path}: {{}} matches anything; to expect an empty object write "
                f"{{{json.dumps(EXACTLY)}: {{}}}}"]
    return []


def _exact(wanted: Any, got: Any, path: str) -> list[str]:
    """Paths where ``got`` is not exactly ``wanted``: no key may be missing or extra."""
    if got is _MISSING:
        return [f"{path}: expected exactly {json.dumps(wanted)}, but there is no such field"]
    if isinstance(wanted, dict) and isinstance(got, dict):
        out = [f"{path}.{key}: expected no such key, got {json.dumps(got[key])}"
               for key in got if key not in wanted]
        for key, value in wanted.items():
            out += _exact(value, got.get(key, _MISSING), f"{path}.{key}")
        return out
    if isinstance(wanted, list) and isinstance(got, list) and len(wanted) == len(got):
        out = []
        for i, (w, g) in enumerate(zip(wanted, got)):
            out += _exact(w, g, f"{path}[{i}]")
        return out
    if wanted != got:
        return [f"{path}: expected exactly {json.dumps(wanted)}, got {json.dumps(got)}"]
    return []


def _check_events(wanted: Any, got: list[dict[str, Any]]) -> list[str]:
    """``events`` lists event kinds (or partial events) that must occur in this order."""
    if not isinstance(wanted, list):
        return ["events: should be a list of event kinds or partial events"]
    position = 0
    for i, item in enumerate(wanted):
        pattern = {"kind": item} if isinstance(item, str) else item
        while position < len(got) and diff(pattern, got[position], "e"):
            position += 1
        if position == len(got):
            kinds = [e["kind"] for e in got]
            return [f"events[{i}]: no event matching {json.dumps(pattern)} in order; events were {kinds}"]
        position += 1
    return []
