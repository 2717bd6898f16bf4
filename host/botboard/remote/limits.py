"""How much catch-up the host answers: a table asking again and again cannot make it flood
the broker (300 requests once made a host publish 9.7 MB in 8 s).

Per table: a request the host answered a moment ago (same first entry, no entry since) is
not answered again; and a token bucket lets BURST answers through at once, then RATE a
second. Each answer is at most CATCHUP_BATCH entries, so in T seconds a table gets at most
(BURST + RATE x T) x CATCHUP_BATCH entries, however often it asks. The host starts afresh
when its own link comes back (every table then catches up); a table whose request was
refused asks again at the next entry it misses.
"""

from __future__ import annotations

import time
from collections.abc import Callable

CATCHUP_BATCH = 256  # entries per catch-up answer; the table asks again for the rest
BURST = 4  # answers a table may have at once
RATE = 1.0  # answers a second after that
REPEAT_S = 5.0  # a request answered this recently, with nothing new since, is not answered again


class CatchUpLimit:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._tokens: dict[str, tuple[float, float]] = {}  # table -> (tokens, when counted)
        self._answered: dict[str, tuple[int, int, float]] = {}  # table -> (first, last_n, when)

    def allow(self, table: str, first: int, last_n: int) -> bool:
        """Whether to answer ``table``'s request for the entries from ``first`` (last_n: the
        host's last entry); a yes is counted."""
        now = self._clock()
        answered = self._answered.get(table)
        if answered is not None and answered[:2] == (first, last_n) and now - answered[2] < REPEAT_S:
            return False
        tokens, when = self._tokens.get(table, (float(BURST), now))
        tokens = min(float(BURST), tokens + (now - when) * RATE)
        if tokens < 1:
            self._tokens[table] = (tokens, now)
            return False
        self._tokens[table] = (tokens - 1, now)
        self._answered[table] = (first, last_n, now)
        return True
