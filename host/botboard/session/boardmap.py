"""Engine cells and the board's cells: a game's coordinates placed on a layout."""

from __future__ import annotations

from ..board.layouts import Layout
from ..link.image import CellState
from .mapping import TableError


class BoardMap:
    """Engine cell index <-> the board layout's cell (LED order) index, by coordinates."""

    def __init__(self, layout: Layout, coords: list[tuple[int, int]]) -> None:
        index = {c: i for i, c in enumerate(layout.cells)}
        missing = [c for c in coords if c not in index]
        if missing:
            raise TableError(f"layout {layout.id} has no cell {missing[0]}: the game needs a "
                             "bigger layout")
        self.to_board = [index[c] for c in coords]
        self.to_engine = {b: e for e, b in enumerate(self.to_board)}
        self.board_cells = len(layout.cells)

    def board(self, cells: dict[int, CellState]) -> dict[int, CellState]:
        out = {self.to_board[c]: s for c, s in cells.items()}
        for b in range(self.board_cells):  # cells of a bigger board than the game's stay dark
            if b not in self.to_engine:
                out[b] = CellState()
        return out
