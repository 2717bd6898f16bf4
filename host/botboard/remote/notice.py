"""What the players hear of their table's link to the broker: one line per outage.

The link reconnects by itself; a link pushed off and back within a second is nothing the
players need to hear, and a link that comes and goes for a minute is one outage, not 79
lines. So "down" is said only when the link stayed down GRACE_S, once per outage, and
"back" once after it; the outage ends when the link has stayed up STABLE_S.

    notice = LinkNotice(say)          # say(text): a line in the table's log and phones
    notice.change(up=False, error="connection refused")
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

GRACE_S = 3.0  # a link back within this is not told
STABLE_S = 30.0  # up this long: the outage is over, the next drop is told again


class LinkNotice:
    def __init__(self, say: Callable[[str], None], *, grace: float = GRACE_S, stable: float = STABLE_S) -> None:
        self._say, self._grace, self._stable = say, grace, stable
        self._told = False  # "down" was said in this outage
        self._back_said = False
        self._timer: asyncio.TimerHandle | None = None

    def change(self, up: bool, error: str | None = None) -> None:
        self._cancel()
        loop = asyncio.get_running_loop()
        if not up:
            if not self._told:
                self._timer = loop.call_later(self._grace, self._down, error)
        elif self._told:
            if not self._back_said:
                self._back_said = True
                self._say("the link to the broker is back")
            self._timer = loop.call_later(self._stable, self._over)

    def close(self) -> None:
        self._cancel()

    def _down(self, error: str | None) -> None:
        self._timer = None
        self._told, self._back_said = True, False
        self._say(f"the link to the broker is down ({error}); play goes on when it is back")

    def _over(self) -> None:
        self._timer = None
        self._told = False

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
