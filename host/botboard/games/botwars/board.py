"""BotWars factory floors: squares, facings, board files and a text rendering.

Coordinates follow DESIGN.md: ``(x, y)`` with x eastwards and y northwards
from ``(1, 1)`` in the south-west corner; the rules' ``r#c#`` is row y,
column x. Facings are 0..3 = N E S W. The board file format is described in
docs/botwars-boards.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Mapping, NamedTuple

from ..base import ScenarioError
from ..squares import FACINGS, Square, parse_facing, parse_square, square_name  # noqa: F401  (re-exported)

VECTORS: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
ARROWS = "^>v<"
DATA = Path(__file__).parent / "data"
MAX_SIDE = 30  # squares a side: the factory floor is 12x12; a larger size is a typo that would cost memory



OFF: Square = (0, 0)  # where a step over the edge leads in Board.exits (never a floor square)


def neighbour(square: Square, facing: int) -> Square:
    dx, dy = VECTORS[facing]
    return square[0] + dx, square[1] + dy


def span_name(squares: list[Square]) -> str:
    """A straight run of squares as the report writes it: r4-6c7, r5c2-4 or r3c3."""
    if not squares:
        return "-"
    xs = [s[0] for s in squares]
    ys = [s[1] for s in squares]
    low_x, high_x, low_y, high_y = min(xs), max(xs), min(ys), max(ys)
    rows = f"{low_y}-{high_y}" if high_y != low_y else f"{low_y}"
    cols = f"{low_x}-{high_x}" if high_x != low_x else f"{low_x}"
    return f"r{rows}c{cols}"


@dataclass(frozen=True)
class Laser:
    """A board laser turret: fires from ``square`` towards ``facing``."""

    square: Square
    facing: int
    colour: str  # "blue": stopped by the first robot; any other colour passes robots


class Beam(NamedTuple):
    squares: tuple[Square, ...]
    place: dict[Square, int]  # square -> its index in ``squares``
    over_bridge: bool


@dataclass(frozen=True)
class Board:
    name: str
    title: str
    width: int
    height: int
    start: Square
    start_facing: int
    flags: tuple[Square, ...]
    cells: Mapping[Square, Mapping[str, Any]]
    walls: frozenset[tuple[Square, int]]  # (square, side): a wall on that side
    lasers: tuple[Laser, ...] = field(default=())

    def on_board(self, square: Square) -> bool:
        return 1 <= square[0] <= self.width and 1 <= square[1] <= self.height

    def cell(self, square: Square) -> Mapping[str, Any] | None:
        return self.cells.get(square)

    def wall_between(self, square: Square, facing: int) -> bool:
        """A wall on the ``facing`` side of ``square`` or the matching side next door."""
        return (square, facing) in self._wall_faces

    # -- tables built once per board (the rules look them up in every stage) ----
    @cached_property
    def _wall_faces(self) -> frozenset[tuple[Square, int]]:
        """Every wall seen from both of its squares."""
        return self.walls | {(neighbour(square, side), (side + 2) % 4) for square, side in self.walls}

    @cached_property
    def exits(self) -> dict[Square, tuple[Square | None, ...]]:
        """Per square on the floor, the square each facing leads to: None behind a wall,
        ``OFF`` (this very object) over the edge: one lookup for a step."""
        def leads(square: Square, way: int) -> Square | None:
            if self.wall_between(square, way):
                return None
            there = neighbour(square, way)
            return there if self.on_board(there) else OFF
        return {(x, y): tuple(leads((x, y), way) for way in range(4))
                for x in range(1, self.width + 1) for y in range(1, self.height + 1)}

    @cached_property
    def derived(self) -> dict[Any, Any]:
        """Tables other modules build from this board once (floor.py's, per ruleset)."""
        return {}

    @cached_property
    def bridges(self) -> frozenset[Square]:
        """Squares holding a drawbridge (whether the ruleset knows drawbridges or not)."""
        return frozenset(sq for sq, c in self.cells.items() if c["type"] == "drawbridge")

    @cached_property
    def _known_cells(self) -> dict[frozenset[str], dict[Square, Mapping[str, Any]]]:
        return {}

    def cells_of(self, kinds: frozenset[str]) -> dict[Square, Mapping[str, Any]]:
        """The squares whose element is one of ``kinds`` (memoised per set of kinds)."""
        found = self._known_cells.get(kinds)
        if found is None:
            found = {sq: c for sq, c in self.cells.items() if c["type"] in kinds}
            self._known_cells[kinds] = found
        return found

    @cached_property
    def _rays(self) -> dict[tuple[Square, int, bool], tuple[Square, ...]]:
        return {}

    def ray(self, start: Square, facing: int, from_next: bool) -> tuple[Square, ...]:
        """The squares a beam crosses from ``start`` (or from the next square, for a robot's
        laser) up to and including the last one before a wall or the edge (memoised)."""
        key = (start, facing, from_next)
        found = self._rays.get(key)
        if found is None:
            squares: list[Square] = []
            here: Square | None = start
            if from_next:
                here = None if self.wall_between(start, facing) else neighbour(start, facing)
            while here is not None and self.on_board(here):
                squares.append(here)
                here = None if self.wall_between(here, facing) else neighbour(here, facing)
            found = tuple(squares)
            self._rays[key] = found
        return found

    def beam(self, start: Square, facing: int, from_next: bool) -> Beam:
        """``ray`` with each square's place on it and whether it crosses a drawbridge
        (memoised): a beam's hits are found from the squares robots stand on, not by walking it."""
        key = (start, facing, from_next)
        found = self._beams.get(key)
        if found is None:
            squares = self.ray(start, facing, from_next)
            found = Beam(squares, {sq: i for i, sq in enumerate(squares)},
                         not self.bridges.isdisjoint(squares))
            self._beams[key] = found
        return found

    @cached_property
    def shots(self) -> dict[Square, tuple[Beam, ...]]:
        """Per square on the floor, the beam of a robot's laser fired each way from it."""
        return {sq: tuple(self.beam(sq, way, True) for way in range(4)) for sq in self.exits}

    @cached_property
    def _beams(self) -> dict[tuple[Square, int, bool], Beam]:
        return {}

    def flag_number(self, square: Square) -> int:
        """1-based flag number at ``square``, 0 if none."""
        return self._flag_numbers.get(square, 0)

    @cached_property
    def _flag_numbers(self) -> dict[Square, int]:
        numbers: dict[Square, int] = {}
        for number, square in enumerate(self.flags, 1):
            numbers.setdefault(square, number)  # the first, as flags.index finds it
        return numbers

    def squares_of(self, kind: str) -> list[Square]:
        return sorted((sq for sq, c in self.cells.items() if c["type"] == kind),
                      key=lambda s: (s[1], s[0]))


# -- loading -----------------------------------------------------------------

STAGES = range(1, 6)
_DIRECTION = "N, E, S or W"
_STAGES = "a list of stages 1..5, e.g. [1, 3, 5]"


def _one_of(*choices: Any) -> Any:
    def check(value: Any) -> Any:
        if isinstance(value, bool) or value not in choices:
            raise ValueError(value)
        return value
    return check


def _direction(value: Any) -> str:
    return FACINGS[parse_facing(value)]  # kept in capitals


def _stages(value: Any) -> list[int]:
    if not isinstance(value, list) or not value or not all(
            isinstance(v, int) and not isinstance(v, bool) and v in STAGES for v in value):
        raise ValueError(value)
    return value


def _square_text(value: Any) -> str:
    parse_square(value)  # checked, kept as written
    return str(value)


def _colour(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(value)
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(value)
    return value


# element type -> {field: (check: the value to keep, or an error; what is expected)};
# docs/botwars-boards.md has the same table
_FIELDS: dict[str, dict[str, tuple[Any, str]]] = {
    "pit": {},
    "conveyor": {"colour": (_one_of("blue", "yellow"), "blue or yellow"), "dir": (_direction, _DIRECTION)},
    "pusher": {"dir": (_direction, f"{_DIRECTION} (the way it pushes)"), "stages": (_stages, _STAGES)},
    "gear": {"turn": (_one_of("L", "R", "U"), "L (left), R (right) or U (180 degrees)")},
    "crusher": {"stages": (_stages, _STAGES)},
    "repair": {"wrenches": (_one_of(1, 2), "1 or 2")},
    "upgrade": {},
    "switch": {"kind": (_one_of("pressure", "toggle"), "pressure or toggle")},
    "drawbridge": {"bridge": (_direction, f"{_DIRECTION} (the side the bridge is on)"),
                   "switch": (_square_text, "the square of its pressure switch, e.g. r4c7")},
    "teleporter": {"colour": (_colour, "a colour name, e.g. amber")},
}
_OPTIONAL: dict[str, dict[str, tuple[Any, str]]] = {
    "teleporter": {"active": (_flag, "true or false"),
                   "switch": (_square_text, "the square of its pressure or toggle switch, e.g. r4c7")},
}
_SWITCHES_FOR = {"drawbridge": ("pressure",), "teleporter": ("pressure", "toggle")}  # toggles: teleporters only


def board_names() -> list[str]:
    return sorted(p.stem for p in (DATA / "boards").glob("*.json"))


@lru_cache(maxsize=None)
def load_board(name: str) -> Board:
    """The board data file ``data/boards/NAME.json``, validated."""
    path = DATA / "boards" / f"{name}.json"
    if not path.is_file():
        raise ScenarioError(f"unknown board {name!r}; known boards: {', '.join(board_names())}")
    return board_from_json(json.loads(path.read_text()))


def board_from_json(doc: Mapping[str, Any]) -> Board:
    """A board document, checked: every problem found is named with its field or square."""
    if not isinstance(doc, Mapping):
        raise ScenarioError("board: expected a JSON object (docs/botwars-boards.md)")
    name = str(doc.get("name", "?"))
    problems: list[str] = []
    board = _build(doc, name, problems)
    if board is not None:
        _check_squares(board, doc, problems)
    if problems:
        if len(problems) == 1:
            raise ScenarioError(f"board {name}: {problems[0]}")
        raise ScenarioError(f"board {name}: {len(problems)} problems:\n" + "\n".join(f"  - {p}" for p in problems))
    assert board is not None
    return board


def _field(doc: Mapping[str, Any], key: str, problems: list[str], parse: Any, expected: str,
           default: Any = ..., where: str = "") -> Any:
    """``parse(doc[key])``, or None after noting what is wrong with it (``where`` prefixes the key)."""
    if key not in doc:
        if default is not ...:
            return parse(default)
        problems.append(f"{where}{key}: missing; expected {expected}")
        return None
    try:
        return parse(doc[key])
    except (ScenarioError, TypeError, ValueError, KeyError, AttributeError):
        problems.append(f"{where}{key}: {doc[key]!r} is not valid; expected {expected}")
        return None


def _size(value: Any) -> tuple[int, int]:
    width, height = value
    if not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_SIDE for v in (width, height)):
        raise ValueError(value)
    return width, height


def _build(doc: Mapping[str, Any], name: str, problems: list[str]) -> Board | None:
    size = _field(doc, "size", problems, _size, f"[columns, rows] of 1 to {MAX_SIDE} squares, e.g. [12, 12]")
    start = _field(doc, "start", problems, parse_square, "a square, e.g. r1c1")
    facing = _field(doc, "start_facing", problems, parse_facing, _DIRECTION, default="N")
    flags = _field(doc, "flags", problems, lambda v: tuple(parse_square(f) for f in _listed(v)),
                   'a list of squares in the order to touch them, e.g. ["r6c6", "r1c6"]')
    walls: set[tuple[Square, int]] = set()
    for i, item in enumerate(_listed_or_note(doc, "walls", problems)):
        key = f"walls[{i}]"
        wall = _field({key: item}, key, problems, _wall, 'a square and a side, e.g. "r2c3 E"')
        if wall is not None:
            walls.add(wall)
    lasers = []
    for i, item in enumerate(_listed_or_note(doc, "lasers", problems)):
        where = f"lasers[{i}]"
        if not isinstance(item, Mapping):
            problems.append(f'{where}: expected an object, e.g. {{"square": "r3c1", "dir": "E", "colour": "blue"}}')
            continue
        sq = _field(item, "square", problems, parse_square, "a square, e.g. r3c1", where=f"{where}.")
        way = _field(item, "dir", problems, parse_facing, f"{_DIRECTION} (the way it fires)", where=f"{where}.")
        colour = _field(item, "colour", problems, _colour, "a colour name (blue stops at the first robot)",
                        default="blue", where=f"{where}.")
        if None not in (sq, way, colour):
            lasers.append(Laser(sq, way, colour))
    squares = doc.get("squares", {})
    cells: dict[Square, dict[str, Any]] = {}
    if not isinstance(squares, Mapping):
        problems.append('squares: expected an object of "r#c#": element')
        squares = {}
    for key, cell in squares.items():
        try:
            square = parse_square(key)
        except ScenarioError as err:
            problems.append(f"squares: {err}")
            continue
        checked = _check_cell(f"squares.{key}", cell, problems)
        if checked is not None:
            cells[square] = checked
            if checked["type"] == "pusher":  # mounted on the wall behind the push
                walls.add((square, (FACINGS.index(checked["dir"]) + 2) % 4))
    if None in (size, start, facing, flags):
        return None
    return Board(name, str(doc.get("title", name)), size[0], size[1], start, facing, flags, cells,
                 frozenset(walls), tuple(lasers))


def _listed(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(value)
    return value


def _listed_or_note(doc: Mapping[str, Any], key: str, problems: list[str]) -> list[Any]:
    value = doc.get(key, [])
    if not isinstance(value, list):
        problems.append(f"{key}: expected a list")
        return []
    return value


def _wall(text: Any) -> tuple[Square, int]:
    square, side = text.split()
    return parse_square(square), parse_facing(side)


def _check_cell(where: str, cell: Any, problems: list[str]) -> dict[str, Any] | None:
    """One square's element with its fields checked (directions written N E S W)."""
    if not isinstance(cell, dict) or not isinstance(cell.get("type"), str) or cell["type"] not in _FIELDS:
        got = cell.get("type") if isinstance(cell, dict) else cell
        problems.append(f"{where}: type {got!r} is not an element; expected an object with type one of "
                        f"{', '.join(_FIELDS)}")
        return None
    kind = cell["type"]
    missing = [f for f in _FIELDS[kind] if f not in cell]
    if missing:
        problems.append(f"{where}: {kind} needs {', '.join(missing)}")
        return None
    out, bad = dict(cell), False
    fields = {**_FIELDS[kind], **_OPTIONAL.get(kind, {})}
    for key, (check, expected) in fields.items():
        if key not in cell:
            continue
        try:
            out[key] = check(cell[key])
        except (ScenarioError, TypeError, ValueError):
            problems.append(f"{where}: {kind} {key} {cell[key]!r} is not valid; expected {expected}")
            bad = True
    return None if bad else out


def _check_squares(board: Board, doc: Mapping[str, Any], problems: list[str]) -> None:
    """Squares on the board; switches where the elements wired to them say, of a kind that fits."""
    named = [("start", board.start)] + [(f"flags[{i}]", f) for i, f in enumerate(board.flags)]
    named += [(f"squares.{square_name(s)}", s) for s in board.cells]
    named += [(f"lasers[{i}].square", l.square) for i, l in enumerate(board.lasers)]
    for where, square in named:
        if not board.on_board(square):
            problems.append(f"{where}: {square_name(square)} is off the {board.width}x{board.height} board "
                            f"(rows 1..{board.height}, columns 1..{board.width})")
    colours: dict[str, Square] = {}
    for square, cell in sorted(board.cells.items(), key=lambda item: (item[0][1], item[0][0])):
        where = f"squares.{square_name(square)}"
        if cell["type"] == "teleporter":
            other = colours.setdefault(cell["colour"].lower(), square)
            if other != square:
                problems.append(f"{where}: teleporter colour {cell['colour']!r} is already used at "
                                f"{square_name(other)}; expected one teleporter per colour (they go in colour order)")
        if cell["type"] not in _SWITCHES_FOR or "switch" not in cell:
            continue
        kinds = _SWITCHES_FOR[cell["type"]]
        target = parse_square(cell["switch"])
        switch = board.cell(target)
        if not board.on_board(target):
            problems.append(f"{where}: {cell['type']} switch {cell['switch']!r} is off the {board.width}x"
                            f"{board.height} board; expected the square of a {' or '.join(kinds)} switch on it")
        elif switch is None or switch["type"] != "switch":
            problems.append(f"{where}: {cell['type']} switch {cell['switch']!r} has no switch there; expected "
                            f"the square of a {' or '.join(kinds)} switch on the board")
        elif switch["kind"] not in kinds:
            problems.append(f"{where}: {cell['type']} switch {cell['switch']!r} is a {switch['kind']} switch; "
                            f"expected a {' or '.join(kinds)} switch (toggle switches work teleporters only)")


# -- text rendering ---------------------------------------------------------

def cell_code(cell: Mapping[str, Any] | None) -> str:
    """Two characters for one square's element (docs/botwars-boards.md lists them)."""
    if cell is None:
        return " ."
    kind = cell["type"]
    if kind == "conveyor":
        arrow = ARROWS[parse_facing(cell["dir"])]
        return arrow * 2 if cell["colour"] == "blue" else " " + arrow
    codes = {"pit": "()", "crusher": "XX", "upgrade": "UP"}
    if kind in codes:
        return codes[kind]
    tail = {"pusher": lambda: ARROWS[parse_facing(cell["dir"])],
            "gear": lambda: str(cell["turn"]),
            "repair": lambda: str(cell["wrenches"]),
            "switch": lambda: str(cell["kind"])[0],
            "drawbridge": lambda: ARROWS[parse_facing(cell["bridge"])],
            "teleporter": lambda: str(cell["colour"])[0]}[kind]()
    return {"pusher": "P", "gear": "G", "repair": "W", "switch": "S",
            "drawbridge": "B", "teleporter": "T"}[kind] + tail


def render(board: Board, robots: Mapping[Square, str] | None = None) -> str:
    """The floor as text, north at the top; ``robots`` maps squares to 2-char marks."""
    robots = robots or {}
    width = board.width
    lines = ["    " + "#" * (width * 3 + 1)]
    for y in range(board.height, 0, -1):
        row = [f"r{y:<2} #"]
        for x in range(1, width + 1):
            square = (x, y)
            mark = robots.get(square)
            if mark is None:
                number = board.flag_number(square)
                mark = f"F{number}" if number else cell_code(board.cell(square))
                if mark == " ." and square == board.start:
                    mark = " @"
            east = "#" if x == width else ("|" if board.wall_between(square, 1) else " ")
            row.append(mark + east)
        lines.append("".join(row))
        if y > 1:
            under = "".join("--" + " " if board.wall_between((x, y), 2) else "   "
                            for x in range(1, width + 1))
            lines.append("    #" + under)
    lines.append("    " + "#" * (width * 3 + 1))
    # column numbers under the 2-character squares ("c" where the rows have "r"): c10, c11... would run together
    lines.append("c    " + "".join(f"{x:>2} " for x in range(1, width + 1)))
    for laser in board.lasers:
        lines.append(f"laser {laser.colour} at {square_name(laser.square)} firing {FACINGS[laser.facing]}")
    return "\n".join(line.rstrip() for line in lines)
