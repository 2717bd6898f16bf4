"""A truncated, corrupt or foreign journal: one line naming it, exit 2, the file untouched,
and a new journal beside it when asked for."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from botboard.cli.run import _usable_journal
from botboard.session.journal import JOURNAL_FILE, Journal, JournalError

from ..simboard import BOTBOARD


def _truncated(path: Path) -> None:
    journal = Journal(path)
    gid = journal.create_game("twin-tin-bots", 2, {}, 1, "ttb-small")
    journal.append(gid, "A1=F1 + B1=L", "abc")
    journal.close()
    for extra in ("-wal", "-shm"):
        Path(str(path) + extra).unlink(missing_ok=True)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


def _random(path: Path) -> None:
    path.write_bytes(os.urandom(6000))


def _foreign(path: Path) -> None:
    db = sqlite3.connect(str(path))
    db.execute("CREATE TABLE photos (name TEXT, taken TEXT)")
    db.execute("INSERT INTO photos VALUES ('table.jpg', 'today')")
    db.commit()
    db.close()


@pytest.mark.parametrize("spoil,words", [(_truncated, "damaged"), (_random, "not a botboard journal"),
                                         (_foreign, "another program's database (its tables: photos)")])
def test_games_replay_and_run_name_the_file_and_leave_it_untouched(tmp_path: Path, spoil, words) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / JOURNAL_FILE
    spoil(path)
    before = path.read_bytes()
    for args in (["games"], ["replay", "1"], ["run", "--port", "/dev/null"]):
        done = subprocess.run([BOTBOARD, *args, "--data-dir", str(tmp_path)], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert done.returncode == 2, (args, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and words in lines[0], (args, done.stderr)
        assert "Traceback" not in done.stderr and "--new-journal" in lines[0]
        assert path.read_bytes() == before  # left untouched


def test_a_new_journal_beside_a_damaged_one_is_used_from_then_on(tmp_path: Path) -> None:
    damaged = tmp_path / JOURNAL_FILE
    _random(damaged)
    before = damaged.read_bytes()
    with pytest.raises(JournalError):
        Journal.in_dir(tmp_path)
    _usable_journal(str(tmp_path), new=True)  # what `botboard run --new-journal` does first
    journal = Journal.in_dir(tmp_path)
    assert journal.path == tmp_path / "botboard-2.sqlite"
    journal.create_game("volt", 3, {}, 2, "volt")
    journal.close()
    listed = subprocess.run([BOTBOARD, "games", "--data-dir", str(tmp_path)], capture_output=True,
                            text=True, timeout=60)
    assert listed.returncode == 0 and "volt" in listed.stdout
    assert damaged.read_bytes() == before
