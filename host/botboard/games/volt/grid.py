"""Square-grid helpers for VOLT: squares, the 8 directions, wall edges.

Coordinates follow DESIGN.md: ``(x, y)`` with x eastwards and y northwards
from ``(1, 1)`` in the south-west corner, written ``r<y>c<x>`` as BotWars
does. Directions are the 8 keys of a control unit, clockwise from north:
0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW; even keys are the orthogonal
("blue") keys. KillBot facings are 0..3 = N E S W (key = 2 * facing).
"""

from __future__ import annotations


from ..fields import BadValue
from ..squares import FACINGS, Square, parse_square, square_name  # noqa: F401  (re-exported)

Edge = frozenset[Square]  # the side shared by two orthogonally adjacent squares

KEYS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
VECTORS: tuple[Square, ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
ORTHOGONAL = (0, 2, 4, 6)
DIAGONAL = (1, 3, 5, 7)
UNITS = ("I", "II", "III")

def parse_key(text: str) -> int:
    if not isinstance(text, str) or text.upper() not in KEYS:
        raise BadValue(f"bad direction {text!r}: expected one of {' '.join(KEYS)}")
    return KEYS.index(text.upper())


def step(square: Square, key: int) -> Square:
    dx, dy = VECTORS[key]
    return square[0] + dx, square[1] + dy


def edge(a: Square, b: Square) -> Edge:
    return frozenset((a, b))


def parse_side(text: str) -> Edge:
    """``"r2c3/E"``: the east side of r2c3 (N, E, S or W)."""
    square, _, side = text.partition("/") if isinstance(text, str) else ("", "", "")
    if side.upper() not in ("N", "E", "S", "W"):
        raise BadValue(f"bad wall side {text!r}: expected r<row>c<col>/N|E|S|W, e.g. r2c3/E")
    here = parse_square(square)
    return edge(here, step(here, 2 * "NESW".index(side.upper())))


def cut(edges: frozenset[Edge], here: Square, key: int) -> bool:
    """Whether ``edges`` separate ``here`` from its neighbour towards ``key``.

    Orthogonally: the shared side is one of the edges. Diagonally the step
    passes a lattice point; it is cut only when both ways round that point (via
    either bystander square) cross an edge. So the end of a wall or a corner
    wrapped round a bystander square lets a diagonal step pass, while a straight
    wall through the point or a bend round the start or the target square does
    not (FAQ 1a).
    """
    target = step(here, key)
    if key in ORTHOGONAL:
        return edge(here, target) in edges
    side_x = (target[0], here[1])
    side_y = (here[0], target[1])
    via_x = edge(here, side_x) in edges or edge(side_x, target) in edges
    via_y = edge(here, side_y) in edges or edge(side_y, target) in edges
    return via_x and via_y


def adjacent(square: Square, diagonals: bool = True) -> list[Square]:
    keys = range(8) if diagonals else ORTHOGONAL
    return [step(square, k) for k in keys]
