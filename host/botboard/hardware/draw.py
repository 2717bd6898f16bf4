"""Draw a layout as SVG: the LED-chain order over the cells, and the reader/slot map.

Everything comes from the layout file (hardware/layouts/NAME.json), the same
data the firmware's board.json is made from: cells in chain order, chains with
their pins, stations with their slots (slot i is reader i: 74HC595 chip i // 8,
output Q(A + i % 8)) and buttons (matrix key = button index; touch pads follow).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ..board.layouts import Layout

CELL = 28.0  # hex radius / square side, px
CHAIN_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
                 "#17becf")
MARGIN = 30.0
PANEL_W = 330.0


def _centre(layout: Layout, coord: tuple[int, int], height: int) -> tuple[float, float]:
    a, b = coord
    if layout.grid == "hex":  # pointy-top axial (q, r), r southwards
        return CELL * math.sqrt(3) * (a + b / 2), CELL * 1.5 * b
    return CELL * (a - 1), CELL * (height - b)  # square (x, y) from (1, 1) south-west


def _outline(layout: Layout, x: float, y: float) -> str:
    if layout.grid == "hex":
        pts = [(x + CELL * math.cos(math.radians(60 * k - 30)),
                y + CELL * math.sin(math.radians(60 * k - 30))) for k in range(6)]
    else:
        h = CELL / 2
        pts = [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)]
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)


def svg(layout: Layout) -> str:
    height = max(c[1] for c in layout.cells) if layout.grid == "square" else 0
    centres = [_centre(layout, c, height) for c in layout.cells]
    xs = [p[0] for p in centres]
    ys = [p[1] for p in centres]
    dx, dy = MARGIN + CELL - min(xs), MARGIN + CELL + 20 - min(ys)
    pts = [(x + dx, y + dy) for x, y in centres]
    width = max(xs) - min(xs) + 2 * (CELL + MARGIN)
    total_w = width + PANEL_W
    arena_h = max(ys) - min(ys) + 2 * (CELL + MARGIN) + 20
    out = [f'<text x="{MARGIN}" y="22" font-size="15" font-weight="bold">{escape(layout.title)}</text>']
    owner = {}
    for n, chain in enumerate(layout.chains):
        for i in range(chain["first_cell"], chain["first_cell"] + chain["cells"]):
            owner[i] = n
    for i, (x, y) in enumerate(pts):
        colour = CHAIN_COLOURS[owner[i] % len(CHAIN_COLOURS)]
        first_led = i * layout.leds_per_cell
        out.append(f'<polygon points="{_outline(layout, x, y)}" fill="white" stroke="{colour}" '
                   f'stroke-width="1.5"><title>cell {i} {layout.cells[i]}: LEDs {first_led}..'
                   f'{first_led + layout.leds_per_cell - 1}</title></polygon>')
    for n, chain in enumerate(layout.chains):
        colour = CHAIN_COLOURS[n % len(CHAIN_COLOURS)]
        seg = pts[chain["first_cell"]:chain["first_cell"] + chain["cells"]]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in seg)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2" '
                   f'stroke-opacity="0.55" marker-end="url(#arrow{n})"/>')
        sx, sy = seg[0]
        out.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="5" fill="{colour}"/>')
        out.append(f'<text x="{sx + 7:.1f}" y="{sy - 7:.1f}" font-size="11" fill="{colour}" '
                   f'font-weight="bold">chain {n} GP{chain["pin"]}</text>')
    for i, (x, y) in enumerate(pts):
        out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="10" text-anchor="middle">{i}</text>')
    out += _panel(layout, width, arena_h)
    panel_h = 60 + 16 * (len(layout.stations) * 3 + len(layout.chains) + 4)
    total_h = max(arena_h, panel_h)
    markers = "".join(
        f'<marker id="arrow{n}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
        f'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{CHAIN_COLOURS[n % len(CHAIN_COLOURS)]}"/></marker>'
        for n in range(len(layout.chains)))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
            f'viewBox="0 0 {total_w:.0f} {total_h:.0f}" font-family="sans-serif">'
            f'<defs>{markers}</defs><rect width="100%" height="100%" fill="#fafafa"/>'
            + "".join(out) + "</svg>\n")


def _panel(layout: Layout, x0: float, arena_h: float) -> list[str]:
    lines = [("LED chains (cell number = chain order)", True)]
    for n, c in enumerate(layout.chains):
        first, count = c["first_cell"], c["cells"]
        lines.append((f"chain {n}: GP{c['pin']}, cells {first}..{first + count - 1}, "
                       f"{count * layout.leds_per_cell} LEDs", False))
    lines.append(("Stations: slot = reader (595 chip.output)", True))
    for s in layout.stations:
        readers = ", ".join(f"{i} ({i // 8}.Q{'ABCDEFGH'[i % 8]})" for i in s.slots)
        lines.append((f"{s.name}", True))
        lines.append((f"  slots {readers}" if s.slots else "  no slots", False))
        keys = ", ".join(f"{role} {k}" for role, k in s.buttons.items())
        lines.append((f"  buttons {keys}" if keys else "  no buttons", False))
    if layout.touch:
        lines.append((f"touch pads: keys {layout.button_count}..{layout.button_count + len(layout.cells) - 1}"
                      " (key = buttons + cell)", False))
    out = []
    y = 44.0
    for text, bold in lines:
        weight = ' font-weight="bold"' if bold else ""
        out.append(f'<text x="{x0:.0f}" y="{y:.0f}" font-size="11"{weight}>{escape(text)}</text>')
        y += 16
    return out
