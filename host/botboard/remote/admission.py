"""Whether a genuine message is let in: not older than what this table has seen, and a room
record signed by the host.

    check_fresh(message, keys, presence)   # Stale: a replayed room or presence record
    check_host(record, url, keys)          # SealError: a room record not signed by the host

A signature proves who sent a message, not when: a captured record replayed later is genuine.
So records carry their signer's number (TableKeys.next_seq), a table keeps the highest it has
seen from each sender and the games the room left (in its keys file, across restarts), and an
older record, or one naming a game the room left, is a replay. The host is the one the room's
link names by its keys' fingerprint, else the first this table pinned: anyone with the link
can sign a room record, only the host's keys are believed. Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping

from .protocol import Message, PresenceRecord, RoomRecord
from .seal import SealError, fingerprint
from .table_keys import TableKeys
from .url import RemoteUrl


class Stale(SealError):
    """A genuine record or request older than what this table has seen: a replay."""


def check_fresh(message: Message, keys: TableKeys, presence: Mapping[str, PresenceRecord]) -> None:
    """A record older than the newest seen from its sender is a replay (Stale)."""
    if isinstance(message, RoomRecord):
        _fresh_room(message, keys)
    elif isinstance(message, PresenceRecord):
        _fresh_presence(message, keys, presence.get(message.table))


def _fresh_room(record: RoomRecord, keys: TableKeys) -> None:
    mark = keys.marks.get("room", 0)
    if record.seq < mark:
        raise Stale(f"room record number {record.seq} is older than the newest seen ({mark}): "
                    "a replay, refused")
    if record.epoch in keys.left:
        raise Stale(f"the room record names game {record.epoch}, which the room left: a replay, "
                    "refused")


def _fresh_presence(record: PresenceRecord, keys: TableKeys, now: PresenceRecord | None) -> None:
    mark = keys.marks.get(f"presence/{record.table}", 0)
    # the last will of the run that is here: made before it said "here", so numbered lower
    will = now is not None and now.state == "here" and record.state == "gone" and record.seq == now.will
    # the newest record again is the broker's copy, unless a last will came after it
    again = record.seq == mark and (now is None or now == record)
    if not (record.seq > mark or again or will):
        raise Stale(f"presence record number {record.seq} of table {record.table} is older than "
                    f"the newest seen ({mark}): a replay, refused")


def check_host(record: RoomRecord, url: RemoteUrl, keys: TableKeys) -> None:
    """Only the host signs a room record: the host the link names (its fingerprint), else
    the one this table pinned first (kept in its keys file)."""
    if url.host_key is not None:
        if fingerprint(record.keys) != url.host_key:
            raise SealError(f"a room record naming host {record.host} is signed by other keys than "
                            "the host's that the room's link names: refused (someone with the link, "
                            "not the host table)")
    elif keys.host is not None and record.keys != keys.host:
        raise SealError(f"a room record naming host {record.host} is signed by other keys than the "
                        "host's this table knows: refused (someone with the link, not the host table)")
