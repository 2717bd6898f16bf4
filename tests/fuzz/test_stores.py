"""What botboard keeps or ships beside the journal, damaged: a room's record (SQLite) and its
key files, a game's palette, and the board's own config (board.json, read by the firmware in
the real MicroPython interpreter). Each is read, or refused with its own error type whose
words name the file: never another exception."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from botboard import games
from botboard.board import layouts
from botboard.remote.protocol import Entry
from botboard.remote.record import _SCHEMA as ROOM_SCHEMA, EntryStore, RoomRecordError
from botboard.remote.seal import Identity
from botboard.remote.table_keys import RoomKeyError, identity, with_room_key
from botboard.remote.url import RemoteUrl
from botboard.session.palette import PaletteError, load_palette

from ..mpy import run_mpy
from .damage import FUZZ, damaged_bytes, damaged_doc, dumps
from .test_journal import CELL

ROOM_COLUMNS = {table: re.findall(r"(\w+) (?:INTEGER|TEXT)", body)
                for table, body in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+) \((.*?)\);", ROOM_SCHEMA, re.S)}


def _good_record(path: Path) -> None:
    store = EntryStore(path)
    store.add_seen(Entry(epoch="e1", n=1, table="kitchen", public={"action": "pass"}, seat=0, private={"hand": [1]}))
    store.set_meta(room="club", epoch="e1", game=1)
    store.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()


@FUZZ
@given(data=st.data())
def test_a_room_record_with_any_value_opens_or_says_which_file(data: st.DataObject, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("room") / "room-club.sqlite"
    _good_record(path)
    if data.draw(st.booleans()):
        table = data.draw(st.sampled_from(sorted(ROOM_COLUMNS)))
        db = sqlite3.connect(path)
        try:
            db.execute(f"UPDATE {table} SET {data.draw(st.sampled_from(ROOM_COLUMNS[table]))} = ?", (data.draw(CELL),))
            db.commit()
        except sqlite3.IntegrityError:
            pass
        db.close()
    else:
        path.write_bytes(data.draw(damaged_bytes(path.read_bytes())))
    before = path.read_bytes()
    try:
        store = EntryStore(path)
    except RoomRecordError as err:
        assert str(err).startswith(f"{path}: ") and "\n" not in str(err)
        assert path.read_bytes() == before
        return
    store.meta()
    store.seen("e1")
    store.close()


@FUZZ
@given(data=st.data(), which=st.sampled_from(["room-club.key", "room-club.keys"]))
def test_a_damaged_key_file_is_read_or_said_with_its_name(data: st.DataObject, which: str,
                                                          tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("keys")
    good = {"room-club.key": b"Xq2V9rTz0cWmK1pLd3s8aA\n", "room-club.keys": (Identity.fresh().text() + "\n").encode()}
    (folder / which).write_bytes(data.draw(damaged_bytes(good[which])))
    try:
        if which == "room-club.key":
            assert with_room_key(RemoteUrl("broker", 1883, "club"), None, True, folder).key
        else:
            identity(folder / which)
    except RoomKeyError as err:
        assert str(err).startswith(str(folder / which)) and "\n" not in str(err)


PALETTE = games.declaration(games.default_name()).folder() / "table" / "data" / "palette.json"


@FUZZ
@given(data=st.data())
def test_a_damaged_palette_is_read_or_said_with_its_name(data: st.DataObject, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("palette") / "palette.json"
    good = json.loads(PALETTE.read_text())
    if data.draw(st.booleans()):
        path.write_text(dumps(data.draw(damaged_doc(good))), errors="surrogatepass")
    else:
        path.write_bytes(data.draw(damaged_bytes(PALETTE.read_bytes())))
    try:
        load_palette(path)
    except PaletteError as err:
        assert str(err).startswith(f"{path}: ") and "\n" not in str(err)


BOARD = layouts.load("ttb-small").board_config()
_LOAD = "from bbfw import config\ncfg, why = config.load_or_refuse({!r})\nprint('refused' if why else 'ok', why)\n"


@pytest.mark.parametrize("fmt", ["value", "bytes"])
@FUZZ
@given(data=st.data())
def test_the_firmware_refuses_a_damaged_board_json_with_words(fmt: str, data: st.DataObject,
                                                              tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("board") / "board.json"
    if fmt == "value":
        path.write_text(dumps(data.draw(damaged_doc(BOARD))), errors="surrogatepass")
    else:
        path.write_bytes(data.draw(damaged_bytes(json.dumps(BOARD).encode())))
    said = run_mpy(_LOAD.format(str(path)))  # an exception: micropython exits 1 with its traceback
    assert said.startswith(("ok", "refused board config refused: ")), said


@pytest.mark.parametrize("name, data", [
    ("room-club.sqlite", b"hello, not sqlite" * 100), ("room-club.key", b""), ("room-club.keys", b""),
    ("room-club.keys", b"\xff" * 64),
], ids=["record-not-sqlite", "key-empty", "keys-empty", "keys-not-utf8"])
def test_the_room_files_found_by_hand_are_said_with_their_names(name: str, data: bytes, tmp_path: Path) -> None:
    (tmp_path / name).write_bytes(data)
    with pytest.raises((RoomRecordError, RoomKeyError)) as err:
        if name.endswith(".sqlite"):
            EntryStore(tmp_path / name)
        elif name.endswith(".key"):
            with_room_key(RemoteUrl("broker", 1883, "club"), None, True, tmp_path)
        else:
            identity(tmp_path / name)
    assert str(err.value).startswith(str(tmp_path / name))
    assert (tmp_path / name).read_bytes() == data
