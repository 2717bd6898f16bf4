"""A table applies the host's entries strictly in order n, each once.

Entries reach a table live, again through catch-up, and sometimes out of order (a
catch-up answer crossing live entries, a broker restart). ``InOrder`` buffers the ones
that come early, drops the ones already applied, and says which n is missing.
"""

from __future__ import annotations

from .protocol import Entry

MAX_AHEAD = 4096  # buffered early entries; past that the furthest are dropped and fetched again later


class InOrder:
    def __init__(self, last_n: int = 0) -> None:
        self.last_n = last_n  # the last entry applied
        self._ahead: dict[int, Entry] = {}

    def offer(self, entry: Entry) -> list[Entry]:
        """The entries now due, in order (none when ``entry`` is early or already applied)."""
        if entry.n <= self.last_n or entry.n in self._ahead:
            return []
        self._ahead[entry.n] = entry
        if len(self._ahead) > MAX_AHEAD:
            del self._ahead[max(self._ahead)]
        due = []
        while self.last_n + 1 in self._ahead:
            self.last_n += 1
            due.append(self._ahead.pop(self.last_n))
        return due

    @property
    def missing(self) -> int | None:
        """The first n to ask the host for, while later entries wait in the buffer."""
        return self.last_n + 1 if self._ahead else None

    def reset(self, last_n: int = 0) -> None:
        self.last_n = last_n
        self._ahead.clear()
