"""The Laser Tanks LED language: one LED per square of the 6x6 arena.

==========================  ==================================================
what                        palette entry, effect
==========================  ==================================================
empty square                floor, steady (a faint glow, so the grid shows)
a tank                      its colour (red, blue), steady
the square a tank faces     its colour dimmed (<colour>-nose), pulse
a laser beam (animation)    laser on every square it crosses
a hit or a bump             hit on the tank, for one step
something to fix            alert, blink, on the tank of the station to fix
==========================  ==================================================

Programs never show: they are secret until both are laid, and then they play
out as moves, turns and beams.
"""

from __future__ import annotations

from pathlib import Path

from bbshared import messages as m
from botboard.games.base import Decision, Event
from botboard.games.squares import Square, parse_facing, parse_square
from botboard.link.image import CellState
from botboard.session.mapping import Candidate, Frames, Picture
from botboard.session.palette import load_palette

from ..rules import ahead, on_arena
from ..state import SEATS, SIZE, State
from ..tiles import TANKS

PALETTE, INDEX, PALETTE_DOC = load_palette(Path(__file__).resolve().parent / "data" / "palette.json")


def look(name: str, effect: int = m.SOLID) -> CellState:
    return CellState(INDEX[name], m.NO_FACING, effect)


def cell_of(square: Square) -> int:
    """Engine cell index: rows from the south, west to east."""
    return (square[1] - 1) * SIZE + square[0] - 1


def coords() -> list[tuple[int, int]]:
    return [(i % SIZE + 1, i // SIZE + 1) for i in range(SIZE * SIZE)]


def draw(tanks: list[tuple[Square, int]], flashes: dict[Square, str]) -> Picture:
    """``tanks``: each seat's (square, facing); ``flashes``: squares lit for one step."""
    out: Picture = dict.fromkeys(range(SIZE * SIZE), look("floor"))
    for seat, (square, facing) in enumerate(tanks):
        if on_arena(nose := ahead(square, facing)):
            out[cell_of(nose)] = look(f"{TANKS[seat]}-nose", m.PULSE)
    for seat, (square, _) in enumerate(tanks):
        out[cell_of(square)] = look(TANKS[seat])
    for square, name in flashes.items():
        out[cell_of(square)] = look(name)
    return out


def picture(state: State) -> Picture:
    return draw([(t.square, t.facing) for t in state.tanks], {})


def frames(before: State, events: list[Event], after: State) -> Frames:
    """A picture per move, turn, bump and shot, in order; the last is ``picture(after)``."""
    tanks = [(t.square, t.facing) for t in before.tanks]
    out: Frames = []
    for event in events:
        flashes: dict[Square, str] = {}
        seat = SEATS.index(event.data["tank"]) if event.data.get("tank") in SEATS else None
        if seat is None:
            continue
        square, facing = tanks[seat]
        if event.kind == "move":
            tanks[seat] = (parse_square(event.data["square"]), facing)
        elif event.kind == "turn":
            tanks[seat] = (square, parse_facing(event.data["facing"]))
        elif event.kind == "bump":
            flashes[square] = "hit"
        elif event.kind == "fire":
            flashes = {parse_square(s): "laser" for s in event.data["beam"]}
            if event.data["hit"]:
                flashes[tanks[1 - seat][0]] = "hit"
        else:
            continue
        out.append((event, draw(tanks, flashes)))
    out.append((None, picture(after)))
    return out


def robot_cell(state: State, seat: int) -> int | None:
    return cell_of(state.tanks[seat].square)


def candidates(state: State, decision: Decision) -> list[Candidate]:
    return []  # the game asks nothing: a program is all a seat does
