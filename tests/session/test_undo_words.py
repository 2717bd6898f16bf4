"""Undo says which tiles to take back and where, and strikes the move in the log; a new game
starts an empty log and asks for the slots to be cleared."""

from __future__ import annotations

from pathlib import Path

from .helpers import Table


def _first_move(tmp: Path) -> Table:
    table = Table(tmp)
    table.session.new_game(2, {"track": 0}, 1)
    table.place(0, "A1", "F1/red")
    table.place(0, "B1", "L/red")
    table.press(0, "confirm")
    return table


def test_undo_names_the_tiles_to_take_back_and_strikes_the_move(tmp_path: Path) -> None:
    table = _first_move(tmp_path)
    session = table.session
    logged = list(session.log)
    assert logged and not any(line.startswith("(undone)") for line in logged)
    session.undo()
    words = session.message
    assert words.startswith("undone: ") and "red slot A1: take out red F1 (Forward 1x)" in words, words
    assert "slot B1: take out red L (Turn left)" in words
    assert list(session.log) == ["(undone) " + line for line in logged]  # kept, marked
    table.remove(0, "A1")
    table.remove(0, "B1")
    table.place(0, "A1", "F2/red")
    table.place(0, "B1", "R/red")
    table.press(0, "confirm")
    assert session.log[-1].startswith("(undone)") is False  # the new move is not struck


def test_a_new_game_clears_the_log_and_lists_the_tiles_to_take_off(tmp_path: Path) -> None:
    table = _first_move(tmp_path)
    session = table.session
    assert session.log
    session.new_game(2, {"track": 0}, 2)
    assert list(session.log) == []
    assert session.mode == "clear" and "red to play" not in session.now()["text"]
    assert "red: a new game starts: take red F1 (Forward 1x) out of A1" in session.now()["text"]


def test_undoing_one_operators_program_does_not_mislead_the_other(tmp_path: Path) -> None:
    # VOLT programs at once: undoing red's program left blue, still laying its own dice, told to
    # swap identical dice, and its now line said "blue to play"
    from ..volt.test_table_session import VoltTable

    t = VoltTable(tmp_path)
    s = t.session
    t.place(1, 0, "red", owner=255)  # blue lays an anybody's die, still programming
    t.program(0, ["R1S", "B1W", "R1N"])
    t.press(0, "confirm")
    assert len(t.actions()) == 1 and s.acting() == [1]
    assert s.now(0)["text"].startswith("your move is in")
    s.undo()
    told = [e["text"] for e in t.published[-6:] if e.get("event") == "message" and e.get("seat") == 1]
    assert not any("put back" in text or "take out" in text for text in told), told
    assert "put back" not in s.seat_messages.get(1, "") + s.message
    assert s.now(1)["text"].startswith("round 1: put three dice")  # blue still programs
    t.program(0, ["R1S", "B1W", "R1N"])
    t.press(0, "confirm")
    s.undo()  # again, with red's dice still on its units: red may confirm them again
    assert s.now(0)["text"].startswith("round 1: put three dice") and "to play" not in s.now(1)["text"]
