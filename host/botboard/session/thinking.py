"""Where computer players think: worker processes apart from the table's event loop.

    pool = ThinkingPool()
    choice, player = await pool.think(player, engine, state, seat)   # keep the returned player
    pool.close()

A search thinking for seconds in a thread holds the GIL against the event loop
that serves the board, the console and the phones (``botboard bench table
--thinking thread`` shows what that costs a confirm). In a process it runs
apart, on another core when there is one. The pool starts its workers once
(forkserver: a small server process forks them, so the session's threads and
sockets are never copied), the first time a computer thinks.

A worker is sent what a player is given in the session (players.base.Situation):
the state, the seat and the game's registry name; it builds the Situation
itself, so the player still only samples the state. The player is sent too
and comes back with its random generator advanced: the same seed gives the
same moves as thinking in the session's own process.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, TypeVar

from ..players import Choice, Player, Situation

T = TypeVar("T")
# imported once in the forkserver, so a worker forked from it starts thinking at once
_PRELOAD = ["botboard.players", "botboard.games"]
# a worker yields the CPU to the table: the event loop serving the board, the console and
# the phones wins a core whenever it needs one (a Pi's four cores are shared with them).
# On Linux a worker runs under SCHED_IDLE: it gets a core only when nothing else wants it
# and gives it up at once when the table wakes (a niced process still takes slices of a
# few ms from it: a search thinking doubled a confirm's p99 on two cores); elsewhere nice.
NICE = 10


def _start_worker(host: int) -> None:
    """In a worker as it starts: yield to the table, and go when the host is gone (a host
    killed outright leaves its forkserver and workers behind otherwise), taking the
    forkserver, its parent, along."""
    _yield_to_the_table()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(host, 0)
            except ProcessLookupError:
                os.kill(os.getppid(), signal.SIGTERM)
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _yield_to_the_table() -> None:
    os.nice(NICE)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:  # a container that forbids it: nice alone
            pass


def choose(player: Player, game_name: str, state: Any, seat: int) -> tuple[Choice, Player]:
    """In a worker: the player's choice for ``seat``, and the player as it is after it."""
    from .. import games

    return player.choose(Situation.of(games.get(game_name), state, seat)), player


class ThinkingPool:
    """Worker processes for a session's computer seats, one per seat thinking at once
    (at most one per core)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None

    def think(self, player: Player, engine: Any, state: Any, seat: int) -> asyncio.Future[tuple[Choice, Player]]:
        """The player's choice, worked out in a worker; the event loop is free meanwhile."""
        return self.run(choose, player, engine.info.name, state, seat)

    def run(self, func: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """``func(*args)`` in a worker: a module-level function, its arguments and result picklable."""
        return asyncio.get_running_loop().run_in_executor(self._start(), func, *args)

    def _start(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_PRELOAD)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                             initializer=_start_worker, initargs=(os.getpid(),))
        return self._pool

    def close(self) -> None:
        """Stop the workers (a move being thought is dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
