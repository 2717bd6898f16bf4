from __future__ import annotations

import pytest

from botboard.games.base import ScenarioError
from botboard.games.botwars.board import (board_from_json, board_names, load_board, neighbour, parse_square,
                                          render, span_name, square_name)


def test_square_names_are_row_then_column() -> None:
    assert parse_square("r4c7") == (7, 4)
    assert square_name((7, 4)) == "r4c7"
    assert neighbour((7, 4), 0) == (7, 5)  # north is +y
    assert neighbour((7, 4), 3) == (6, 4)  # west is -x


def test_bad_square_says_what_is_expected() -> None:
    with pytest.raises(ScenarioError, match="r<row>c<column>"):
        parse_square("7,4")


def test_spans_as_the_report_writes_them() -> None:
    assert span_name([(7, 4), (7, 5), (7, 6)]) == "r4-6c7"
    assert span_name([(2, 5), (3, 5), (4, 5)]) == "r5c2-4"
    assert span_name([(3, 3)]) == "r3c3"
    assert span_name([]) == "-"


def test_both_boards_load() -> None:
    assert {"test", "factory"} <= set(board_names())
    assert load_board("test").width == 6
    assert load_board("factory").width == load_board("factory").height == 12


def test_factory_uses_every_element() -> None:
    factory = load_board("factory")
    kinds = {cell["type"] for cell in factory.cells.values()}
    assert kinds == {"pit", "conveyor", "pusher", "gear", "crusher", "repair", "upgrade", "switch",
                     "drawbridge", "teleporter"}
    assert {c["colour"] for c in factory.cells.values() if c["type"] == "conveyor"} == {"blue", "yellow"}
    assert {c["turn"] for c in factory.cells.values() if c["type"] == "gear"} == {"L", "R", "U"}
    assert {c["wrenches"] for c in factory.cells.values() if c["type"] == "repair"} == {1, 2}
    assert {c["kind"] for c in factory.cells.values() if c["type"] == "switch"} == {"pressure", "toggle"}
    assert {laser.colour for laser in factory.lasers} == {"blue", "red"}
    assert factory.walls and len(factory.flags) == 3


def test_walls_block_from_both_sides_and_pushers_bring_their_wall() -> None:
    factory = load_board("factory")
    assert factory.wall_between((2, 3), 0) and factory.wall_between((2, 4), 2)
    assert factory.wall_between((3, 2), 3)  # the pusher at r2c3 pushes E, mounted on its W wall


def test_render_shows_elements_walls_and_robots() -> None:
    text = render(load_board("test"), {(1, 1): "1^"})
    lines = text.splitlines()
    assert lines[1].startswith("r6  #F2")  # north row first, flag 2 in the north-west corner
    assert "1^" in text and "()" in text and "GR" in text and "W2" in text
    assert "|" in [line for line in lines if line.startswith("r3")][0]  # the wall east of r3c3
    assert "laser blue at r4c1 firing E" in text


def test_board_errors_name_the_problem() -> None:
    with pytest.raises(ScenarioError, match="unknown board 'nope'"):
        load_board("nope")
    with pytest.raises(ScenarioError, match="conveyor needs colour, dir"):
        board_from_json({"name": "x", "size": [3, 3], "start": "r1c1", "flags": [],
                         "squares": {"r1c2": {"type": "conveyor"}}})
    with pytest.raises(ScenarioError, match="off the board"):
        board_from_json({"name": "x", "size": [3, 3], "start": "r1c1", "flags": ["r4c4"]})
