"""What the host wants the board to show: a palette and one state per cell."""

from __future__ import annotations

from dataclasses import dataclass, field

from bbshared import messages as m

MAX_PAYLOAD = 480  # bytes a message carries at most, under the 500-byte frame limit

DEFAULT_PALETTE = (
    (0, 0, 0), (255, 255, 255), (255, 0, 0), (0, 0, 255), (0, 200, 0), (255, 200, 0),
    (160, 0, 255), (255, 90, 0), (0, 200, 255), (255, 0, 120), (90, 60, 20), (60, 60, 60),
    (0, 90, 255), (0, 160, 60), (200, 0, 200), (0, 0, 40),
)


@dataclass(frozen=True)
class CellState:
    palette: int = 0
    facing: int = m.NO_FACING
    effect: int = m.OFF

    @property
    def look(self) -> int:
        return m.look(self.facing, self.effect)

    @classmethod
    def from_bytes(cls, palette: int, look: int) -> "CellState":
        return cls(palette, look >> 4, look & 0x0F)


@dataclass
class BoardImage:
    cells: list[CellState]
    palette: list[tuple[int, int, int]] = field(default_factory=lambda: list(DEFAULT_PALETTE))

    @classmethod
    def blank(cls, count: int) -> "BoardImage":
        return cls([CellState()] * count)

    def full_sync(self, max_payload: int = MAX_PAYLOAD) -> list[tuple[int, bytes]]:
        """The messages that make a board show exactly this image, none carrying
        more than ``max_payload`` bytes (small frames get through a damaged line)."""
        per = max(1, (max_payload - 1) // 3)
        out = [(m.SET_PALETTE, m.encode(m.SET_PALETTE, start, bytes(
            v for colour in self.palette[start:start + per] for v in colour)))
            for start in range(0, len(self.palette), per)]
        return out + self._ranges(max_payload)

    def _ranges(self, max_payload: int) -> list[tuple[int, bytes]]:
        per = max(1, (max_payload - 2) // 2)
        return [(m.SET_RANGE, m.encode(m.SET_RANGE, start, bytes(
            b for c in self.cells[start:start + per] for b in (c.palette, c.look))))
            for start in range(0, len(self.cells), per)]

    def update(self, changes: dict[int, CellState],
               max_payload: int = MAX_PAYLOAD) -> list[tuple[int, bytes]]:
        """Apply changes; the messages that carry only what changed (sparse or ranges)."""
        changed = {i: c for i, c in changes.items() if self.cells[i] != c}
        for i, c in changed.items():
            self.cells[i] = c
        if not changed:
            return []
        if 4 * len(changed) > 2 * len(self.cells):
            return self._ranges(max_payload)
        cells = sorted(changed.items())
        per = max(1, max_payload // 4)
        return [(m.SET_CELLS, encode_sparse(dict(cells[i:i + per]))) for i in range(0, len(cells), per)]


def encode_sparse(changes: dict[int, CellState]) -> bytes:
    """SET_CELLS payload: 4 bytes a cell, in cell order."""
    return b"".join(bytes((i >> 8, i & 0xFF, c.palette, c.look)) for i, c in sorted(changes.items()))
