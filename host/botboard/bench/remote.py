"""Remote play's latency: a confirm at one table -> the first LED frame at the other.

Starts a mosquitto on loopback (Debian's package) and two whole daemons, each with
its simulated board, in one room: table a hosts a two-player game and plays red,
table b plays blue. Over --samples repetitions, red's legal program lies in table
a's slots, confirm is pressed on a's board, and the time until table b's board
shows a changed frame is taken (the action is then undone for the next sample).
The path: a's board -> a's session (rules, journal) -> entries through the broker
-> b's daemon -> b's board. Target: p99 <= 100 ms plus the network's round trip
(0 here: loopback).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import tempfile
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Callable
from urllib.parse import quote

from .. import games
from ..console.app import create_app
from ..daemon import Daemon, DaemonConfig
from ..patience import load_factor
from ..remote.local_broker import MOSQUITTO, ROOM_KEY, Broker
from ..remote.seal import fingerprint
from ..remote.table_keys import TableKeys
from ..session.selfplay import Hands, Place
from .table import _lay, _pct, _taken_at_first_confirm, confirm_to_frame
from ..cli import values


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None, help="the game: " + ", ".join(games.table_names())
                        + f" (default {games.default_name()})")
    parser.add_argument("--samples", type=values.COUNT, default=30, help="samples (default 30)")


@dataclass
class Tables:
    """Two daemons in one room: ``host`` plays its seats, ``joined`` the others."""

    host: Daemon
    joined: Daemon
    tasks: dict[str, asyncio.Task[None]]

    def hands(self, seed: int = 1, wait_s: float = 30.0) -> Hands:
        """Virtual hands: the host's seats at the host's board, the others at the joined board,
        their phones talking to the joined table (as its players' phones do)."""
        host, joined = self.host, self.joined
        assert host.conn and host.sim_control and joined.conn and joined.sim_control
        place = Place(joined.conn, joined.sim_control, joined.session)
        return Hands(host.session, host.conn, host.sim_control, seed, wait_s,
                     places={seat: place for seat in joined.config.seats})


def table_daemon(broker: Broker, where: Path, name: str, game: str, seats: tuple[int, ...],
                 players: int | None = None, room: str = "club", key: str = ROOM_KEY, host: str = "a",
                 **extra: Any) -> Daemon:
    """A daemon of a table in ``room`` (the one given ``players`` hosts, its data in where/host),
    its data in where/name; the others join with the link naming the host's keys."""
    link = f"mqtt://127.0.0.1:{broker.port}/{room}#{quote(key)}"
    if players is None:  # the host's keys file, made now if the host has not started yet
        link += "." + fingerprint(TableKeys.load(where / host / f"room-{room}.keys").identity.public)
    return Daemon(DaemonConfig(game=game, players=players, console_port=0, data_dir=str(where / name),
                               remote=link, seats=seats, table=name, **{"step_s": 0.0, **extra}))


async def start(daemon: Daemon) -> asyncio.Task[None]:
    return await daemon.start(create_app)


async def stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def until(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    """Wait for ``predicate``: ``timeout`` on an idle machine, stretched by its load."""
    deadline = time.monotonic() + timeout * load_factor()
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@asynccontextmanager
async def two_tables(broker: Broker, where: Path, game: str, players: int, host_seats: tuple[int, ...],
                     joined_seats: tuple[int, ...], options: dict[str, Any] | None = None,
                     seed: int = 1, **extra: Any) -> AsyncIterator[Tables]:
    host = table_daemon(broker, where, "a", game, host_seats, players, options=options or {}, seed=seed,
                        **extra)
    joined = table_daemon(broker, where, "b", game, joined_seats, **extra)
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


async def _measure(game: str, samples: int, where: Path) -> list[float]:
    broker = Broker(where)
    broker.start()
    try:
        options = dict(games.declaration(game).quick_options)
        async with two_tables(broker, where, game, 2, (0,), (1,), options, step_s=0.2) as tables:
            return await _confirms(tables, samples)
    finally:
        broker.stop()


async def _confirms(tables: Tables, samples: int) -> list[float]:
    session, ctl_a, ctl_b = tables.host.session, tables.host.sim_control, tables.joined.sim_control
    assert session.seating is not None and ctl_a is not None and ctl_b is not None
    seat = session.acting()[0]
    if seat != 0:
        raise RuntimeError(f"the game opens with seat {seat + 1} to play; the bench confirms at the host")
    await _lay(session, ctl_a, seat, _taken_at_first_confirm(session, seat, random.Random(1)))
    confirm = session.seating.button_of(seat, "confirm")
    done = len(session.journal.actions(session.game_id or 0))
    figures: list[float] = []
    for _ in range(samples):
        await asyncio.sleep(0.6)  # settled: acknowledgements faded at both tables
        figures.append(await confirm_to_frame(session, ctl_a, ctl_b, confirm, done))
    return figures


def run(args: argparse.Namespace) -> dict[str, Any]:
    if not shutil.which(MOSQUITTO) and not Path(MOSQUITTO).exists():
        raise SystemExit("botboard bench remote: mosquitto is missing (apt install mosquitto, or bash .ci/setup --test)")
    game = games.canonical(args.game or games.default_name())
    with tempfile.TemporaryDirectory() as tmp:
        figures = asyncio.run(_measure(game, args.samples, Path(tmp)))
    return {"game": game, "samples": args.samples, "broker": "mosquitto on loopback",
            "confirm_to_other_table_frame_ms_p50": _pct(figures, 0.5),
            "confirm_to_other_table_frame_ms_p99": _pct(figures, 0.99),
            "confirm_to_other_table_frame_ms_max": round(max(figures), 2),
            "target_ms_p99": 100, "note": "plus the network's round trip between the tables (0 here)"}
