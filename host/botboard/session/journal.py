"""The journal: every accepted action, in SQLite, committed before it is shown.

Tables (docs/journal.md):

* ``games``: id, game, players, options (JSON), seed, layout, started,
  finished, outcome (JSON), final_hash;
* ``actions``: game_id, n (0, 1, ...), action (notation), state_hash after
  it, at (UTC time), undone (0/1: taken back with undo, kept for the record);
* ``hints``: game_id, seat, action (what the hint proposed), state_hash it was
  asked in, at: hints a seat asked for, never moves (a replay ignores them).

A game is its engine name, players, options, seed and the actions not
undone: replaying them gives the same state (the engines are deterministic),
which is how a host killed at any moment resumes, and how ``botboard
replay`` checks a game. SQLite runs in WAL mode with synchronous=FULL so a
commit survives SIGKILL and power loss.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .. import games as game_registry
from ..private import private_file

JOURNAL_FILE = "botboard.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    layout TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    outcome TEXT,
    final_hash TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    action TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    at TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS game_packages (
    game TEXT PRIMARY KEY,
    package TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hints (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    at TEXT NOT NULL
);
"""


class JournalError(ValueError):
    pass


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    layout: str
    started: str
    finished: str | None
    outcome: dict[str, Any] | None
    final_hash: str | None

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


_TABLES = {"games", "actions"}
_KIND_WORDS = {str: "text", int: "a whole number"}


def _short(value: Any) -> str:
    """A value read from a file, cut to fit a line."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def journal_path(folder: Path | str) -> Path:
    """The journal a data directory uses: botboard.sqlite, or the newest botboard-N.sqlite
    started beside a damaged one (``botboard run --new-journal``)."""
    numbered = _numbered(Path(folder))
    return max(numbered)[1] if numbered else Path(folder) / JOURNAL_FILE


def new_journal_path(folder: Path | str) -> Path:
    """Where a new journal beside the data directory's current one goes."""
    numbered = _numbered(Path(folder))
    return Path(folder) / f"botboard-{max([1] + [n for n, _ in numbered]) + 1}.sqlite"


def _numbered(folder: Path) -> list[tuple[int, Path]]:
    stem = Path(JOURNAL_FILE).stem
    return [(int(p.stem[len(stem) + 1:]), p) for p in folder.glob(f"{stem}-*.sqlite")
            if p.stem[len(stem) + 1:].isdigit()]


def _connect(*args: Any, **kw: Any) -> sqlite3.Connection:
    """A connection whose text never fails to decode: a damaged byte becomes U+FFFD, and the
    value it spoils is then refused as that value (an action, JSON) with the journal named."""
    db = sqlite3.connect(*args, **kw)
    db.text_factory = lambda data: data.decode("utf-8", "replace")
    return db


def _check_existing(path: Path) -> None:
    """JournalError if the file is not a botboard journal; looked at read-only."""
    if not path.exists() or path.stat().st_size == 0:
        return
    what_to_do = ("it is left untouched: move it away, give another --data-dir, or start a new "
                  "journal beside it with `botboard run --new-journal`")
    try:
        probe = _connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = {row[0] for row in probe.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            verdict = probe.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            probe.close()
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:  # SQLite's words may quote damaged bytes
        raise JournalError(f"{path}: not a botboard journal, or damaged ({err}); {what_to_do}") from err
    if verdict != "ok":
        # SQLite lists every bad cell, a line each: the first says enough, on one line
        lines = [line for line in verdict.splitlines() if not line.startswith("***")] or [verdict]
        more = f" and {len(lines) - 1} more" if len(lines) > 1 else ""
        raise JournalError(f"{path}: damaged (SQLite's check says: {lines[0]}{more}); {what_to_do}")
    if tables and not _TABLES <= tables:
        raise JournalError(f"{path}: another program's database (its tables: "
                           f"{', '.join(sorted(tables))}), not a botboard journal; {what_to_do}")
    if tables:
        try:
            _check_columns(path, what_to_do)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as err:  # a schema whose text itself is damaged
            raise JournalError(f"{path}: not a botboard journal, or damaged ({err}); {what_to_do}") from err


def _columns(db: sqlite3.Connection) -> dict[str, set[str]]:
    return {table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")} for table in _TABLES}


def _check_columns(path: Path, what_to_do: str) -> None:
    """Every column this version reads is there (a journal of another version, or an edited one)."""
    expected = sqlite3.connect(":memory:")
    expected.executescript(_SCHEMA)
    probe = _connect(f"file:{path}?mode=ro", uri=True)
    try:
        missing = [f"{table}.{column}" for table, columns in _columns(expected).items()
                   for column in sorted(columns - _columns(probe)[table])]
    finally:
        probe.close()
        expected.close()
    if missing:
        raise JournalError(f"{path}: a journal without the column(s) {', '.join(missing)} (another "
                           f"version of botboard, or edited by hand); {what_to_do}")


class Journal:
    def __init__(self, path: Path | str, read_only: bool = False) -> None:
        """``read_only``: for looking back (a review beside a live table): SQLite itself refuses
        any write, so the live game's rows cannot change."""
        self.path = Path(path)
        if read_only:
            _check_existing(self.path)
            self.db = _connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None,
                                check_same_thread=False)
            return
        _check_existing(self.path)
        private_file(self.path)  # every seat's hand and the seeds that deal them
        self.db = _connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)

    @classmethod
    def in_dir(cls, data_dir: Path | str) -> "Journal":
        return cls(journal_path(data_dir))

    def close(self) -> None:
        self.db.close()

    # -- writing --------------------------------------------------------------
    def create_game(self, game: str, players: int, options: dict[str, Any], seed: int,
                    layout: str) -> int:
        with self.db:
            cur = self.db.execute(
                "INSERT INTO games (game, players, options, seed, layout, started) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game, players, json.dumps(options, sort_keys=True), seed, layout, _now()))
            found = game_registry.registry.resolve(game)
            if found is not None and found.package:  # so a replay can name what to install
                self.db.execute("INSERT OR REPLACE INTO game_packages (game, package) VALUES (?, ?)",
                                (game, found.package))
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def append(self, game_id: int, action: str, state_hash: str,
               outcome: dict[str, Any] | None = None) -> int:
        """Commit one accepted action, and the game's end if it ended it (one transaction:
        a host killed between the two never leaves an ended game open); returns its number.
        Durable when this returns."""
        with self.db:
            row = self.db.execute("SELECT COALESCE(MAX(n), -1) + 1 FROM actions WHERE game_id=?",
                                  (game_id,)).fetchone()
            n = int(row[0])
            self.db.execute("INSERT INTO actions (game_id, n, action, state_hash, at) "
                            "VALUES (?, ?, ?, ?, ?)", (game_id, n, action, state_hash, _now()))
            if outcome is not None:
                self.db.execute("UPDATE games SET finished=?, outcome=?, final_hash=? WHERE id=?",
                                (_now(), json.dumps(outcome), state_hash, game_id))
        return n

    def undo_last(self, game_id: int) -> str | None:
        """Mark the last live action undone; its notation, or None if there is none."""
        with self.db:
            row = self.db.execute("SELECT n, action FROM actions WHERE game_id=? AND undone=0 "
                                  "ORDER BY n DESC LIMIT 1", (game_id,)).fetchone()
            if row is None:
                return None
            self.db.execute("UPDATE actions SET undone=1 WHERE game_id=? AND n=?", (game_id, row[0]))
            self.db.execute("UPDATE games SET finished=NULL, outcome=NULL, final_hash=NULL "
                            "WHERE id=?", (game_id,))
        return str(row[1])

    def add_hint(self, game_id: int, seat: int, action: str, state_hash: str) -> None:
        """Record a hint a seat was given (not a move: replays never read it)."""
        with self.db:
            self.db.execute("INSERT INTO hints (game_id, seat, action, state_hash, at) VALUES (?, ?, ?, ?, ?)",
                            (game_id, seat, action, state_hash, _now()))

    # -- reading --------------------------------------------------------------
    def game(self, game_id: int) -> GameRecord:
        if not -2**63 <= game_id < 2**63:  # beyond SQLite's integers: no such game
            raise JournalError(f"no game {str(game_id)[:20]} in {self.path} (`botboard games` lists them)")
        row = self.db.execute("SELECT id, game, players, options, seed, layout, started, finished, "
                              "outcome, final_hash FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no game {game_id} in {self.path} (`botboard games` lists them)")
        for field, value, kind in (("game", row[1], str), ("players", row[2], int), ("seed", row[4], int)):
            if not isinstance(value, kind):
                self._edited(game_id, f"{field} is {value!r}, not {_KIND_WORDS[kind]}")
        options = self._json(game_id, "options", row[3])
        outcome = self._json(game_id, "outcome", row[8]) if row[8] else None
        for field, value in (("options", options), ("outcome", outcome)):
            if value is not None and not isinstance(value, dict):
                self._edited(game_id, f"{field} are {_short(value)}, not a JSON object")
        return GameRecord(row[0], row[1], row[2], options, row[4], _cell(row[5]), _cell(row[6]), _cell(row[7]),
                          outcome, _cell(row[9]))

    def _json(self, game_id: int, field: str, text: Any) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError, RecursionError) as err:
            # Python's own words for a 5,000-digit number name a function, not the problem
            why = "a number too long to read" if "int_max_str_digits" in str(err) else \
                "nested too deep" if isinstance(err, RecursionError) else str(err)
            self._edited(game_id, f"{field} are not JSON ({why})", err)

    def _edited(self, game_id: int, what: str, cause: Exception | None = None) -> Any:
        raise JournalError(f"{self.path}: game {game_id}'s {what}: the journal was edited or damaged; "
                           "replay another game, or start a new journal beside it with "
                           "`botboard run --new-journal`") from cause

    def games(self) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT g.id, g.game, g.players, g.seed, g.started, g.finished, g.outcome, "
            "(SELECT COUNT(*) FROM actions a WHERE a.game_id=g.id AND a.undone=0) "
            "FROM games g ORDER BY g.id").fetchall()
        return [{"id": r[0], "game": _cell(r[1]), "players": _cell(r[2]), "seed": _cell(r[3]),
                 "started": _cell(r[4]), "finished": _cell(r[5]), "outcome": _outcome(r[6]), "actions": r[7]}
                for r in rows]

    def actions(self, game_id: int, include_undone: bool = False) -> list[dict[str, Any]]:
        sql = "SELECT n, action, state_hash, at, undone FROM actions WHERE game_id=?"
        if not include_undone:
            sql += " AND undone=0"
        rows = self.db.execute(sql + " ORDER BY n", (game_id,)).fetchall()
        return [{"n": _cell(r[0]), "action": _cell(r[1]), "state_hash": _cell(r[2]), "at": _cell(r[3]),
                 "undone": bool(r[4])} for r in rows]

    def hints(self, game_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT seat, action, state_hash, at FROM hints WHERE game_id=? "
                               "ORDER BY rowid", (game_id,)).fetchall()
        return [{"seat": _cell(r[0]), "action": _cell(r[1]), "state_hash": _cell(r[2]), "at": _cell(r[3])}
                for r in rows]

    def latest_unfinished(self, game: str) -> int | None:
        """The newest unfinished game of one engine (a journal may hold several engines' games)."""
        row = self.db.execute("SELECT id FROM games WHERE finished IS NULL AND game=? "
                              "ORDER BY id DESC LIMIT 1", (game,)).fetchone()
        return int(row[0]) if row else None

    def package_of(self, game: str) -> str | None:
        """The package the game came from when it was last set up here (None: not known)."""
        try:
            row = self.db.execute("SELECT package FROM game_packages WHERE game=?", (game,)).fetchone()
        except sqlite3.OperationalError:  # a journal older than the table, opened read-only
            return None
        return str(row[0]) if row else None

    def export(self, game_id: int) -> dict[str, Any]:
        """One JSON record: the game, every action (undone ones marked) and the final hash."""
        record = self.game(game_id).to_json()
        record["actions"] = self.actions(game_id, include_undone=True)
        return record


def _cell(value: Any) -> Any:
    """A value read back to be shown: SQLite lets an edited row hold bytes anywhere."""
    return f"(damaged: {len(value)} bytes)" if isinstance(value, bytes) else value


def _outcome(text: Any) -> Any:
    """A game's outcome for the list of games: a damaged one as its text (``game()`` says what
    is wrong with it when the game is looked at)."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return {"unreadable": str(text)[:40]}
    return value if isinstance(value, dict) else {"unreadable": _short(value)}


def replay(journal: Journal, game_id: int) -> tuple[Any, Any, list[str]]:
    """(engine, final state, live actions) of a journaled game, re-run from its seed.

    Checks every action's recorded state hash on the way: a mismatch means the
    engine changed since the game was played, and says at which action.
    """
    engine, state, done = None, None, []
    for engine, step in replay_steps(journal, game_id):
        state = step.state
        if step.action is not None:
            done.append(step.action)
    return engine, state, done


def _not_set_up(journal: Journal, game_id: int, game: str, err: Exception) -> str:
    if game_registry.registry.resolve(game) is not None:  # installed: the record asks what it cannot do
        return f"{journal.path}: game {game_id} cannot be set up again ({err}); replay another game"
    left_out = game_registry.registry.left_out(game)
    if left_out:
        return f"{journal.path}: game {game_id} is a game of {game!r}, which is installed but left out: {left_out}"
    package = journal.package_of(game)
    install = f"its package (`pip install {package}`)" if package else "the package that brings it"
    return (f"{journal.path}: game {game_id} is a game of {game!r}, which is not installed here: "
            f"install {install}, then replay it")


@dataclass(frozen=True)
class Step:
    """One step of a replayed game: the action that led to ``state`` (None: the start)."""

    n: int | None  # the action's number in the journal
    action: str | None
    events: list[Any]  # the engine's events of the action
    before: Any  # the state the action was taken in (None at the start)
    state: Any


def replay_steps(journal: Journal, game_id: int) -> Iterator[tuple[Any, Step]]:
    """(engine, step) for the start and then each live action of a journaled game, re-run from
    its seed and checked against every recorded state hash (JournalError says where it differs)."""
    record = journal.game(game_id)
    try:
        engine = game_registry.get(record.game)
        state = engine.new_game(record.players, record.options, record.seed)
    except game_registry.GameError as err:  # a game not installed here, or players it cannot seat
        raise JournalError(_not_set_up(journal, game_id, record.game, err)) from err
    yield engine, Step(None, None, [], None, state)
    rows = journal.actions(game_id, include_undone=True)
    gaps = sorted(set(range(len(rows))) - {row["n"] for row in rows})
    if gaps:
        raise JournalError(f"{journal.path}: game {game_id}'s action {gaps[0]} is missing (the journal was "
                           "edited or damaged): the game cannot be replayed past it")
    for row in (row for row in rows if not row["undone"]):
        try:
            after, events = engine.apply_str(state, row["action"])
        except Exception as err:  # whatever an engine raises for an action it cannot read
            raise JournalError(f"{journal.path}: game {game_id}, action {row['n']} ({row['action']!r}) "
                               f"cannot be applied ({err}): the journal was edited or damaged") from err
        found = engine.state_hash(after)
        if found != row["state_hash"]:
            raise JournalError(f"game {game_id}, action {row['n']} ({row['action']}): state hash "
                               f"{found} differs from the journal's {row['state_hash']} (was the "
                               "engine changed since?)")
        yield engine, Step(row["n"], row["action"], list(events), state, after)
        state = after
