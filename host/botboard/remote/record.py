"""A table's record of a room's entries, in SQLite beside its journal (DATA_DIR/room.sqlite).

The host keeps every entry it sequenced (with every private part and the proposal it
came from, so a restarted host still applies each proposal once) and answers catch-up
from it; a joined table keeps the entries it applied, so a restarted table draws the
game again before it asks for what it missed. ``meta`` says which room, epoch and
journal game the entries belong to.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Sequence

from ..private import private_file
from .protocol import Entry
from .sequencer import HostEntry

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    epoch TEXT NOT NULL, n INTEGER NOT NULL, tbl TEXT NOT NULL, seat INTEGER,
    public TEXT NOT NULL, private TEXT NOT NULL, run TEXT, counter INTEGER,
    PRIMARY KEY (epoch, n));
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


class RoomRecordError(ValueError):
    """The room's record cannot be read: says which file and what to do."""


class EntryStore:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if self.path.exists() and self.path.stat().st_size:
            self._check()
        self.db = sqlite3.connect(private_file(self.path), isolation_level=None)  # it holds seats' hands
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL: an entry survives the daemon's crash, and a sync per entry (7 ms under load)
            # would hold every LED change back; the game's record that must survive power loss
            # is the journal (synchronous=FULL)
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as err:  # a header the read-only look let pass
            self.db.close()
            raise RoomRecordError(f"{self.path}: not a room's record, or damaged ({err}); move it "
                                  "away (the room's game then starts again at this table)") from err

    def _check(self) -> None:
        """RoomRecordError unless the file is a room's record whose every JSON value reads,
        looked at read-only: a damaged one is said at the start, and left as it is."""
        try:
            probe = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                tables = {row[0] for row in probe.execute("SELECT name FROM sqlite_master WHERE type='table'")}
                if tables and not {"meta", "entries"} <= tables:
                    raise ValueError(f"another program's database, its tables: {', '.join(sorted(tables))}")
                for row in probe.execute("SELECT value FROM meta UNION ALL SELECT public FROM entries "
                                         "UNION ALL SELECT private FROM entries") if tables else ():
                    json.loads(row[0])
            finally:
                probe.close()
        except (sqlite3.DatabaseError, ValueError, TypeError, RecursionError) as err:
            why = "a number too long to read" if "int_max_str_digits" in str(err) else \
                "a value nested too deep to read" if isinstance(err, RecursionError) else str(err)
            raise RoomRecordError(f"{self.path}: not a room's record, or damaged ({why}); move it "
                                  "away (the room's game then starts again at this table)") from err

    def close(self) -> None:
        self.db.close()

    # -- the host's EntryRecord ----------------------------------------------------------
    def add(self, epoch: str, entry: HostEntry) -> None:
        self.db.execute("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (epoch, entry.n, entry.table, entry.seat, json.dumps(entry.public),
                         json.dumps(dict(entry.private)), entry.run, entry.counter))

    def fetch(self, epoch: str, first: int, last: int) -> Sequence[HostEntry]:
        rows = self.db.execute("SELECT n, tbl, seat, public, private, run, counter FROM entries "
                               "WHERE epoch = ? AND n BETWEEN ? AND ? ORDER BY n", (epoch, first, last))
        return [HostEntry(n, tbl, seat, json.loads(pub), json.loads(priv), run, counter)
                for n, tbl, seat, pub, priv, run, counter in rows]

    # -- a joined table's entries ------------------------------------------------------------
    def add_seen(self, entry: Entry) -> None:
        """An entry this table applied (its own private part only)."""
        self.db.execute("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (entry.epoch, entry.n, entry.table, entry.seat, json.dumps(entry.public),
                         json.dumps(entry.private), None, None))

    def seen(self, epoch: str) -> list[Entry]:
        rows = self.db.execute("SELECT n, tbl, seat, public, private FROM entries WHERE epoch = ? "
                               "ORDER BY n", (epoch,))
        return [Entry(epoch=epoch, n=n, table=tbl, public=json.loads(pub), seat=seat,
                      private=json.loads(priv)) for n, tbl, seat, pub, priv in rows]

    # -- which room and game --------------------------------------------------------------
    def last_n(self, epoch: str) -> int:
        row = self.db.execute("SELECT MAX(n) FROM entries WHERE epoch = ?", (epoch,)).fetchone()
        return int(row[0] or 0)

    def meta(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta")}

    def set_meta(self, **values: Any) -> None:
        for key, value in values.items():
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))
