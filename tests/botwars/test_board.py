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
    with pytest.raises(ScenarioError, match=r"flags\[0\]: r4c4 is off the 3x3 board"):
        board_from_json({"name": "x", "size": [3, 3], "start": "r1c1", "flags": ["r4c4"]})


def _board_error(squares: dict[str, object], **top: object) -> str:
    doc: dict[str, object] = {"name": "bad", "size": [4, 4], "start": "r1c1", "flags": ["r4c4"],
                              "squares": squares, **top}
    with pytest.raises(ScenarioError) as err:
        board_from_json(doc)
    return str(err.value)


@pytest.mark.parametrize("cell, message", [
    ({"type": "gear", "turn": "X"}, "squares.r2c2: gear turn 'X' is not valid; expected L (left), R (right) or U"),
    ({"type": "switch", "kind": "weird"}, "squares.r2c2: switch kind 'weird' is not valid; expected pressure or toggle"),
    ({"type": "repair", "wrenches": 7}, "squares.r2c2: repair wrenches 7 is not valid; expected 1 or 2"),
    ({"type": "repair", "wrenches": True}, "repair wrenches True is not valid; expected 1 or 2"),
    ({"type": "pusher", "dir": "N", "stages": [9]}, "squares.r2c2: pusher stages [9] is not valid; "
                                                     "expected a list of stages 1..5"),
    ({"type": "crusher", "stages": []}, "squares.r2c2: crusher stages [] is not valid"),
    ({"type": "conveyor", "colour": "purple", "dir": "N"}, "squares.r2c2: conveyor colour 'purple' is not valid; "
                                                            "expected blue or yellow"),
    ({"type": "conveyor", "colour": "blue", "dir": "Q"}, "squares.r2c2: conveyor dir 'Q' is not valid; "
                                                          "expected N, E, S or W"),
    ({"type": "drawbridge", "bridge": "up", "switch": "r1c2"}, "drawbridge bridge 'up' is not valid; "
                                                                "expected N, E, S or W (the side the bridge is on)"),
    ({"type": "drawbridge", "bridge": "N", "switch": "r9c9"}, "squares.r2c2: drawbridge switch 'r9c9' is off the "
                                                               "4x4 board; expected the square of a pressure switch"),
    ({"type": "drawbridge", "bridge": "N", "switch": "r3c3"}, "squares.r2c2: drawbridge switch 'r3c3' has no switch "
                                                               "there; expected the square of a pressure switch"),
    ({"type": "drawbridge", "bridge": "N", "switch": "r1c2"}, "squares.r2c2: drawbridge switch 'r1c2' is a toggle "
                                                               "switch; expected a pressure switch (toggle switches "
                                                               "work teleporters only)"),
    ({"type": "teleporter", "colour": "amber", "active": "yes"}, "teleporter active 'yes' is not valid; "
                                                                  "expected true or false"),
    ({"type": "teleporter", "colour": "amber", "switch": "r3c3"}, "teleporter switch 'r3c3' has no switch there; "
                                                                   "expected the square of a pressure or toggle switch"),
    ({"type": "teleporter", "colour": "blue"}, "squares.r2c2: teleporter colour 'blue' is already used at r1c3"),
    ({"type": "lift"}, "squares.r2c2: type 'lift' is not an element; expected an object with type one of pit, "),
])
def test_bad_element_values_name_the_square_and_what_is_expected(cell: dict[str, object], message: str) -> None:
    others = {"r1c2": {"type": "switch", "kind": "toggle"}, "r1c3": {"type": "teleporter", "colour": "blue"}}
    text = _board_error({**others, "r2c2": cell})
    assert text.startswith("board bad: ") and message in text


def test_bad_top_level_fields_name_the_field() -> None:
    assert "walls[0]: 'r2c3 up' is not valid; expected a square and a side" in \
        _board_error({}, walls=["r2c3 up"])
    assert "lasers[0].dir: 'Q' is not valid; expected N, E, S or W (the way it fires)" in \
        _board_error({}, lasers=[{"square": "r1c1", "dir": "Q"}])
    assert "lasers[0].square: r9c1 is off the 4x4 board" in _board_error({}, lasers=[{"square": "r9c1", "dir": "E"}])
    assert "start_facing: 'up' is not valid; expected N, E, S or W" in _board_error({}, start_facing="up")
    assert "size: [0, 4] is not valid; expected [columns, rows]" in _board_error({}, size=[0, 4])
    assert "start: None is not valid; expected a square, e.g. r1c1" in _board_error({}, start=None)
    with pytest.raises(ScenarioError, match="board x: flags: missing; expected a list of squares"):
        board_from_json({"name": "x", "size": [3, 3], "start": "r1c1"})


def test_every_problem_is_listed_at_once() -> None:
    text = _board_error({"r2c2": {"type": "gear", "turn": "X"}, "r2c4": {"type": "conveyor", "colour": "purple",
                                                                        "dir": "Q"}})
    assert text.startswith("board bad: 3 problems:\n  - squares.r2c2: gear turn")
    assert "conveyor colour 'purple'" in text and "conveyor dir 'Q'" in text


def test_lower_case_directions_are_read_as_capitals() -> None:
    board = board_from_json({"name": "x", "size": [3, 3], "start": "r1c1", "flags": [],
                             "squares": {"r1c2": {"type": "conveyor", "colour": "blue", "dir": "e"}}})
    assert board.cell((2, 1))["dir"] == "E"


def test_column_numbers_stand_under_their_squares_past_column_9() -> None:
    lines = render(load_board("factory")).splitlines()
    labels = next(line for line in lines if line.startswith("c "))
    assert labels.split() == ["c"] + [str(x) for x in range(1, 13)]  # c10, c11, c12 no longer run together
    row = next(line for line in lines if line.startswith("r12 "))
    for x in (1, 9, 10, 12):  # each number ends under the second character of its square
        assert labels[5 + 3 * (x - 1):7 + 3 * (x - 1)] == f"{x:>2}"
    assert row[7 + 3 * 11] == "#"  # the east fence just after column 12's square
