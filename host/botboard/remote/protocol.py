"""The room's topics and messages: versioned JSON, every message checked strictly.

Topics, all under ``botboard/v2/ROOM/TAG/`` (TAG: derived from the room key, seal.topic_tag, so
rooms with other keys never share a topic) (``TABLE`` is a table's id, its broker user name
when the broker checks ACLs; see docs/remote-play.md):

    room              retained RoomRecord, published by the host table
    presence/TABLE    retained PresenceRecord; the table's MQTT last will sets it "gone"
    propose/TABLE     Proposal, table -> host (QoS 0: link.py)
    catchup/TABLE     CatchUp, table -> host: "send me entries from n"
    entries           Entry with the public part only (QoS 0), for spectators
    to/TABLE          what the host says to one table (QoS 0): each Entry with that table's
                      private part, Answer to its proposals, ClaimRefused, CaughtUp

Every table reads its entries from its own ``to/TABLE`` topic, which seal.py encrypts for
that table alone (a broker ACL that lets user TABLE read only ``to/TABLE`` adds a second
wall), and a table gets each entry as one message (no joining of a public and a private half).

A message is a JSON object ``{"v": 2, "kind": ..., ...}`` of at most MAX_MESSAGE bytes;
``decode`` refuses anything else with a ProtocolError naming what is wrong.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

VERSION = 2  # 2: topics under the room key's tag, numbered records, fresh catch-up requests
MAX_MESSAGE = 64 * 1024  # bytes of one encoded message; a game action is far smaller
MAX_REASON = 500  # characters of a refusal's reason
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # table, run and epoch ids: topic- and user-name-safe
ROLES = ("host", "player", "spectator")
STATES = ("here", "gone")


class ProtocolError(ValueError):
    """A message that does not follow the protocol; it must change nothing."""


def valid_id(text: object) -> bool:
    return isinstance(text, str) and _ID.fullmatch(text) is not None


class Topics:
    """The topic names of one room: ``botboard/v2/ROOM/TAG/...``, TAG derived from the room key."""

    def __init__(self, room: str, tag: str) -> None:
        self.name = f"botboard/v{VERSION}/{room}"  # every group's room of this name
        self.tag = tag
        self.base = f"{self.name}/{tag}"
        self.room = f"{self.base}/room"
        self.rooms = f"{self.name}/+/room"  # this room's record and any other group's of the same name
        self.entries = f"{self.base}/entries"

    def presence(self, table: str = "+") -> str:
        return f"{self.base}/presence/{table}"

    def propose(self, table: str = "+") -> str:
        return f"{self.base}/propose/{table}"

    def catchup(self, table: str = "+") -> str:
        return f"{self.base}/catchup/{table}"

    def to(self, table: str) -> str:
        return f"{self.base}/to/{table}"

    def foreign(self, topic: str) -> str | None:
        """The tag of another group's room record of the same name, else None."""
        levels = topic[len(self.name) + 1:].split("/") if topic.startswith(self.name + "/") else []
        return levels[0] if len(levels) == 2 and levels[1] == "room" and levels[0] != self.tag else None

    def split(self, topic: str) -> tuple[str, str | None]:
        """``(channel, table)`` of one of this room's topics: ('propose', 'a'), ('room', None)."""
        if not topic.startswith(self.base + "/"):
            raise ProtocolError(f"topic {topic!r} is not in this room")
        levels = topic[len(self.base) + 1:].split("/")
        if len(levels) == 1 and levels[0] in ("room", "entries"):
            return levels[0], None
        if len(levels) == 2 and levels[0] in ("presence", "propose", "catchup", "to") and valid_id(levels[1]):
            return levels[0], levels[1]
        raise ProtocolError(f"topic {topic!r} is not one of the room's topics")


# --- field checks: each returns the value to keep or raises ProtocolError ---------------

Check = Callable[[str, Any], Any]


def _ident(name: str, value: Any) -> str:
    if not valid_id(value):
        raise ProtocolError(f"{name} must be 1-64 of A-Z a-z 0-9 _ -, got {value!r}")
    return str(value)


def _int_from(low: int) -> Check:
    def check(name: str, value: Any) -> int:
        # bool is an int in Python but never a number in this protocol
        if type(value) is not int or value < low:
            raise ProtocolError(f"{name} must be an integer >= {low}, got {value!r}")
        return value
    return check


def _optional(check: Check) -> Check:
    def optional(name: str, value: Any) -> Any:
        return None if value is None else check(name, value)
    return optional


def _one_of(choices: tuple[str, ...]) -> Check:
    def check(name: str, value: Any) -> str:
        if value not in choices:
            raise ProtocolError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
        return str(value)
    return check


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str) or len(value) > MAX_REASON:
        raise ProtocolError(f"{name} must be a string of at most {MAX_REASON} characters")
    return value


def _keys(name: str, value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{128}", value):
        raise ProtocolError(f"{name} must be a table's public keys: 128 hex digits")
    return value


def _ephemeral(name: str, value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise ProtocolError(f"{name} must be a table's key for this game: 64 hex digits")
    return value


def _bool(name: str, value: Any) -> bool:
    if type(value) is not bool:
        raise ProtocolError(f"{name} must be true or false, got {value!r}")
    return value


def _json(name: str, value: Any) -> Any:
    return value  # any JSON value: decode() already refused what JSON cannot hold


def _object(name: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError(f"{name} must be an object")
    return value


_seat = _int_from(0)


def _seats(name: str, value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or len(set(map(repr, value))) != len(value):
        raise ProtocolError(f"{name} must be a list of distinct seats")
    return tuple(_seat(name, seat) for seat in value)


def _seat_map(name: str, value: Any) -> dict[str, tuple[int, ...]]:
    seats = {_ident(f"{name} key", table): _seats(f"{name}[{table}]", owned)
             for table, owned in _object(name, value).items()}
    flat = [seat for owned in seats.values() for seat in owned]
    if len(flat) != len(set(flat)):
        raise ProtocolError(f"{name}: a seat belongs to two tables")
    return seats


# --- the messages --------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Message:
    KIND: ClassVar[str]
    FIELDS: ClassVar[dict[str, Check]]
    # fields that may be left out: each has a default in the dataclass
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()


@dataclasses.dataclass(frozen=True)
class RoomRecord(Message):
    """What the room plays, retained on ``room``; a new ``epoch`` is a new game."""
    host: str
    epoch: str
    game: str
    players: int
    options: dict[str, Any]
    seats: dict[str, tuple[int, ...]]  # table -> the seats it owns
    layout: str | None = None
    keys: str = ""  # the host's public keys (seal.py): what signs every entry
    seq: int = 0  # grows with every record the host signs: an older one is a replay
    ephemeral: str = ""  # the host's X25519 key for this game and run (seal.py: forward secrecy)
    KIND = "room"
    FIELDS = {"host": _ident, "epoch": _ident, "game": _text, "players": _int_from(1),
              "options": _object, "seats": _seat_map, "layout": _optional(_text), "keys": _keys,
              "seq": _int_from(1), "ephemeral": _ephemeral}
    OPTIONAL = frozenset({"layout"})

    def owner(self, seat: int) -> str | None:
        return next((table for table, owned in self.seats.items() if seat in owned), None)


@dataclasses.dataclass(frozen=True)
class PresenceRecord(Message):
    """A table's presence, retained on ``presence/TABLE``; its last will says "gone"."""
    table: str
    state: str
    role: str
    seats: tuple[int, ...] = ()  # the seats a player table claims
    keys: str = ""  # the table's public keys (seal.py), pinned by the others when it first joins
    seq: int = 0  # grows with every record the table signs: an older one is a replay
    run: str = "-"  # the table's run (Room.run): its catch-up requests name it
    will: int = 0  # the seq of this run's last will ("gone"), made before the run said "here"
    ephemeral: str = ""  # the table's X25519 key for this run (seal.py: forward secrecy)
    KIND = "presence"
    FIELDS = {"table": _ident, "state": _one_of(STATES), "role": _one_of(ROLES), "seats": _seats,
              "keys": _keys, "seq": _int_from(1), "run": _ident, "will": _int_from(0),
              "ephemeral": _ephemeral}
    OPTIONAL = frozenset({"seats"})


@dataclasses.dataclass(frozen=True)
class Proposal(Message):
    """A table's action for one of its seats; ``(table, run, counter)`` is its identity."""
    table: str
    run: str  # fresh for each JoinedRoom, so a restarted table's counters cannot collide
    counter: int
    epoch: str
    seat: int
    payload: Any
    first: int | None = None  # the run's first proposal still unanswered at the table (ordering.py)
    KIND = "proposal"
    FIELDS = {"table": _ident, "run": _ident, "counter": _int_from(1), "epoch": _ident,
              "seat": _seat, "payload": _json, "first": _optional(_int_from(1))}
    OPTIONAL = frozenset({"first"})


@dataclasses.dataclass(frozen=True)
class CatchUp(Message):
    """A table asks the host for the entries from ``first`` on; ``run`` (its presence record's)
    and a ``counter`` that grows make each request fresh: a replayed one is not answered."""
    table: str
    epoch: str
    first: int
    run: str = "-"
    counter: int = 0
    KIND = "catchup"
    FIELDS = {"table": _ident, "epoch": _ident, "first": _int_from(1), "run": _ident,
              "counter": _int_from(1)}


@dataclasses.dataclass(frozen=True)
class Entry(Message):
    """The host's entry ``n`` of the epoch, as one table sees it (``private``: its part only)."""
    epoch: str
    n: int
    table: str  # the table whose proposal it was (the host's id for the host's own entries)
    public: Any
    seat: int | None = None  # None: an entry of the host's own, for no seat
    private: Any = None
    KIND = "entry"
    FIELDS = {"epoch": _ident, "n": _int_from(1), "table": _ident, "public": _json,
              "seat": _optional(_seat), "private": _json}
    OPTIONAL = frozenset({"seat", "private"})


@dataclasses.dataclass(frozen=True)
class Answer(Message):
    """The host's answer to one proposal: accepted as entry ``n``, or refused with a reason."""
    epoch: str
    run: str
    counter: int
    ok: bool
    n: int | None = None
    reason: str | None = None
    KIND = "answer"
    FIELDS = {"epoch": _ident, "run": _ident, "counter": _int_from(1), "ok": _bool,
              "n": _optional(_int_from(1)), "reason": _optional(_text)}
    OPTIONAL = frozenset({"n", "reason"})


@dataclasses.dataclass(frozen=True)
class ClaimRefused(Message):
    """The host refused seats a table claimed in its presence record."""
    seats: tuple[int, ...]
    reason: str
    KIND = "claim_refused"
    FIELDS = {"seats": _seats, "reason": _text}


@dataclasses.dataclass(frozen=True)
class CaughtUp(Message):
    """Ends the host's answer to a CatchUp: the epoch's last entry is ``last_n`` (0: none)."""
    epoch: str
    last_n: int
    KIND = "caught_up"
    FIELDS = {"epoch": _ident, "last_n": _int_from(0)}


KINDS: dict[str, type[Message]] = {cls.KIND: cls for cls in
                                   (RoomRecord, PresenceRecord, Proposal, CatchUp, Entry, Answer,
                                    ClaimRefused, CaughtUp)}
# which kinds each channel carries: anything else on it is refused
CHANNEL_KINDS: dict[str, tuple[type[Message], ...]] = {
    "room": (RoomRecord,), "presence": (PresenceRecord,), "propose": (Proposal,),
    "catchup": (CatchUp,), "entries": (Entry,), "to": (Entry, Answer, ClaimRefused, CaughtUp),
}


def encode(message: Message) -> bytes:
    body: dict[str, Any] = {"v": VERSION, "kind": message.KIND}
    for name in message.FIELDS:
        value = getattr(message, name)
        if value is None and name in message.OPTIONAL:
            continue
        body[name] = list(value) if isinstance(value, tuple) else value
    if isinstance(message, RoomRecord):
        body["seats"] = {table: list(seats) for table, seats in message.seats.items()}
    data = json.dumps(body, separators=(",", ":"), allow_nan=False).encode()
    if len(data) > MAX_MESSAGE:
        raise ProtocolError(f"{message.KIND} message of {len(data)} bytes is over {MAX_MESSAGE}")
    return data


def decode(data: bytes, allowed: tuple[type[Message], ...]) -> Message:
    """The message in ``data`` if it is one of ``allowed`` kinds and follows its schema."""
    if len(data) > MAX_MESSAGE:
        raise ProtocolError(f"message of {len(data)} bytes is over {MAX_MESSAGE}")
    body = _load(data)
    if type(body.get("v")) is not int or body["v"] != VERSION:  # true == 1 in Python
        raise ProtocolError(f"protocol version {body.get('v')!r} is not {VERSION}")
    cls = KINDS.get(body.get("kind"))  # type: ignore[arg-type]
    if cls is None or cls not in allowed:
        raise ProtocolError(f"kind {body.get('kind')!r} is not expected here")
    return _build(cls, body)


def _load(data: bytes) -> dict[str, Any]:
    def no_constants(name: str) -> None:
        raise ProtocolError(f"{name} is not JSON")
    try:
        body = json.loads(data.decode(), parse_constant=no_constants)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ProtocolError("a message must be a JSON object")
    return body


def _build(cls: type[Message], body: Mapping[str, Any]) -> Message:
    fields = {name: value for name, value in body.items() if name not in ("v", "kind")}
    unknown = set(fields) - set(cls.FIELDS)
    if unknown:
        raise ProtocolError(f"{cls.KIND}: unknown fields {sorted(unknown)}")
    missing = set(cls.FIELDS) - set(fields) - cls.OPTIONAL
    if missing:
        raise ProtocolError(f"{cls.KIND}: missing fields {sorted(missing)}")
    return cls(**{name: cls.FIELDS[name](f"{cls.KIND}.{name}", value) for name, value in fields.items()})
