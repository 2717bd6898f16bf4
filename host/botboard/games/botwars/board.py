"""BotWars factory floors: squares, facings, board files and a text rendering.

Coordinates follow DESIGN.md: ``(x, y)`` with x eastwards and y northwards
from ``(1, 1)`` in the south-west corner; the rules' ``r#c#`` is row y,
column x. Facings are 0..3 = N E S W. The board file format is described in
docs/botwars-boards.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..base import ScenarioError
from ..squares import FACINGS, Square, parse_facing, parse_square, square_name  # noqa: F401  (re-exported)

VECTORS: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
ARROWS = "^>v<"
DATA = Path(__file__).parent / "data"



def neighbour(square: Square, facing: int) -> Square:
    dx, dy = VECTORS[facing]
    return square[0] + dx, square[1] + dy


def span_name(squares: list[Square]) -> str:
    """A straight run of squares as the report writes it: r4-6c7, r5c2-4 or r3c3."""
    if not squares:
        return "-"
    xs = sorted({s[0] for s in squares})
    ys = sorted({s[1] for s in squares})
    rows = f"{ys[0]}-{ys[-1]}" if len(ys) > 1 else f"{ys[0]}"
    cols = f"{xs[0]}-{xs[-1]}" if len(xs) > 1 else f"{xs[0]}"
    return f"r{rows}c{cols}"


@dataclass(frozen=True)
class Laser:
    """A board laser turret: fires from ``square`` towards ``facing``."""

    square: Square
    facing: int
    colour: str  # "blue": stopped by the first robot; any other colour passes robots


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
        if (square, facing) in self.walls:
            return True
        return (neighbour(square, facing), (facing + 2) % 4) in self.walls

    def flag_number(self, square: Square) -> int:
        """1-based flag number at ``square``, 0 if none."""
        try:
            return self.flags.index(square) + 1
        except ValueError:
            return 0

    def squares_of(self, kind: str) -> list[Square]:
        return sorted((sq for sq, c in self.cells.items() if c["type"] == kind),
                      key=lambda s: (s[1], s[0]))


# -- loading -----------------------------------------------------------------

_TYPES: dict[str, tuple[str, ...]] = {  # element type -> required fields
    "pit": (), "conveyor": ("colour", "dir"), "pusher": ("dir", "stages"),
    "gear": ("turn",), "crusher": ("stages",), "repair": ("wrenches",),
    "upgrade": (), "switch": ("kind",), "drawbridge": ("bridge", "switch"),
    "teleporter": ("colour",),
}


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
    name = str(doc.get("name", "?"))
    try:
        width, height = doc["size"]
        cells = {parse_square(k): _check_cell(k, v) for k, v in doc.get("squares", {}).items()}
        walls = set(_parse_walls(doc.get("walls", [])))
        for square, cell in cells.items():
            if cell["type"] == "pusher":  # mounted on the wall behind the push
                walls.add((square, (parse_facing(cell["dir"]) + 2) % 4))
        lasers = tuple(Laser(parse_square(l["square"]), parse_facing(l["dir"]),
                             l.get("colour", "blue")) for l in doc.get("lasers", []))
        board = Board(name, str(doc.get("title", name)), int(width), int(height),
                      parse_square(doc["start"]), parse_facing(doc.get("start_facing", "N")),
                      tuple(parse_square(f) for f in doc["flags"]), cells, frozenset(walls),
                      lasers)
    except (KeyError, TypeError, ValueError) as err:
        raise ScenarioError(f"board {name}: {err}") from err
    outside = [s for s in [*cells, board.start, *board.flags] if not board.on_board(s)]
    if outside:
        raise ScenarioError(f"board {name}: squares off the board: {[square_name(s) for s in outside]}")
    return board


def _check_cell(key: str, cell: Any) -> dict[str, Any]:
    if not isinstance(cell, dict) or cell.get("type") not in _TYPES:
        raise ScenarioError(f"square {key}: expected an object with type one of {', '.join(_TYPES)}")
    missing = [f for f in _TYPES[cell["type"]] if f not in cell]
    if missing:
        raise ScenarioError(f"square {key}: {cell['type']} needs {', '.join(missing)}")
    return dict(cell)


def _parse_walls(items: Iterable[str]) -> Iterable[tuple[Square, int]]:
    for item in items:
        square, side = item.split()
        yield parse_square(square), parse_facing(side)


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
    lines.append("     " + "".join(f"c{x:<2}" for x in range(1, width + 1)))
    for laser in board.lasers:
        lines.append(f"laser {laser.colour} at {square_name(laser.square)} firing {FACINGS[laser.facing]}")
    return "\n".join(line.rstrip() for line in lines)
