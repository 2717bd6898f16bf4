"""The asyncio rooms a game session drives, from one place: ``HostRoom`` (the table whose
journal is the record: it sequences every proposal, host_room.py), ``JoinedRoom`` (a table
that plays some seats) and ``SpectatorRoom`` (read-only, public parts only; joined_room.py),
all built on ``Room`` (room_core.py: the link, the keys, every message opened and checked).

    async with JoinedRoom(parse_remote_url("mqtt://broker/club#KEY.HOST"), "kitchen", seats=[2]) as room:
        answer = await room.propose(2, {"action": "F1"})
        async for event in room.events():   # Entry in order n, PresenceChange, Refusal, ...
            ...

Every message is sealed (seal.py: signed by its sender, encrypted for who may read it) and
checked (protocol.decode, admission.py); one that cannot be opened, whose signature does not
hold, that is malformed, or older than what this table has seen is dropped and changes
nothing. Room and presence records are numbered: a table keeps the highest number it has seen
(TableKeys, across restarts), and each table republishes its own retained records whenever
the broker holds anything else (own_records.py). The room's link must carry its key
(``mqtt://broker/club#KEY``) and, for a table that joins, the host's fingerprint
(``#KEY.HOST``; without it, the first host seen is pinned). See docs/remote-play.md for
topics, trust and faults.
"""

from __future__ import annotations

from .entry_record import EntryRecord, MemoryRecord
from .events import Event, LinkChange, PresenceChange, Refusal, RoomChange
from .host_room import HostRoom
from .joined_room import JoinedRoom, SpectatorRoom
from .room_core import Room, room_topics
from .sequencer import Accepted, HostEntry, Refused

__all__ = ["Accepted", "EntryRecord", "Event", "HostEntry", "HostRoom", "JoinedRoom", "LinkChange",
           "MemoryRecord", "PresenceChange", "Refusal", "Refused", "Room", "RoomChange", "SpectatorRoom",
           "room_topics"]
