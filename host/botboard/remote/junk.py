"""What a table drops, counted per kind, so that a stranger's junk costs one log line a minute.

    junk = JunkCount()
    said = junk.add("presence: not sealed")   # None: counted; else the count since the last line

The first message of a kind is said at once, with why; after that, one line a minute per kind
says how many more came. The counts are also there for the console (``counts``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

EVERY_S = 60.0  # one line a minute per kind


class JunkCount:
    def __init__(self, every: float = EVERY_S, clock: Callable[[], float] = time.monotonic) -> None:
        self._every, self._clock = every, clock
        self.counts: dict[str, int] = {}  # kind -> dropped in all
        self._since: dict[str, tuple[int, float]] = {}  # kind -> (dropped since its line, line's time)

    def add(self, kind: str) -> int | None:
        """Counts one dropped message of ``kind``: None when it stays silent, else how many of the
        kind were dropped unsaid before it (0 for the kind's first)."""
        now = self._clock()
        self.counts[kind] = self.counts.get(kind, 0) + 1
        since = self._since.get(kind)
        if since is not None and now - since[1] < self._every:
            self._since[kind] = (since[0] + 1, since[1])
            return None
        self._since[kind] = (0, now)
        return since[0] if since is not None else 0


class Bucket:
    """At most ``burst`` at once, then one every ``period`` seconds (a table republishing its own
    retained record against whatever the broker holds instead)."""

    def __init__(self, burst: int = 3, period: float = 2.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._burst, self._period, self._clock = burst, period, clock
        self._tokens, self._when = float(burst), clock()

    def wait(self) -> float:
        """Seconds until one is allowed; 0 takes it now."""
        now = self._clock()
        self._tokens = min(float(self._burst), self._tokens + (now - self._when) / self._period)
        self._when = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) * self._period
