"""Computer seats at the table: they move without tiles, are announced, and their empty
stations are not flagged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import Table


def _table(tmp: Path) -> tuple[Table, list[dict[str, Any]]]:
    table = Table(tmp)
    said: list[dict[str, Any]] = []
    table.session._publish = said.append  # noqa: SLF001  what the consoles would receive
    table.session.new_game(2, {"track": 0}, 1)
    return table, said


def test_a_computer_seat_plays_its_turn_without_tiles_and_is_announced(tmp_path: Path) -> None:
    table, said = _table(tmp_path)
    session = table.session
    session.set_computers({1: "greedy"}, 0.05)
    assert session.computers_now() == 0  # red's turn first: the computer waits for it
    table.place(0, "A1", "F1/red")
    table.place(0, "B1", "L/red")
    table.press(0, "confirm")
    done = len(session.journal.actions(session.game_id))
    assert session.computers_now() >= 1
    assert len(session.journal.actions(session.game_id)) > done  # blue's program, read from no tiles
    assert session.engine.current_player(session.state) != 1 or session.mode == "over"
    announced = [e["text"] for e in said if e.get("event") == "message" and not e.get("private")]
    assert any(text.startswith("blue (computer) plays: ") for text in announced)
    assert session.seating.seat_station_name(1) not in session.view()["station_words"]  # no tiles asked


def test_a_seat_given_back_to_a_human_waits_for_tiles(tmp_path: Path) -> None:
    table, _ = _table(tmp_path)
    session = table.session
    session.set_computers({0: "random"}, 0.05)
    assert session.computers_now() == 1  # red is the computer: it moves at once
    session.set_computers({})
    assert session.computers_now() == 0 and session.acting() == [1]  # blue's tiles now
