"""What the host wants the board to show: a palette and one state per cell."""

from __future__ import annotations

from dataclasses import dataclass, field

from bbshared import messages as m

# cells per SET_RANGE message: 2 bytes each, under the 500-byte payload limit
RANGE_CHUNK = 240

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

    def full_sync(self) -> list[tuple[int, bytes]]:
        """The messages that make a board show exactly this image."""
        rgb = bytes(v for colour in self.palette for v in colour)
        out = [(m.SET_PALETTE, m.encode(m.SET_PALETTE, 0, rgb))]
        for start in range(0, len(self.cells), RANGE_CHUNK):
            chunk = self.cells[start:start + RANGE_CHUNK]
            body = bytes(b for c in chunk for b in (c.palette, c.look))
            out.append((m.SET_RANGE, m.encode(m.SET_RANGE, start, body)))
        return out

    def update(self, changes: dict[int, CellState]) -> list[tuple[int, bytes]]:
        """Apply changes; the messages that carry only what changed (sparse or a range)."""
        changed = {i: c for i, c in changes.items() if self.cells[i] != c}
        for i, c in changed.items():
            self.cells[i] = c
        if not changed:
            return []
        return [(m.SET_CELLS, encode_sparse(changed))] if 4 * len(changed) <= 2 * len(self.cells) \
            else self.full_sync()[1:]


def encode_sparse(changes: dict[int, CellState]) -> bytes:
    """SET_CELLS payload; split by the caller if over the frame limit (125 cells)."""
    return b"".join(bytes((i >> 8, i & 0xFF, c.palette, c.look)) for i, c in sorted(changes.items()))
