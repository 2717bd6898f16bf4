"""Two whole daemons, each with its simulated board, in one room of a real mosquitto: the
host plays some seats, the joined table the others (tests of remote play at the table)."""

from __future__ import annotations

import asyncio
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable

from botboard.console.app import create_app
from botboard.daemon import Daemon, DaemonConfig
from botboard.session.selfplay import Hands, Place

from .broker import Broker


@dataclass
class Tables:
    host: Daemon
    joined: Daemon
    tasks: dict[str, asyncio.Task[None]]

    def hands(self, seed: int = 1, wait_s: float = 30.0) -> Hands:
        """Virtual hands: the host's seats at the host's board, the others at the joined board,
        their phones talking to the joined table (as its players' phones do)."""
        host, joined = self.host, self.joined
        assert host.conn and host.sim_control and joined.conn and joined.sim_control
        place = Place(joined.conn, joined.sim_control, joined.session)
        remote = {seat: place for seat in joined.config.seats}
        return Hands(host.session, host.conn, host.sim_control, seed, wait_s, places=remote)


def daemon(broker: Broker, where: Path, name: str, game: str, seats: tuple[int, ...],
           players: int | None = None, room: str = "club", **extra: Any) -> Daemon:
    url = broker.url(room)
    return Daemon(DaemonConfig(game=game, players=players, console_port=0, data_dir=str(where / name),
                               remote=f"mqtt://127.0.0.1:{url.port}/{room}", seats=seats, table=name,
                               step_s=0.0, **extra))


async def start(d: Daemon) -> asyncio.Task[None]:
    ready = asyncio.Event()
    task = asyncio.create_task(d.run(create_app, ready))
    await asyncio.wait({task, asyncio.create_task(ready.wait())}, return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()
    return task


async def stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


@asynccontextmanager
async def two_tables(broker: Broker, where: Path, game: str, players: int, host_seats: tuple[int, ...],
                     joined_seats: tuple[int, ...], options: dict[str, Any] | None = None,
                     seed: int = 1) -> AsyncIterator[Tables]:
    host = daemon(broker, where, "a", game, host_seats, players, options=options or {}, seed=seed)
    joined = daemon(broker, where, "b", game, joined_seats)
    tasks = {"a": await start(host)}
    tasks["b"] = await start(joined)
    try:
        await until(lambda: host.conn and host.conn.state == "connected" and joined.conn
                    and joined.conn.state == "connected", 30, "both boards")
        await until(lambda: joined.session.state is not None
                    and all(s in joined.session.seat_views for s in joined_seats), 30,
                    "the joined table to show the game")
        yield Tables(host, joined, tasks)
    finally:
        for task in tasks.values():
            await stop(task)


async def until(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")
