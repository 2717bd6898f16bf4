"""The journal (SQLite) damaged in its values and its schema, derived from its own schema
(journal._SCHEMA): any column of any row set to a value of another kind, a table or column
gone, another program's tables, damaged bytes. `games`, `games --export` and `replay` read
it: status 0 or 2, one line naming the journal, the file left as it was."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from botboard.session.journal import _SCHEMA, JOURNAL_FILE, Journal

from .cli import held, run
from .damage import FUZZ, HUGE_NUMBER, NASTY, damaged_bytes, dumps

COLUMNS = {table: re.findall(r"^\s+(\w+) (?:INTEGER|TEXT)", body, re.M)
           for table, body in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\n\);", _SCHEMA, re.S)}

# what a SQLite cell can hold: every storage class, and JSON text of any shape
CELL = st.one_of(st.none(), st.integers(-2**63, 2**63 - 1), st.floats(allow_nan=False), st.binary(max_size=20),
                 st.text(max_size=20), NASTY.map(lambda v: dumps(v) if v != HUGE_NUMBER else "9" * 5000),
                 st.sampled_from(["chess", "twin-tin-bots", "[1,2]", "{}", "pass", "A1=F1 + B1=L"]),
                 ).map(lambda v: v.encode("utf-8", "replace").decode() if isinstance(v, str) else v)  # SQLite text is UTF-8


def _good(path: Path) -> None:
    journal = Journal(path)
    gid = journal.create_game("botwars", 2, {"max_turns": 2}, 1, "botwars")
    journal.append(gid, "pass", "x")
    journal.add_hint(gid, 0, "pass", "x")
    journal.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")  # one file: its bytes are all there is to compare
    db.close()


def _read_all(folder: Path, path: Path) -> None:
    before = path.read_bytes()
    for argv in (["games"], ["games", "--json"], ["games", "--export", "1"], ["replay", "1"], ["replay", "1", "--json"]):
        held(run([*argv, "--data-dir", str(folder)]), str(path))
        assert path.read_bytes() == before, argv


SCHEMA_DAMAGE = st.sampled_from(
    [f"ALTER TABLE {t} DROP COLUMN {c}" for t, cols in COLUMNS.items() for c in cols if c not in ("id", "game_id", "n")]
    + [f"DROP TABLE {t}" for t in COLUMNS] + [f"ALTER TABLE {t} RENAME TO old_{t}" for t in COLUMNS]
    + ["CREATE TABLE photos (name TEXT)", "DELETE FROM games", "DELETE FROM actions", "PRAGMA user_version = 99",
       "CREATE VIEW v AS SELECT * FROM games", "ALTER TABLE games ADD COLUMN extra BLOB"])


def _fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A new folder with a good journal in it: (folder, the journal's path)."""
    folder = tmp_path_factory.mktemp("journal")
    _good(folder / JOURNAL_FILE)
    return folder, folder / JOURNAL_FILE


@FUZZ
@given(data=st.data())
def test_any_value_in_any_column_is_one_line(data: st.DataObject, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    folder, path = _fresh(tmp_path_factory)
    db = sqlite3.connect(path)
    for _ in range(data.draw(st.integers(1, 3))):
        table = data.draw(st.sampled_from(sorted(COLUMNS)))
        column = data.draw(st.sampled_from(COLUMNS[table]))
        try:
            db.execute(f"UPDATE {table} SET {column} = ?", (data.draw(CELL),))
            db.commit()
        except sqlite3.IntegrityError:  # NOT NULL, a key twice: SQLite itself refuses it
            pass
    db.close()
    _read_all(folder, path)


@FUZZ
@given(damage=st.lists(SCHEMA_DAMAGE, min_size=1, max_size=2))
def test_a_schema_of_another_version_is_one_line(damage: list[str], tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    folder, path = _fresh(tmp_path_factory)
    db = sqlite3.connect(path)
    for sql in damage:
        try:
            db.execute(sql)
        except sqlite3.OperationalError:  # a column already dropped with its table
            pass
    db.commit()
    db.close()
    _read_all(folder, path)


@FUZZ
@given(data=st.data())
def test_damaged_bytes_are_one_line(data: st.DataObject, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    folder, path = _fresh(tmp_path_factory)
    path.write_bytes(data.draw(damaged_bytes(path.read_bytes())))
    _read_all(folder, path)


# the cases issue 41 found by hand, always tried (the fuzzer may or may not draw them again)
SEEDS = ["UPDATE games SET options = '[1,2]'", "UPDATE games SET players = 0", "UPDATE games SET game = 'chess'",
         "UPDATE games SET options = '{\"max_turns\": " + "9" * 5000 + "}'", "UPDATE games SET seed = x'00ff'",
         "UPDATE games SET outcome = '[\"won\"]', finished = 'now'", "UPDATE actions SET n = 7",
         "UPDATE games SET options = 'NaN'", "UPDATE games SET options = '" + "[" * 50_000 + "]" * 50_000 + "'"]


@pytest.mark.parametrize("sql", SEEDS, ids=range(len(SEEDS)))
def test_the_cases_found_by_hand_are_one_line(sql: str, tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    _good(path)
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()
    _read_all(tmp_path, path)
