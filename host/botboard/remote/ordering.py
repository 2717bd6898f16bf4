"""Order both ways: a table applies the host's entries strictly in order n, each once
(``InOrder``); the host decides a table's proposals in the order the table made them
(``ProposalOrder``).

Entries reach a table live, again through catch-up, and sometimes out of order (a
catch-up answer crossing live entries, a broker restart). ``InOrder`` buffers the ones
that come early, drops the ones already applied, and says which n is missing.

A table sends its proposals without waiting for each answer, so one lost to a busy broker
(and sent again a moment later) arrives after the ones behind it. Each proposal says the
first of its run the table has no answer to yet (``Proposal.first``); the host holds back
proposal c until c - 1 is decided, unless c is that first one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .protocol import Entry, Proposal

MAX_HELD = 256  # proposals held back in all; past that the furthest are dropped (they are sent again)

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


Decided = Callable[[str, str, int], bool]  # (table, run, counter): the host has an answer for it


class ProposalOrder:
    def __init__(self) -> None:
        self._held: dict[tuple[str, str, int], Proposal] = {}

    def due(self, proposal: Proposal, decided: Decided) -> Iterator[Proposal]:
        """``proposal`` and the held ones it frees, in the order to decide them; call
        ``decided`` afresh after each is decided (the next may depend on it)."""
        if not self._ready(proposal, decided):
            self._hold(proposal)
            return
        yield proposal
        key = (proposal.table, proposal.run, proposal.counter + 1)
        while (after := self._held.get(key)) is not None and self._ready(after, decided):
            del self._held[key]
            yield after
            key = (after.table, after.run, after.counter + 1)

    def clear(self) -> None:
        """A new epoch: what was held belongs to the last game."""
        self._held.clear()

    @staticmethod
    def _ready(p: Proposal, decided: Decided) -> bool:
        return (p.first is None or p.counter <= p.first or decided(p.table, p.run, p.counter)
                or decided(p.table, p.run, p.counter - 1))

    def _hold(self, proposal: Proposal) -> None:
        self._held[proposal.table, proposal.run, proposal.counter] = proposal
        if len(self._held) > MAX_HELD:
            del self._held[max(self._held, key=lambda key: key[2])]
