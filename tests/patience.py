"""One rule for every wait in the tests: on a condition, with a deadline scaled by the machine's load.

A deadline written in a test is what the wait needs on an idle machine. It is multiplied by
``load_factor`` (the session's own rule, botboard.session.selfplay: the run queue per core),
read again while the wait lasts, so a machine that gets busy mid-wait gives it the patience it
needs: a loaded machine is slow, never wrong. tests/test_patience.py checks that tests wait this
way only (no bare sleep as a wait, no fixed deadline under a minute).

    wait_for(lambda: page_ready(), 10, "the page")        # polls, raises AssertionError late
    await until(lambda: conn.up, 10, "the link")           # the same on an event loop
    expect(locator).to_have_text("x", timeout=ms(15))      # Playwright's own waits, in ms
    future.result(scaled(10))                              # any other API's timeout
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable

from botboard.patience import load_factor

POLL_S = 0.02


def scaled(seconds: float) -> float:
    """``seconds`` on an idle machine, as long as this machine needs now."""
    return seconds * load_factor()


def ms(seconds: float) -> int:
    """``scaled(seconds)`` in milliseconds (Playwright's timeouts)."""
    return int(scaled(seconds) * 1000)


class Deadline:
    """``seconds`` of idle-machine time from now, stretched by the highest load seen meanwhile."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start = time.monotonic()
        self.factor = load_factor()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def passed(self) -> bool:
        if self.elapsed <= self.seconds * self.factor:
            return False
        self.factor = max(self.factor, load_factor())  # busier since it began: wait longer
        return self.elapsed > self.seconds * self.factor

    def left(self) -> float:
        """Seconds left at the load seen so far (for an API that takes a timeout)."""
        return max(0.0, self.seconds * self.factor - self.elapsed)

    def __str__(self) -> str:
        return f"{self.elapsed:.1f} s ({self.seconds:g} s idle x load {self.factor:.1f})"


def _said(what: Any) -> Any:
    return what() if callable(what) else what


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0, what: Any = "condition") -> Any:
    """Poll ``predicate`` until it is true (its value returned) or the scaled deadline passes."""
    deadline = Deadline(timeout)
    while True:
        value = predicate()
        if value:
            return value
        if deadline.passed():
            raise AssertionError(f"timed out after {deadline} waiting for {_said(what)}")
        time.sleep(POLL_S)


async def until(predicate: Callable[[], Any], timeout: float = 10.0, what: Any = "condition") -> Any:
    """``wait_for`` on an event loop (the loop runs while it waits)."""
    deadline = Deadline(timeout)
    while True:
        value = predicate()
        if value:
            return value
        if deadline.passed():
            raise AssertionError(f"timed out after {deadline} waiting for {_said(what)}")
        await asyncio.sleep(POLL_S)


def quiet(seconds: float) -> None:
    """A window for what must *not* happen (a duplicate, a second request), not a wait: it
    lasts ``scaled(seconds)``, so a busy machine gets as long a look in its own time."""
    time.sleep(scaled(seconds))  # pace: the window itself


async def aquiet(seconds: float) -> None:
    """``quiet`` on an event loop."""
    await asyncio.sleep(scaled(seconds))  # pace: the window itself
