"""A table's keys file keeps what a restart must not forget (pins, the newest record numbers,
the games the room left), and refused messages cost one log line a minute per kind."""

from __future__ import annotations

from pathlib import Path

from botboard.remote.junk import Bucket, JunkCount
from botboard.remote.seal import Identity
from botboard.remote.table_keys import TableKeys


def test_the_keys_file_keeps_pins_numbers_and_left_games_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "room-club.keys"
    keys = TableKeys.load(path)
    host = Identity.fresh().public
    keys.pin("host", host)
    keys.pin_host(host)
    keys.mark("room", 7)
    keys.mark("room", 5)  # never lower
    keys.leave("E1")
    keys.saw_room("t4g")
    signed = keys.next_seq()
    again = TableKeys.load(path)
    assert again.identity.public == keys.identity.public
    assert (again.pins, again.host, again.marks, again.left, again.opened) == (
        {"host": host}, host, {"room": 7}, ["E1"], ["t4g"])
    assert again.next_seq() > signed  # numbers grow across the restart
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_keys_file_of_an_earlier_botboard_keeps_its_keys(tmp_path: Path) -> None:
    path = tmp_path / "room-club.keys"
    identity = Identity.fresh()
    path.write_text(identity.text() + "\n")  # what an earlier botboard wrote: the keys in hex
    keys = TableKeys.load(path)
    assert keys.identity.public == identity.public and keys.pins == {} and keys.marks == {}
    keys.mark("room", 3)
    assert TableKeys.load(path).identity.public == identity.public


def test_junk_is_said_once_then_counted_one_line_a_minute_per_kind() -> None:
    now = [0.0]
    junk = JunkCount(clock=lambda: now[0])
    said = [junk.add("presence: not sealed") for _ in range(1000)]
    assert said[0] == 0 and said[1:] == [None] * 999  # the first with why, then silence
    assert junk.add("room: unreadable") == 0  # another kind is said at once
    now[0] = 59.0
    assert junk.add("presence: not sealed") is None
    now[0] = 60.5
    assert junk.add("presence: not sealed") == 1000  # a minute on: how many went unsaid
    assert junk.counts == {"presence: not sealed": 1002, "room: unreadable": 1}


def test_republishing_is_bounded() -> None:
    now = [0.0]
    bucket = Bucket(burst=3, period=2.0, clock=lambda: now[0])
    assert [bucket.wait() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.wait() == 2.0
    now[0] = 2.0
    assert bucket.wait() == 0.0
