"""Pictures of what the board shows, as SVG: hex cells with seven LEDs, squares with one.

A game's ``pictures()`` (its declaration) draws its LED language with these, from
the same functions that light the board, so the docs cannot drift from it. A hex
is drawn as the board lights it: the centre LED in the palette colour, the six side
LEDs at a quarter, the facing side half-way to white; a square has one LED. The
effect is written under the cell.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from bbshared import messages as m

from ..link.image import CellState

RGB = tuple[int, int, int]
Palette = Sequence[RGB]
HEX = 28.0  # hex radius in px
SQUARE = 34.0  # square side in px
NONE = 6  # facing: no side LED marked
EFFECTS = {m.OFF: "off", m.SOLID: "", m.BLINK: "blink", m.PULSE: "pulse", m.SPIN: "spin"}
SQUARE_EFFECTS = {**EFFECTS, m.SPIN: "spin = steady"}  # one LED cannot spin


def _rgb(c: RGB, scale: float = 1.0, toward_white: float = 0.0) -> str:
    r, g, b = (int(min(255, v * scale + (255 - v * scale) * toward_white)) for v in c)
    return f"rgb({r},{g},{b})"


def led_rgb(colour: RGB) -> str:
    """An LED's PWM level is light (linear); a screen's sRGB value is not: 64 of 255 lights an
    LED at a quarter, which looks about half as bright, and sRGB 64 would look nearly black."""
    r, g, b = (round(255 * (v / 255) ** (1 / 2.2)) for v in colour)
    return f"rgb({r},{g},{b})"


def text(x: float, y: float, words: str, size: int = 11, fill: str = "#000") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="middle" '
            f'font-family="sans-serif" fill="{fill}">{words}</text>')


def page(body: list[str], w: float, h: float) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
            f'viewBox="0 0 {w:.0f} {h:.0f}"><rect width="100%" height="100%" fill="#fff"/>'
            + "\n".join(body) + "</svg>\n")


def hex_cell(cx: float, cy: float, state: CellState, palette: Palette, size: float = HEX,
             label: bool = True) -> str:
    colour = palette[state.palette]
    lit = state.effect != m.OFF
    corners = " ".join(f"{cx + size * math.cos(math.radians(60 * i - 30)):.1f},"
                       f"{cy + size * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))
    parts = [f'<polygon points="{corners}" fill="#111" stroke="#444" stroke-width="1"/>']
    for facing in range(6):  # side LEDs: facing 0 east, clockwise (screen y grows down)
        angle = math.radians(60 * facing)
        x, y = cx + 0.62 * size * math.cos(angle), cy + 0.62 * size * math.sin(angle)
        fill = "#222" if not lit else _rgb(colour, 1.0, 0.5) if facing == state.facing else _rgb(colour, 0.25)
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.13:.1f}" fill="{fill}"/>')
    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.3:.1f}" '
                 f'fill="{_rgb(colour) if lit else "#222"}"/>')
    word = EFFECTS.get(state.effect, "")
    if word and label:
        parts.append(text(cx, cy + size + 12, word, fill="#333"))
    return "\n".join(parts)


def hex_row(cells: list[tuple[str, CellState]], palette: Palette) -> str:
    """Captioned hexes in a row: a legend."""
    body = []
    for i, (caption, state) in enumerate(cells):
        cx = 45 + 90 * i
        body += [hex_cell(cx, 40, state, palette), text(cx, 100, caption)]
    return page(body, 90 * len(cells), 110)


def hex_arena(picture: dict[int, CellState], coords: Sequence[tuple[int, int]], palette: Palette) -> str:
    """A whole hex arena (axial coordinates), as small hexes."""
    size, body = 18.0, []
    for cell, (q, r) in enumerate(coords):
        x, y = 200 + size * math.sqrt(3) * (q + r / 2), 190 + size * 1.5 * r
        body.append(hex_cell(x, y, picture[cell], palette, size, label=False))
    return page(body, 400, 380)


def square_cell(cx: float, cy: float, state: CellState, palette: Palette, size: float = SQUARE,
                label: bool = True) -> str:
    colour = palette[state.palette]
    lit = state.effect != m.OFF
    half = size / 2
    parts = [f'<rect x="{cx - half:.1f}" y="{cy - half:.1f}" width="{size:.1f}" height="{size:.1f}" '
             'fill="#111" stroke="#444" stroke-width="1"/>',
             f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.3:.1f}" fill="{led_rgb(colour) if lit else "#222"}"/>']
    word = SQUARE_EFFECTS.get(state.effect, "")
    if word and label:
        parts.append(text(cx, cy + half + 12, word, fill="#333"))
    elif word:  # inside the square, for whole boards
        parts.append(text(cx, cy + half - 2, word, size=round(size * 0.22), fill="#aaa"))
    return "\n".join(parts)


def square_rows(cells: list[tuple[str, CellState]], palette: Palette, per_row: int = 8) -> str:
    """Captioned squares, ``per_row`` a row: a legend."""
    rows = (len(cells) + per_row - 1) // per_row
    body = []
    for i, (caption, state) in enumerate(cells):
        cx, cy = 55 + 110 * (i % per_row), 30 + 95 * (i // per_row)
        body += [square_cell(cx, cy, state, palette), text(cx, cy + 50, caption)]
    return page(body, 110 * min(per_row, len(cells)), 95 * rows)


def square_window(cell_at: Callable[[tuple[int, int]], int], picture: dict[int, CellState], palette: Palette,
                  xs: range, ys: range, captions: Sequence[str] = (), x0: float = 0.0) -> list[str]:
    """The squares ``xs`` x ``ys`` of a picture (``cell_at(x, y)``: its cell), north at the top,
    from ``x0`` px, with captions under it."""
    body = []
    for row, y in enumerate(reversed(ys)):
        for col, x in enumerate(xs):
            body.append(square_cell(x0 + 20 + SQUARE * (col + 0.5), 10 + SQUARE * (row + 0.5),
                                    picture[cell_at((x, y))], palette, label=False))
    for i, caption in enumerate(captions):
        body.append(text(x0 + 20 + SQUARE * len(xs) / 2, 24 + SQUARE * len(ys) + 12 * i, caption))
    return body


def square_board(cell_at: Callable[[tuple[int, int]], int], picture: dict[int, CellState], palette: Palette,
                 width: int, height: int, captions: Sequence[str]) -> str:
    """A whole square board with captions under it."""
    body = square_window(cell_at, picture, palette, range(1, width + 1), range(1, height + 1), captions)
    return page(body, 40 + SQUARE * width, 40 + SQUARE * height + 12 * len(captions))
