"""A slot the board cannot read cleanly, or holding two tiles, is refused until put right."""

from __future__ import annotations

from pathlib import Path

import pytest

from bbshared import messages as m

from .helpers import Msg, Table


def _trouble(t: Table, seat: int, name: str, state: int) -> None:
    t.session.on_message(Msg(m.SLOT, {"slot": t.slot(seat, name), "present": state,
                                      "uid": b"\x04\x01\x02\x03\x04\x05\x06", "payload": b""}))
    t.clock.advance(0.01)


def _actions(t: Table) -> list[str]:
    return [a["action"] for a in t.journal.actions(t.session.game_id or 0)]


@pytest.mark.parametrize("state,words", [(m.SLOT_SEVERAL, "two tiles lie in one slot: take one away"),
                                         (m.SLOT_UNREADABLE, "cannot be read: lift it and put it back")])
def test_confirm_is_refused_while_a_slot_is_in_trouble_and_passes_once_put_right(
        tmp_path: Path, state: int, words: str) -> None:
    t = Table(tmp_path)
    t.session.new_game(2, {"track": 0}, 3)
    t.place(0, "A1", "F1/red")
    t.place(0, "B1", "L/red")
    _trouble(t, 0, "A1", state)
    assert words in t.session.message and "A1" in t.session.message
    for _ in range(2):  # a second press does not pass the turn with the tile lying there
        t.press(0, "confirm")
        assert words in t.session.message and _actions(t) == []
    assert t.session.acting() == [0]
    t.place(0, "A1", "F1/red")  # put right: the board reads the one tile cleanly again
    t.press(0, "confirm")
    assert len(_actions(t)) == 1 and t.session.acting() == [1]


def test_a_slot_in_trouble_at_a_station_out_of_turn_is_said_and_marked(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.session.new_game(2, {"track": 0}, 3)
    _trouble(t, 1, "B2", m.SLOT_SEVERAL)
    assert "two tiles lie in one slot" in t.session.message
    assert t.session.table_words  # the station says what to put right until it is
    t.session.on_message(Msg(m.SLOT, {"slot": t.slot(1, "B2"), "present": m.SLOT_EMPTY,
                                      "uid": b"", "payload": b""}))
    assert not t.session.table_words
