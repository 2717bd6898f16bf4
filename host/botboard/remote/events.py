"""What a room tells the game session, in the order it happened (``Room.events()``)."""

from __future__ import annotations

import dataclasses

from .protocol import Entry, PresenceRecord, RoomRecord
from .sequencer import HostEntry


@dataclasses.dataclass(frozen=True)
class PresenceChange:
    """A table ``joined`` the room, is ``gone`` (it left, or its link dropped), or is ``back``."""
    table: str
    change: str
    role: str
    seats: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Refusal:
    """Something refused, with why: a proposal or a seat claim by the host (``counter``/``seats``
    say which), or a message this table dropped: malformed, forged, not readable with its keys
    (``table`` None: sender unknown)."""
    reason: str
    table: str | None = None
    counter: int | None = None
    seat: int | None = None
    seats: tuple[int, ...] = ()
    key: bool = False  # the room record could not be read: this table's room key is not the room's


@dataclasses.dataclass(frozen=True)
class RoomChange:
    """The host's room record, when it first comes and whenever it changes; ``new_epoch``: a
    new game began, and entries count again from n = 1."""
    record: RoomRecord
    new_epoch: bool


@dataclasses.dataclass(frozen=True)
class LinkChange:
    """This table's connection to the broker went up or down (``error`` says why it went down)."""
    up: bool
    error: str | None = None


# Entry: a joined table's entry, in order n (its own private part only);
# HostEntry: the host's entry, with every private part, as it is sequenced
Event = Entry | HostEntry | PresenceChange | Refusal | RoomChange | LinkChange


def presence_change(before: PresenceRecord | None, now: PresenceRecord) -> PresenceChange | None:
    """The change from ``before`` to ``now`` worth telling, if any (a new seat claim is not)."""
    if now.state == "here":
        change = "joined" if before is None else "back" if before.state == "gone" else None
    else:
        change = "gone" if before is None or before.state == "here" else None
    return PresenceChange(now.table, change, now.role, now.seats) if change else None
