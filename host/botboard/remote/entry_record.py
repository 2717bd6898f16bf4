"""Where the host keeps the entries it sequenced: ``EntryRecord``, what the host asks of it
(in the product, record.EntryStore beside the game's journal), and ``MemoryRecord``, one in
memory for a host without a journal (and for tests). Entries n..m of an epoch must come back,
with every private part, for the tables that catch up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .sequencer import HostEntry


class EntryRecord(Protocol):
    def add(self, epoch: str, entry: HostEntry) -> None: ...

    def fetch(self, epoch: str, first: int, last: int) -> Sequence[HostEntry]: ...


class MemoryRecord:
    """An EntryRecord in memory."""

    def __init__(self) -> None:
        self._entries: dict[str, list[HostEntry]] = {}

    def add(self, epoch: str, entry: HostEntry) -> None:
        entries = self._entries.setdefault(epoch, [])
        if entry.n != len(entries) + 1:
            raise ValueError(f"entry {entry.n} added after {len(entries)}")
        entries.append(entry)

    def fetch(self, epoch: str, first: int, last: int) -> Sequence[HostEntry]:
        return self._entries.get(epoch, [])[first - 1:last]
