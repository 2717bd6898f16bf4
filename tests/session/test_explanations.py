"""First-time explanations: each kind of tile is explained to the seat that lays it, once a game,
on that seat's phone alone; off at the table or on the phone. Every game explains every tile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from botboard import games

from .helpers import Table


@pytest.mark.parametrize("game", games.table_names())
def test_every_tile_of_every_game_is_explained_in_a_sentence_or_two(game: str) -> None:
    catalogue = games.catalogue(game)
    for tile in catalogue.every_tile():
        text = catalogue.explain(tile)
        assert text and text.rstrip().endswith(".") and text.count(". ") <= 1, (catalogue.words(tile), text)
        assert len(text) < 240, text


def _table(tmp: Path) -> tuple[Table, list[dict[str, Any]]]:
    table = Table(tmp)
    said: list[dict[str, Any]] = []
    table.session._publish = said.append  # noqa: SLF001  what the consoles and phones would receive
    table.session.new_game(2, {"track": 0}, 1)
    return table, said


def _explained(said: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in said if e.get("event") == "explain"]


def test_a_kind_of_tile_is_explained_the_first_time_its_seat_lays_it(tmp_path: Path) -> None:
    table, said = _table(tmp_path)
    first = table.session.first_times
    table.place(0, "A1", "F1/red")
    assert [(e["seat"], e["private"]) for e in _explained(said)] == [(0, True)]  # red's phone alone
    assert "one hex ahead" in first.view(0)["text"] and first.view(1)["text"] == ""
    assert "one hex ahead" not in str(table.session.view())  # nothing on the shared view
    table.remove(0, "A1")
    table.place(0, "A1", "F1/red", serial=2)  # the same kind again: nothing new to say
    table.place(0, "B1", "L/red")
    assert len(_explained(said)) == 2 and "to its left" in first.view(0)["text"]


def test_explanations_can_be_turned_off_at_the_table_and_on_a_phone(tmp_path: Path) -> None:
    table, said = _table(tmp_path)
    first = table.session.first_times
    first.turn(0, False)
    table.place(0, "A1", "F1/red")
    assert _explained(said) == [] and first.view(0) == {"table": True, "on": False, "text": ""}
    first.turn(0, True)
    first.on = False  # the settings file's explain = false
    table.place(0, "B1", "L/red")
    assert _explained(said) == []
    first.on = True
    table.place(0, "B2", "R/red")
    assert len(_explained(said)) == 1
