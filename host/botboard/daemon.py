"""The host daemon: one board connection, one game slot, the console.

It owns the asyncio loop: the board connection (with reconnects), the web
console (uvicorn) and, with no board attached, the simulated board.
Everything the console shows comes from here through ``status()`` and the
``subscribe`` queue of live messages.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import secrets
import socket
import time
from dataclasses import dataclass
from typing import Any, Callable

from . import games
from .board import layouts
from .board.tools import BoardTools
from .link.connection import BoardConnection, Message
from .link.image import BoardImage
from .session.mapping import TableError
from .board.sim import SimBoard
from .board.sim_control import SimControl
from .session.palette import PaletteError, check_variant

log = logging.getLogger("botboard.daemon")

DEFAULT_CONSOLE_PORT = 8700


@dataclass
class DaemonConfig:
    port: str | None = None  # None: a real board if one is plugged in, else the simulated one
    layout: str | None = None  # None: the game's own layout (ttb-small, botwars...)
    game: str | None = None  # None: the flagship game (games.default_name())
    listen: str = "127.0.0.1"
    console_port: int = DEFAULT_CONSOLE_PORT
    token: str | None = None
    sim_baud: int | None = None
    data_dir: str | None = None  # the journal and tile registry (default: the settings file's data_dir, else var/; docs/journal.md)
    players: int | None = None  # start a game if none of this game is unfinished
    seed: int = 0
    options: dict[str, Any] | None = None
    step_s: float | None = None  # animation seconds per step
    computers: dict[int, str] | None = None  # seat -> level of the seats the computer plays
    think_s: float = 2.0  # the computer's thinking time a move
    palette: str = "standard"  # the LED palette variant (session/palette.py VARIANTS)
    remote: str | None = None  # a room, mqtt://[user:password@]HOST[:PORT]/ROOM[#KEY.HOST] (remote play)
    room_key: str | None = None  # a passphrase: refused (remote/table_keys.py), give the room's link
    seats: tuple[int, ...] = ()  # the seats this table plays in the room (from 0)
    table: str | None = None  # this table's name in the room (default: the computer's name)
    spectate: bool = False  # watch the room's game: public information only
    hints: bool = True  # seats may ask their phone for a hint
    hint_s: float = 2.0  # a hint's thinking time
    explain: bool = True  # phones explain a kind of tile the first time a seat lays it
    faults: tuple[str, ...] = ()  # wiring faults of the simulated board (board/sim_faults.py)
    bringup: str | None = None  # a new board's first hour instead of a game; the layout's path
    fresh: bool = False  # start a new game even when one is unfinished (it stays in the journal)


class ConfigError(ValueError):
    pass


def is_loopback(host: str) -> bool:
    """An address (or localhost) of this machine only; names are not guessed by prefix."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def reachable_host(listen: str) -> str:
    """The address a phone on the same network can open: the listen address, or this
    machine's LAN address when listening on every interface."""
    try:
        wildcard = ipaddress.ip_address(listen).is_unspecified
    except ValueError:
        return listen
    if not wildcard:
        return f"[{listen}]" if ":" in listen else listen
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: it only picks the outgoing interface
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


def check_listen(listen: str, token: str | None) -> str | None:
    """The token to require, or None on loopback; refuse an open console."""
    if token == "auto":
        return secrets.token_urlsafe(16)
    if is_loopback(listen):
        return token
    if not token:
        raise ConfigError(f"--listen {listen} would open the console to the network: give "
                          "--token TOKEN (or --token auto for a random one), or listen on 127.0.0.1")
    return token


def table_game(name: str | None) -> tuple[str, Any]:
    """(registry name, table mapping class) of a game that plays at the table (None: the default
    game); ConfigError if none."""
    try:
        name = name or games.default_name()
        return games.canonical(name), games.table(name)
    except games.GameError as err:
        raise ConfigError(f"--game {name}: {err}") from err


def check_new_game(game: str, players: int, options: dict[str, Any] | None, layout: layouts.Layout) -> None:
    """Refuse at start, with what is possible, a game the table could not begin."""
    info = games.get(game).info
    if not info.min_players <= players <= info.max_players:
        raise ConfigError(f"--players {players}: {info.title} takes {info.min_players} to "
                          f"{info.max_players} players")
    try:
        state = games.get(game).new_game(players, options or {}, 0)
    except games.GameError as err:
        raise ConfigError(f"{info.title}: {err}") from err
    try:  # the game's own mapping says whether its seats fit this board (Goblins' partners share a yard)
        games.table(game)().seat_stations(layout, state)
    except TableError as err:
        raise ConfigError(f"--players {players}: {err}; give a bigger --layout or fewer players") from err


BOARD_DEVICE = "/dev/botboard"  # the name the udev rule of `botboard service install` gives the board


def find_board_port() -> str | None:
    """The board named by the udev rule, else a plugged-in Pico (Raspberry Pi's USB vendor id)."""
    from serial.tools import list_ports

    if os.path.exists(BOARD_DEVICE):
        return BOARD_DEVICE
    for port in list_ports.comports():
        if port.vid == 0x2E8A:
            return str(port.device)
    return None


def default_table_name() -> str:
    """This computer's name, as a room's table id may spell it."""
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in socket.gethostname())[:64]
    return name or "table"


def remote_role(config: DaemonConfig) -> tuple[Any, str | None]:
    """(the room's address, this table's part in it: host, join, spectate) or (None, None);
    ConfigError when the flags do not say a part that can be played."""
    if not config.remote:
        if config.seats or config.spectate:
            raise ConfigError("--seat and --spectate are for remote play: give --remote mqtt://HOST/ROOM")
        return None, None
    from .remote.url import RemoteUrlError, parse_remote_url

    try:
        url = parse_remote_url(config.remote)
    except RemoteUrlError as err:
        raise ConfigError(f"--remote: {err}") from err
    if config.spectate:
        return url, "spectate"
    if config.players is not None:  # the table that says the game hosts it
        local = set(config.seats) | set(config.computers or {})
        if not local:
            raise ConfigError("--remote: say which seats this table plays with --seat N (once per "
                              "seat; a computer's seat counts); the other seats are for the tables "
                              "that join")
        if max(local) >= config.players:
            raise ConfigError(f"--seat {max(local) + 1}: a {config.players}-player game has seats "
                              f"1 to {config.players}")
        return url, "host"
    if not config.seats:
        raise ConfigError("--remote: say which seats this table plays with --seat N (once per seat); "
                          "the table that gives --players hosts the game, the others join it")
    return url, "join"


def console_server(stopping: asyncio.Event, config: Any) -> Any:
    """The console's uvicorn server (imported here: starting a command stays quick)."""
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn's server that, as its shutdown begins (a signal, or the daemon's stop), sets
        ``stopping``: the console's and phones' websockets then close at once, where the server
        would wait for them and cancel them with an ERROR line."""

        def __init__(self, stopping: asyncio.Event, config: Any) -> None:
            super().__init__(config)
            self.stopping = stopping

        async def shutdown(self, sockets: Any = None) -> None:
            self.stopping.set()
            await asyncio.sleep(0)  # the pages' handlers run their close before connections are cut
            await super().shutdown(sockets)

    return Server(stopping, config)


class Daemon:
    def __init__(self, config: DaemonConfig) -> None:
        self.config = config
        self.token = check_listen(config.listen, config.token)
        self.game_name, mapping = table_game(config.game)
        try:
            check_variant(config.palette)
        except PaletteError as err:
            raise ConfigError(f"--palette: {err}") from err
        self.layout_id: str = config.layout or mapping.default_layout(config.players or 2)
        config.layout = self.layout_id
        self.layout = layouts.load(self.layout_id)
        if config.faults:  # checked before anything starts: a wrong one is one line
            from .board.sim_faults import parse

            if config.port:
                raise ConfigError("--fault wires the simulated board; the board on --port has "
                                  "only its own faults (botboard bringup finds them)")
            parse(list(config.faults), self.layout)
        if config.players is not None:
            check_new_game(self.game_name, config.players, config.options, self.layout)
        for seat in config.computers or {}:
            if config.players is not None and seat >= config.players:
                raise ConfigError(f"--computer {seat + 1}: a {config.players}-player game has seats "
                                  f"1 to {config.players}")
        self.remote_url, self.remote_role = remote_role(config)
        if self.remote_url is not None:
            self.remote_url = self._keyed(self.remote_url)
        self.remote: Any = None  # the room's HostTable or JoinedTable, in remote play
        self.sim: SimBoard | None = None
        self.conn: BoardConnection | None = None
        self.sim_control: SimControl | None = None  # set when the board is the simulated one
        self.session: Any = None  # the game session (botboard.session), when one runs
        self.resumed: int | None = None  # the unfinished game that resumed at start, if one did
        self.bringup: Any = None  # botboard bringup's flow (bringup/flow.py), instead of a game
        self.tools = BoardTools(self)  # maker tools and the mirror of what the board shows
        self._subscribers: set[asyncio.Queue[dict[str, Any]]] = set()
        self.stopping = asyncio.Event()  # set as a stop begins: the console's websockets close at once

    @property
    def console_url(self) -> str:
        """The address to open: on every interface, this machine's LAN address (a tablet or
        phone cannot open 0.0.0.0)."""
        url = f"http://{reachable_host(self.config.listen)}:{self.config.console_port}/"
        return f"{url}?token={self.token}" if self.token else url

    def start_board(self) -> str:
        port = self.config.port or find_board_port()
        if port is None:
            self.sim = SimBoard(self.layout_id, baud=self.config.sim_baud, faults=list(self.config.faults))
            self.sim.start()
            port = self.sim.port
            self.sim_control = SimControl("127.0.0.1", self.sim.control_port)
            log.info("no board attached: simulated board on %s", port)
        image = BoardImage.blank(len(self.layout.cells))
        self.conn = BoardConnection(port, image, layout=self.layout.id)
        self.conn.listeners.append(self._on_board_message)
        self.conn.listeners.append(self.tools.on_message)
        if self.config.bringup:  # the board's first hour: no game touches its LEDs meanwhile
            from pathlib import Path

            from .bringup.flow import Bringup

            self.bringup = Bringup(self, Path(self.config.bringup))
            self.conn.listeners.append(self.bringup.on_message)
        else:
            self._attach_session()
        return port

    def _attach_session(self) -> None:
        """The game session (botboard.session) owns the game slot; a table that joins a room
        has the host's game instead (botboard.remote)."""
        from .session.host import attach

        cfg = self.config
        if self.remote_role in ("join", "spectate"):
            self._join_room()
            return
        session = attach(self, cfg.data_dir, cfg.players, cfg.options, cfg.seed, cfg.step_s, self.game_name,
                         cfg.palette, cfg.fresh)
        session.set_computers(cfg.computers or {}, cfg.think_s)
        session.hints.allowed, session.hints.budget_s = cfg.hints, cfg.hint_s
        session.first_times.on = cfg.explain
        if self.remote_role == "host":
            from .remote.host_table import HostTable

            local = set(cfg.seats) | set(cfg.computers or {})  # the computer plays here
            self.remote = HostTable(session, self.remote_url, self.table_name, local, self._room_store(),
                                    keys=self._room_identity())

    def _join_room(self) -> None:
        from .remote.joined_table import JoinedTable
        from .session.host import ConnBoard

        assert self.conn is not None
        cfg = self.config
        self.remote = JoinedTable(self.conn, ConnBoard(self.conn), self.layout, self.game_name, self.remote_url,
                                  self.table_name, set(cfg.seats), self._room_store(), self.publish,
                                  spectator=self.remote_role == "spectate", keys=self._room_identity())
        self.session = self.remote.game

    def _keyed(self, url: Any) -> Any:
        """The room's address with its key and its host's fingerprint; this table's keys file
        (remote/table_keys.py)."""
        from .remote.table_keys import RoomKeyError, TableKeys, host_link, with_room_key
        from .session.host import data_dir

        try:
            url = with_room_key(url, self.config.room_key, self.remote_role == "host",
                                data_dir(self.config.data_dir))
            self._room_keys = TableKeys.load(data_dir(self.config.data_dir) / f"room-{url.room}.keys")
            return host_link(url, self._room_keys) if self.remote_role == "host" else url
        except RoomKeyError as err:
            raise ConfigError(str(err)) from err

    def _room_identity(self) -> Any:
        """This table's keys file (loaded with the room's address)."""
        return self._room_keys

    def _room_store(self) -> Any:
        from .remote.record import EntryStore, RoomRecordError
        from .session.host import data_dir

        try:
            return EntryStore(data_dir(self.config.data_dir) / f"room-{self.remote_url.room}.sqlite")
        except RoomRecordError as err:
            raise ConfigError(str(err)) from err

    @property
    def table_name(self) -> str:
        return self.config.table or default_table_name()

    def _on_board_message(self, msg: Message) -> None:
        self.publish({"kind": "trace", "message": msg.to_json()})

    # -- live updates for the console ----------------------------------------
    def subscribe(self) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1000)
        self._subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self._subscribers.discard(queue)

    def publish(self, event: dict[str, Any]) -> None:
        if event.get("kind") == "game" and event.get("event") == "view":
            # when it was made: a console keeps the newest of a push and a reply that crossed it
            event = {**event, "at": time.monotonic_ns()}
        for queue in list(self._subscribers):
            if queue.full():
                queue.get_nowait()  # a slow console loses old lines, never blocks the board
            queue.put_nowait(event)

    def status(self) -> dict[str, Any]:
        conn = self.conn
        return {
            "link": conn.status() if conn else {"state": "closed", "connected": False},
            "layout": self.layout.id,
            "simulated": self.sim is not None,
            "game": {"name": self.game_name, "known": self.game_name in games.names()},
        }

    # -- running ----------------------------------------------------------------
    async def start(self, console: Callable[["Daemon"], Any]) -> asyncio.Task[None]:
        """``run`` as a task, returned once the console is up (or the run ended: its error is raised)."""
        ready = asyncio.Event()
        task = asyncio.create_task(self.run(console, ready))
        await asyncio.wait({task, asyncio.create_task(ready.wait())}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()
        return task

    async def run(self, console: Callable[["Daemon"], Any], ready: asyncio.Event | None = None) -> None:
        """Board link, mirror and ``console(self)`` (an ASGI app, served by uvicorn) until one ends."""
        import uvicorn

        self.check_console_port()
        self.start_board()
        assert self.conn is not None
        server = console_server(self.stopping, uvicorn.Config(
            console(self), host=self.config.listen, port=self.config.console_port,
            log_level="warning", lifespan="off",
            log_config=None,  # its records go through botboard's own handler: one line, a traceback to the error log
            timeout_graceful_shutdown=1))  # an open console or phone must not hold a stop up
        link_task = asyncio.create_task(self.conn.run())
        if self.remote is not None:
            await self.remote.start()
        mirror_task = asyncio.create_task(self.tools.mirror_loop())
        serve_task = asyncio.create_task(server.serve())
        while not server.started and not serve_task.done():
            await asyncio.sleep(0.05)
        if server.started and not self.config.console_port:  # --console-port 0: the port it got
            self.config.console_port = server.servers[0].sockets[0].getsockname()[1]
        if serve_task.done():
            link_task.cancel()
            mirror_task.cancel()
            serve_task.result()
            raise ConfigError(f"the console could not listen on {self.config.listen}:"
                              f"{self.config.console_port} (in use? try --console-port)")
        if ready:
            ready.set()
        try:
            await asyncio.wait({link_task, serve_task}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self.stopping.set()
            if self.remote is not None:
                await self.remote.close()
            link_task.cancel()
            mirror_task.cancel()
            server.should_exit = True
            await asyncio.gather(serve_task, return_exceptions=True)
            self.stop()

    def check_console_port(self) -> None:
        """ConfigError, in one line, when the console's port is taken (another `botboard run`?),
        before the board starts: the server's own bind error is two logged errors."""
        listen, port = self.config.listen, self.config.console_port
        if not port:
            return
        try:
            family = socket.getaddrinfo(listen, port, type=socket.SOCK_STREAM)[0][0]
        except socket.gaierror:
            return  # the server names an address it cannot resolve
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
            try:
                probe.bind((listen.strip("[]"), port))
            except OSError as err:
                raise ConfigError(f"the console cannot listen on {listen}:{port}: "
                                  f"{err.strerror or err} (another botboard run?); stop that one, "
                                  "or give another --console-port") from None

    def stop(self) -> None:
        if self.conn:
            self.conn.close()
        if self.sim_control:
            self.sim_control.close()
        if self.sim:
            self.sim.stop()
            self.sim = None
