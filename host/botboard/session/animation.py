"""Execution on the board: an action's frames of cell states, played in time.

The action has already been applied and journaled when it plays: the frames
(made by the game's table mapping, one picture per visible step, the last
one the exact picture of the state after) are only a picture of it. Speed
is seconds per step (0: straight to the end); ``skip`` jumps there.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from ..games.base import Event
from ..link.image import CellState

DEFAULT_STEP_S = 0.35
# what the previous button steps through during an animation, in this order
TABLE_SPEEDS = {"slow": 0.7, "normal": DEFAULT_STEP_S, "fast": 0.15}


class Animation:
    """Plays frames through ``show``; one at a time, cancellable, skippable."""

    def __init__(self, show: Callable[[dict[int, CellState]], None],
                 step_s: float = DEFAULT_STEP_S) -> None:
        self.show = show
        self.step_s = step_s
        self._task: asyncio.Task[None] | None = None
        self._skip = asyncio.Event() if _loop_running() else None
        self._last: dict[int, CellState] | None = None
        self._shown: Callable[[Event | None], None] = lambda event: None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def play(self, pictures: list[tuple[Event | None, dict[int, CellState]]],
             done: Callable[[], None], shown: Callable[[Event | None], None] | None = None) -> None:
        """Show each picture in turn, ``shown(its event)`` after each but the last, then ``done()``."""
        self.stop()
        self._shown = shown or (lambda event: None)
        self._last = pictures[-1][1]
        if self.step_s <= 0 or not _loop_running() or len(pictures) == 1:
            if pictures[:-1]:
                self.show(pictures[0][1])  # the first frame still shows: the turn started
            self.show(pictures[-1][1])
            done()
            return
        self._skip = asyncio.Event()
        self.show(pictures[0][1])  # now, not when the task first runs: the turn shows at once
        self._shown(pictures[0][0])
        self._task = asyncio.get_running_loop().create_task(self._run(pictures, done))

    async def _run(self, pictures: list[tuple[Event | None, dict[int, CellState]]],
                   done: Callable[[], None]) -> None:
        assert self._skip is not None
        for index in range(1, len(pictures)):  # a cancel (undo, a new game) ends it here
            try:
                await asyncio.wait_for(self._skip.wait(), self.step_s)
                break  # skipped
            except asyncio.TimeoutError:
                pass
            if index < len(pictures) - 1:
                self.show(pictures[index][1])
                self._shown(pictures[index][0])
        self.show(pictures[-1][1])
        done()

    def skip(self) -> None:
        if self._skip is not None:
            self._skip.set()

    def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
        return True
    except RuntimeError:
        return False
