"""A host's room files damaged on disk are one line naming the file, exit 2, the file left as
it was; a broker that refuses, or that says nothing, is a WARNING on the terminal within 4 s
(link.SILENT_S), while the table goes on trying."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
from pathlib import Path
from typing import Callable

import pytest

from botboard.remote.link import SILENT_S
from botboard.remote.local_broker import free_port

from ..patience import scaled, wait_for
from ..simboard import BOTBOARD


def _host(data: Path, port: int, *, wait: bool = True) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "BOTBOARD_CONFIG"}
    env.update(XDG_CONFIG_HOME=str(data), XDG_STATE_HOME=str(data / "state"))
    return subprocess.Popen([BOTBOARD, "run", "--data-dir", str(data), "--console-port", "0", "--players", "2",
                             "--seat", "1", "--remote", f"mqtt://127.0.0.1:{port}/club"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            stdin=subprocess.DEVNULL)


def _record(sql: str) -> Callable[[Path], None]:
    def spoil(data: Path) -> None:
        db = sqlite3.connect(data / "room-club.sqlite")
        db.executescript("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                         "CREATE TABLE entries (epoch TEXT NOT NULL, n INTEGER NOT NULL, tbl TEXT NOT NULL, "
                         "seat INTEGER, public TEXT NOT NULL, private TEXT NOT NULL, run TEXT, counter INTEGER, "
                         "PRIMARY KEY (epoch, n));" + sql)
        db.close()
    return spoil


def _write(name: str, data: bytes) -> Callable[[Path], None]:
    return lambda folder: (folder / name).write_bytes(data)


@pytest.mark.parametrize("spoil, name, words", [
    (_write("room-club.sqlite", b"not a database " * 200), "room-club.sqlite", "not a room's record, or damaged"),
    (_write("room-club.key", b"\n  \n"), "room-club.key", "the room key this host keeps is empty"),
    (_write("room-club.keys", b"\xff\xfe" * 40), "room-club.keys", "move it away"),
], ids=["record-not-sqlite", "key-blank", "keys-not-utf8"])
def test_a_damaged_room_file_is_one_line_naming_it(tmp_path: Path, spoil: Callable[[Path], None], name: str,
                                                    words: str) -> None:
    spoil(tmp_path)
    before = (tmp_path / name).read_bytes()
    proc = _host(tmp_path, free_port())
    _, err = proc.communicate(timeout=scaled(60))
    lines = err.strip().splitlines()
    assert proc.returncode == 2 and "Traceback" not in err, err
    assert lines[-1].startswith(f"botboard run: {tmp_path / name}: ") and words in lines[-1], err
    assert all("WARNING" in line for line in lines[:-1]), err  # at most the broker's words before it
    assert (tmp_path / name).read_bytes() == before


@pytest.mark.parametrize("spoil, words", [
    (_record("INSERT INTO meta VALUES ('room', '{not json');"), "Expecting property name"),
    (_record("INSERT INTO entries VALUES ('e', 1, 't', 0, '[', '{}', NULL, NULL);"), "Expecting value"),
    (_record("INSERT INTO meta VALUES ('n', '" + "9" * 5000 + "');"), "a number too long to read"),
    (_record("INSERT INTO meta VALUES ('n', '" + "[" * 50_000 + "]" * 50_000 + "');"),
     "a value nested too deep to read"),  # found by the fuzzer: a RecursionError before
    (_write("room-club.sqlite", b""), None),  # an empty file: a new record
], ids=["meta-not-json", "entry-not-json", "5000-digits", "nested-deep", "empty"])
def test_a_room_record_is_read_whole_before_it_is_used(tmp_path: Path, spoil: Callable[[Path], None],
                                                        words: str | None) -> None:
    from botboard.remote.record import EntryStore, RoomRecordError

    spoil(tmp_path)
    path = tmp_path / "room-club.sqlite"
    before = path.read_bytes()
    if words is None:
        EntryStore(path).close()
        return
    with pytest.raises(RoomRecordError) as err:
        EntryStore(path)
    assert str(err.value).startswith(f"{path}: not a room's record") and words in str(err.value)
    assert path.read_bytes() == before


def _warned(proc: subprocess.Popen[str], words: str) -> str:
    """The first stderr line holding ``words`` (read as it comes)."""
    assert proc.stderr is not None
    seen: list[str] = []

    def found() -> str | None:
        line = proc.stderr.readline()  # type: ignore[union-attr]
        seen.append(line)
        return line if words in line or not line else None
    line = wait_for(found, 30, lambda: "".join(seen))
    assert words in line, "".join(seen)
    return line


def test_a_broker_that_refuses_is_a_warning_on_the_terminal(tmp_path: Path) -> None:
    proc = _host(tmp_path, free_port())  # nothing listens there: refused
    try:
        line = _warned(proc, "link to mqtt://127.0.0.1:")
        assert "WARNING" in line and "Connection refused" in line
    finally:
        proc.terminate()
        proc.communicate(timeout=scaled(30))


def test_a_broker_that_says_nothing_is_a_warning_before_its_connect_times_out(tmp_path: Path) -> None:
    assert SILENT_S < 5
    with socket.socket() as silent:  # accepts the connection (the kernel does), never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        proc = _host(tmp_path, silent.getsockname()[1])
        try:
            line = _warned(proc, "has not answered")
            assert "WARNING" in line and f"in {SILENT_S:g} s; still trying" in line
        finally:
            proc.terminate()
            proc.communicate(timeout=scaled(30))
