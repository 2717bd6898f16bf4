"""Counts what a room drops or refuses, per topic, and logs it at most once a minute.

A stranger on the broker can send a room thousands of junk messages a second; a log line
for each one (the issue measured 12.6 MB in 40 s) fills the disk and hides what matters.

    tally = Tally(log, "room club, table kitchen")
    tally.count("botboard/v1/club/propose/zz", "not sealed with the room's key")

The first count after a quiet minute is logged at once (one odd message is seen when it
comes); the rest of that minute is counted and summed up in one line when the minute is
over, with the count per topic and the last reason of each.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

EVERY_S = 60.0  # at most one line per this many seconds
MAX_TOPICS = 32  # topics named in one line; the others are summed as "other topics"
OTHER = "other topics"


class Tally:
    def __init__(self, log: logging.Logger, who: str, *, every: float = EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._log, self._who, self._every, self._clock = log, who, every, clock
        self._counts: dict[str, tuple[int, str]] = {}  # topic -> (count, last reason)
        self._last_line: float | None = None
        self._flush: asyncio.TimerHandle | None = None
        self.total = 0  # every count since the start

    def count(self, topic: str, reason: str) -> None:
        self.total += 1
        now = self._clock()
        if self._counts and self._last_line is not None and now - self._last_line >= self._every:
            self.flush()  # the last minute's sum first (its timer has not run yet)
        if self._last_line is None or now - self._last_line >= self._every:
            self._last_line = now
            self._log.warning("%s: refused a message on %s: %s", self._who, topic, reason)
            return
        key = topic if topic in self._counts or len(self._counts) < MAX_TOPICS else OTHER
        self._counts[key] = (self._counts.get(key, (0, ""))[0] + 1, reason)
        self._later(self._last_line + self._every - now)

    def flush(self) -> None:
        """The line for what was counted since the last one (at close, or when its minute is over)."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        if not self._counts:
            return
        counts, self._counts = self._counts, {}
        self._last_line = self._clock()
        total = sum(n for n, _ in counts.values())
        parts = "; ".join(f"{n} on {topic} ({reason})" for topic, (n, reason) in
                          sorted(counts.items(), key=lambda item: -item[1][0]))
        self._log.warning("%s: refused %d more message%s: %s", self._who, total, "" if total == 1 else "s", parts)

    def _later(self, delay: float) -> None:
        if self._flush is not None:
            return
        try:
            self._flush = asyncio.get_running_loop().call_later(max(0.0, delay), self.flush)
        except RuntimeError:  # no loop (a unit test): the next count or flush() says it
            pass
