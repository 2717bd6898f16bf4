"""The factory floor as the console draws it: squares, walls, lasers, flags.

Public by nature (the floor is printed on the panel); the console's square
grid reads this instead of knowing the board file format.
"""

from __future__ import annotations

from typing import Any

from ..board import FACINGS, Board


def floor_json(board: Board) -> dict[str, Any]:
    return {
        "name": board.name,
        "title": board.title,
        "width": board.width,
        "height": board.height,
        "squares": [{"x": x, "y": y, **dict(cell)}
                    for (x, y), cell in sorted(board.cells.items(), key=lambda item: (item[0][1], item[0][0]))],
        "walls": [{"x": sq[0], "y": sq[1], "side": FACINGS[side]}
                  for sq, side in sorted(board.walls)],
        "lasers": [{"x": laser.square[0], "y": laser.square[1], "facing": FACINGS[laser.facing],
                    "colour": laser.colour} for laser in board.lasers],
        "flags": [{"x": sq[0], "y": sq[1], "number": n} for n, sq in enumerate(board.flags, 1)],
        "start": {"x": board.start[0], "y": board.start[1], "facing": FACINGS[board.start_facing]},
    }
