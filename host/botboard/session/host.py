"""Glue between the session and the daemon's board connection.

``ConnBoard`` adapts a ``BoardConnection`` to what the session draws on;
``attach`` builds the session a daemon owns: journal and tile registry in
the data directory, resume the latest unfinished game or start one.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable

from bbshared import messages as m

from ..board.layouts import Layout
from ..resources import DEFAULT_DATA_DIR
from ..link.connection import BoardConnection
from ..link.image import CellState
from .. import games
from ..games.base import GameError
from .journal import Journal, JournalError, journal_path
from .session import GameSession, SessionError

log = logging.getLogger("botboard.session")


class ConnBoard:
    def __init__(self, conn: BoardConnection) -> None:
        self.conn = conn
        self.priority: list[int] = []

    def set_cells(self, changes: dict[int, CellState]) -> None:
        self.conn.set_cells(changes)

    def set_priority(self, slots: list[int]) -> None:
        """The board scans these slots (the active station) first; sent again on reconnect."""
        self.priority = list(slots)
        if self.conn.state in ("connected", "handshake"):  # HELLO arrives in the handshake
            self.conn.send(m.SET_PRIORITY, bytes(self.priority))

    def set_palette(self, rgb: list[tuple[int, int, int]]) -> None:
        if self.conn.image is not None:
            self.conn.image.palette = list(rgb)  # every resync sends it
        if self.conn.state == "connected":
            self.conn.send(m.SET_PALETTE, 0, bytes(v for colour in rgb for v in colour))


def data_dir(path: str | Path | None) -> Path:
    """The folder given, else the settings file's data_dir (a service's journal is found by
    `botboard games` too), else the default (resources.DEFAULT_DATA_DIR)."""
    if path:
        return Path(path)
    from ..settings import configured_data_dir

    return Path(configured_data_dir() or DEFAULT_DATA_DIR)


def open_journal(path: str | Path | None) -> Journal:
    """The journal already in the data directory, to look back at: read-only, so a journal of
    another version or a damaged one is never changed by reading it; JournalError if there is none."""
    folder = data_dir(path)
    if not journal_path(folder).exists():
        raise JournalError(f"no journal in {folder} (give --data-dir)")
    return Journal(journal_path(folder), read_only=True)


def make_session(layout: Layout, conn: BoardConnection, where: str | Path | None,
                 publish: Callable[[dict[str, Any]], None] | None = None,
                 step_s: float | None = None, game: str | None = None,
                 palette: str = "standard") -> GameSession:
    folder = data_dir(where)
    game = game or games.default_name()
    registry = games.table(game).load_registry(folder)
    session = GameSession(layout, Journal.in_dir(folder), ConnBoard(conn), registry,
                          publish=publish, step_s=step_s, game=game, palette=palette)
    conn.listeners.append(session.on_message)
    conn.state_listeners.append(session.on_link_state)
    return session


def attach(daemon: Any, where: str | Path | None, players: int | None = None,
           options: dict[str, Any] | None = None, seed: int = 0,
           step_s: float | None = None, game: str | None = None,
           palette: str = "standard", fresh: bool = False) -> GameSession:
    """Give ``daemon`` its session: resume the latest unfinished game (unless ``fresh``), else
    start one; ``daemon.resumed`` is the game resumed, or None."""
    assert daemon.conn is not None, "start the board first"
    session = make_session(daemon.layout, daemon.conn, where, daemon.publish, step_s, game, palette)
    daemon.session = session
    try:
        if not fresh and session.resume():
            daemon.resumed = session.game_id
        elif players:
            session.new_game(players, options or {}, seed)
    except (SessionError, JournalError, GameError) as err:  # the daemon still runs: say why
        log.warning("game session: %s", err)
        session.say(f"could not resume or start the game: {err}")
    return session
