"""Square-grid conventions shared by the square-grid games (docs: DESIGN.md).

Squares are ``(x, y)``: x eastwards, y northwards, from ``(1, 1)`` in the
south-west corner. The rules' ``r#c#`` notation is row = y, column = x.
Facings 0..3 are N, E, S, W.
"""

from __future__ import annotations

import re

from .fields import BadValue

Square = tuple[int, int]

FACINGS = "NESW"

_SQUARE_RE = re.compile(r"^r(\d+)c(\d+)$")


def parse_square(text: object) -> Square:
    """``"r4c7"`` -> ``(7, 4)``; ScenarioError on anything else."""
    match = _SQUARE_RE.match(text.strip().lower()) if isinstance(text, str) else None
    if not match:
        raise BadValue(f"bad square {text!r}: expected r<row>c<column>, e.g. r4c7")
    return int(match.group(2)), int(match.group(1))


def square_name(square: Square) -> str:
    return f"r{square[1]}c{square[0]}"


def parse_facing(text: object) -> int:
    if not isinstance(text, str) or text.upper() not in ("N", "E", "S", "W"):
        raise BadValue(f"bad facing {text!r}: expected one of N, E, S, W")
    return FACINGS.index(text.upper())
