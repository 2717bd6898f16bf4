"""The board goes and comes back: the session says so, and its census changes only what moved."""

from __future__ import annotations

from pathlib import Path

from bbshared import messages as m

from .helpers import Msg, Table


def _played_a_turn(t: Table) -> list[str]:
    t.session.new_game(2, {"track": 0}, 3)
    t.first_turns()
    assert t.session.mode == "program"
    return [a["action"] for a in t.journal.actions(t.session.game_id or 0)]


def test_the_session_says_when_the_board_is_gone_and_when_it_is_back(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.session.on_link_state("handshake")
    t.session.on_link_state("connected")
    first = t.session.message
    assert "back" not in first  # the first connect is no return
    t.session.on_link_state("waiting")
    assert "board is not answering" in t.session.message and "USB" in t.session.message
    t.session.on_link_state("opening")
    t.session.on_link_state("handshake")
    t.session.on_link_state("waiting")  # a failed try says nothing new
    assert "board is not answering" in t.session.message
    t.reconnect()
    assert "board is back" in t.session.message


def test_a_census_after_a_reconnect_changes_nothing_when_nothing_moved(tmp_path: Path) -> None:
    t = Table(tmp_path)
    actions = _played_a_turn(t)
    before = dict(t.session.table.contents())
    t.session.say("(nothing said)")
    t.reconnect()
    assert t.session.table.contents() == before
    assert "moved" not in t.session.message and not t.session.table_words
    assert [a["action"] for a in t.journal.actions(t.session.game_id or 0)] == actions


def test_a_tile_taken_while_the_board_was_away_is_said_once_the_census_is_whole(
        tmp_path: Path) -> None:
    t = Table(tmp_path)
    _played_a_turn(t)
    said: list[str] = []
    t.session._publish = lambda event: said.append(event.get("text", ""))
    t.reconnect(taken=("1A1",))  # blue's tile left its slot while the board was unplugged
    assert t.session.table.reading(t.slot(1, "A1")) is None
    moved = [s for s in said if "moved out of turn" in s]
    assert len(moved) == 1 and "blue" in moved[0]


def test_slots_heard_before_the_census_do_not_count_over_it(tmp_path: Path) -> None:
    t = Table(tmp_path)
    _played_a_turn(t)
    a1 = t.slot(0, "A1")
    t.session.on_link_state("waiting")
    t.session.on_link_state("handshake")
    # an old event the board sends again on reconnect: a tile that has since left
    t.session.on_message(Msg(m.SLOT, {"slot": a1, "present": 1, "uid": b"\x04\x09",
                                      "payload": b""}))
    assert t.session.table.reading(a1) is not None and t.session.table.reading(a1).uid != b"\x04\x09"
    t.reconnect(taken=("0A1",))
    assert t.session.table.reading(a1) is None
