"""Draw the pictures of docs/playing.md from the session's own LED language.

Run: .venv/bin/python docs/img/make_pictures.py  (writes docs/img/led-*.svg)

Every picture comes from botboard.session.leds (the palette file and the
functions that turn a game into cell states), so the docs cannot drift from
what the board shows. A hex is drawn as the board lights it: the centre LED
in the palette colour, the six side LEDs at a quarter, the facing side
half-way to white; the effect is written under it.
"""

from __future__ import annotations

import math
from pathlib import Path

from bbshared import messages as m
from botboard.games.twintinbots.game import GAME
from botboard.link.image import CellState
from botboard.games.twintinbots.table import leds
from botboard.games.twintinbots.table.scene import Scene

OUT = Path(__file__).resolve().parent
SIZE = 28.0  # hex radius in px
EFFECTS = {m.OFF: "off", m.SOLID: "", m.BLINK: "blink", m.PULSE: "pulse", m.SPIN: "spin"}


def _rgb(c: tuple[int, int, int], scale: float = 1.0, toward_white: float = 0.0) -> str:
    r, g, b = (int(min(255, v * scale + (255 - v * scale) * toward_white)) for v in c)
    return f"rgb({r},{g},{b})"


def hex_svg(cx: float, cy: float, state: CellState, size: float = SIZE) -> str:
    colour = leds.PALETTE[state.palette]
    lit = state.effect != m.OFF
    corners = " ".join(f"{cx + size * math.cos(math.radians(60 * i - 30)):.1f},"
                       f"{cy + size * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))
    parts = [f'<polygon points="{corners}" fill="#111" stroke="#444" stroke-width="1"/>']
    for facing in range(6):  # side LEDs: facing 0 east, clockwise (screen y grows down)
        angle = math.radians(60 * facing)
        x, y = cx + 0.62 * size * math.cos(angle), cy + 0.62 * size * math.sin(angle)
        if not lit:
            fill = "#222"
        elif facing == state.facing:
            fill = _rgb(colour, 1.0, 0.5)
        else:
            fill = _rgb(colour, 0.25)
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.13:.1f}" fill="{fill}"/>')
    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.3:.1f}" '
                 f'fill="{_rgb(colour) if lit else "#222"}"/>')
    label = EFFECTS.get(state.effect, "")
    if label:
        parts.append(f'<text x="{cx:.1f}" y="{cy + size + 12:.1f}" font-size="11" '
                     f'text-anchor="middle" fill="#333" font-family="sans-serif">{label}</text>')
    return "\n".join(parts)


def row_svg(cells: list[tuple[str, CellState]]) -> str:
    w = 90 * len(cells)
    body = []
    for i, (caption, state) in enumerate(cells):
        cx = 45 + 90 * i
        body.append(hex_svg(cx, 40, state))
        body.append(f'<text x="{cx}" y="100" font-size="11" text-anchor="middle" '
                    f'font-family="sans-serif" fill="#000">{caption}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="110" '
            f'viewBox="0 0 {w} 110"><rect width="100%" height="100%" fill="#fff"/>'
            + "\n".join(body) + "</svg>\n")


def arena_svg(picture: dict[int, CellState], coords: list[tuple[int, int]]) -> str:
    size = 18.0
    body = []
    for cell, (q, r) in enumerate(coords):
        x = 200 + size * math.sqrt(3) * (q + r / 2)
        y = 190 + size * 1.5 * r
        body.append(hex_svg(x, y, picture[cell], size).split('<text')[0])
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="380" viewBox="0 0 400 380">'
            '<rect width="100%" height="100%" fill="#fff"/>' + "\n".join(body) + "</svg>\n")


def c(name: str, effect: int = m.SOLID, facing: int = leds.NONE) -> CellState:
    return leds.cell(name, effect, facing)


def main() -> None:
    from botboard.games.twintinbots import content as C

    seats = [(colour, CellState(leds.seat_colour(s), 0, m.SOLID)) for s, colour in enumerate(C.COLOURS)]
    pictures = {
        "players": seats,
        "crystals": [(f"{C.CRYSTAL_COLOUR[p]} ({p})", CellState(leds.CRYSTAL_PALETTE[p], leds.NONE, m.SOLID))
                     for p in C.CRYSTAL_POINTS],
        "bases": [("base", CellState(leds.seat_colour(0), leds.NONE, m.SOLID)),
                  ("base to play", CellState(leds.seat_colour(0), leds.NONE, m.SPIN))],
        "obstacles": [("empty", c("floor")), ("rock", c("rock")), ("blob", c("blob")),
                      ("mud", c("mud"))],
        "teleporters": [(f"{colour} pair", c("choice", m.SOLID, mark))
                        for colour, mark in zip(C.TELEPORTER_COLOURS, leds.TELEPORTER_MARKS)],
        "facing": [(f"facing {name}", CellState(leds.seat_colour(1), f, m.SOLID))
                   for f, name in enumerate(("E", "SE", "SW", "W", "NW", "NE"))],
        "carrying": [("robot", CellState(leds.seat_colour(0), 0, m.SOLID)),
                     ("with a crystal", CellState(leds.seat_colour(0), 0, m.PULSE))],
        "countdown": [("countdown counter", c("choice"))],
        "decisions": [("candidate", c("choice", m.PULSE)), ("selected", c("choice", m.SPIN))],
        "signs": [("tile read", c("choice", m.SOLID, 0)), ("wrong slot", c("alert", m.BLINK, 0)),
                  ("zap path", c("choice", m.BLINK))],
        "winner": [("winner's base", CellState(leds.seat_colour(2), leds.NONE, m.SPIN)),
                   ("winner's robot", CellState(leds.seat_colour(2), 3, m.SPIN))],
    }
    for name, cells in pictures.items():
        (OUT / f"led-{name}.svg").write_text(row_svg(cells))
    state = GAME.new_game(2, {"teleporters": 1, "rocks": 1, "blobs": 1, "mud": 1, "track": 0}, 4)
    scene = Scene.from_state(state)
    grid = state.layout.arena
    (OUT / "led-arena.svg").write_text(arena_svg(leds.picture(scene), list(grid.coords)))
    scores = scene
    scores.winners = (0,)
    (OUT / "led-scores.svg").write_text(arena_svg(leds.score_view(scores, [(2, 1, 0), (1, 0, 1)]),
                                                  list(grid.coords)))


if __name__ == "__main__":
    main()
