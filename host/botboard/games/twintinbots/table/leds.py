"""The LED language: a scene (and what the session wants to point at) -> cell states.

One cell state per hex: a palette entry, a facing (the bright side LED) and
an effect. The palette is data (data/palette.json); docs/playing.md shows
every element, drawn by docs/img/make_pictures.py from this same code;
docs/palettes.md lists the colours and why they are these.

=====================  ================================================
element                cell state
=====================  ================================================
empty hex              floor, solid (a faint glow, so the arena shows)
base                   player colour, solid; the seat to play: spin
robot                  player colour, solid, facing side bright
robot with a crystal   player colour, pulse, facing side bright
crystal                crystal-blue / -green / -pink, solid
rock / blob / mud      rock grey / blob orange / mud brown, solid
teleporter             choice (ice white), the pair's mark side bright
countdown              choice (ice white) on the first N empty corner hexes
zap path / hit         choice (ice white), blink (one animation step)
decision candidate     choice (ice white), pulse; the one selected: spin
wrong program slot     alert (cyan), blink, on the robot the slot programs
tile acknowledged      choice (ice white) on that robot for a moment
winner                 winners' bases and robots spin
=====================  ================================================
"""

from __future__ import annotations

from pathlib import Path

from bbshared import messages as m

from ....link.image import CellState
from ....session.palette import load_palette
from .. import content as C
from .scene import Scene

# a crystal's meaning says its points as the rules data gives them
_MEANINGS = {f"crystal-{C.CRYSTAL_COLOUR[p]}": f"a {C.CRYSTAL_COLOUR[p]} crystal ({p} points)"
             for p in C.CRYSTAL_POINTS}
PALETTE, INDEX, PALETTE_DOC = load_palette(Path(__file__).resolve().parent / "data" / "palette.json", _MEANINGS)
TELEPORTER_MARKS: tuple[int, ...] = tuple(PALETTE_DOC["teleporter_marks"][c] for c in C.TELEPORTER_COLOURS)
CRYSTAL_PALETTE = {p: INDEX[f"crystal-{C.CRYSTAL_COLOUR[p]}"] for p in C.CRYSTAL_POINTS}
NONE = m.NO_FACING


def seat_colour(seat: int) -> int:
    return INDEX[C.COLOURS[seat]]


def cell(name: str, effect: int = m.SOLID, facing: int = NONE) -> CellState:
    return CellState(INDEX[name], facing, effect)


def corners(scene: Scene) -> list[int]:
    """The six corner hexes of the arena, clockwise from the east one."""
    radius = scene.grid.radius
    out = []
    for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)):
        out.append(scene.grid.index[(dq * radius, dr * radius)])
    return out


def picture(scene: Scene) -> dict[int, CellState]:
    """Every arena hex (engine cell index) -> what it shows for this scene."""
    out: dict[int, CellState] = {c: cell("floor") for c in range(scene.grid.size)}
    for c in scene.mud:
        out[c] = cell("mud")
    for c, pair in scene.teleporters.items():
        out[c] = cell("choice", m.SOLID, TELEPORTER_MARKS[pair])
    for c in scene.rocks:
        out[c] = cell("rock")
    for c in scene.blobs:
        out[c] = cell("blob")
    for c, points in scene.crystals.items():
        out[c] = CellState(CRYSTAL_PALETTE[points], NONE, m.SOLID)
    if scene.countdown >= 0:
        free = [c for c in corners(scene) if c not in scene.crystals and c not in scene.blobs
                and scene.robot_at(c) is None and c not in scene.bases]
        for c in free[:scene.countdown]:
            out[c] = cell("choice")
    for c, seat in scene.bases.items():
        effect = m.SPIN if (seat == scene.active or seat in scene.winners) else m.SOLID
        out[c] = CellState(seat_colour(seat), NONE, effect)
    for rid, robot in scene.robots.items():
        effect = m.PULSE if robot.load else m.SOLID
        if rid // 2 in scene.winners:
            effect = m.SPIN
        out[robot.cell] = CellState(seat_colour(rid // 2), robot.face, effect)
    for c, what in scene.flashes.items():
        if what == "deliver":
            out[c] = CellState(out[c].palette, NONE, m.SPIN)
        else:
            out[c] = cell("choice", m.BLINK if what == "zap" else m.SOLID)
    return out


def robot_mark(scene: Scene, rid: int, name: str, effect: int) -> tuple[int, CellState]:
    robot = scene.robots[rid]
    return robot.cell, CellState(INDEX[name], robot.face, effect)


def score_view(scene: Scene, delivered: list[tuple[int, int, int]]) -> dict[int, CellState]:
    """Each base's delivered crystals as a row of crystal-coloured hexes nearest that base."""
    out = {c: cell("off", m.OFF) for c in range(scene.grid.size)}
    coords = scene.grid.coords
    taken: set[int] = set(scene.bases)
    for base, seat in scene.bases.items():
        out[base] = CellState(seat_colour(seat), NONE, m.SPIN if seat in scene.winners else m.SOLID)
        gems = [p for p, n in zip(C.CRYSTAL_POINTS, delivered[seat]) for _ in range(n)]
        near = sorted((c for c in range(scene.grid.size) if c not in taken),
                      key=lambda c: (abs(coords[c][0] - coords[base][0])
                                     + abs(coords[c][1] - coords[base][1])
                                     + abs(coords[c][0] + coords[c][1] - coords[base][0]
                                           - coords[base][1]), c))
        for c, points in zip(near, gems):
            out[c] = CellState(CRYSTAL_PALETTE[points], NONE, m.SOLID)
            taken.add(c)
    return out
