"""The VOLT LED language: one LED per square of the 8x8 arena, under a printed arena.

Energy walls, lightning barriers, pits, workshops, high-voltage spaces and the
VP spaces' numbers are printed on the panel; the LEDs show what moves.

==========================  ==========================================================
what                        palette entry, effect
==========================  ==========================================================
empty square                floor, steady (a faint glow, so the grid shows)
an operator's robot         its colour (red, blue, green, yellow), steady
a KillBot                   killbot (violet), steady; the square it faces pulses violet
a mine                      its owner's colour dimmed (<colour>-mine), steady
a VP token                  vp (pale lime), pulse
laser shot (animation)      laser (rose) on the square it hits (CROSSFIRE: all four)
damage                      damage (orange) on the robot, for one step
a detonation, a discharge   damage (orange) on the space and the eight around it
a decision's choices        choice (ice white), pulse; the one selected steady
something to fix            alert, blink, on the robot of the station to fix
==========================  ==========================================================

A robot hides a token or a mine under it. Programs never show: the dice
are secret until every operator has confirmed, and then they play out as
moves, shots and blasts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bbshared import messages as m

from ....link.image import CellState
from ....session.palette import load_palette
from ....session.mapping import Candidate, Frames, Picture, scene_frames
from ...base import Decision, Event
from ...squares import Square, parse_square
from ..grid import step
from ..state import State

PALETTE, INDEX, PALETTE_DOC = load_palette(Path(__file__).resolve().parent / "data" / "palette.json")
SEAT_COLOURS = ("red", "blue", "green", "yellow")


def look(name: str, effect: int = m.SOLID) -> CellState:
    return CellState(INDEX[name], m.NO_FACING, effect)


_FLOOR = look("floor")


def cell_of(state: State, square: Square) -> int:
    """Engine cell index: rows from the south, west to east (the layout's order)."""
    return (square[1] - 1) * state.arena.width + square[0] - 1


def coords(state: State) -> list[tuple[int, int]]:
    width = state.arena.width
    return [(i % width + 1, i // width + 1) for i in range(width * state.arena.height)]


def robot_look(seat: int, killbot: bool, effect: int = m.SOLID) -> CellState:
    return look("killbot" if killbot else SEAT_COLOURS[seat % 4], effect)


@dataclass
class Scene:
    """What stands where while a round's events play out."""

    state: State
    robots: dict[str, Square | None] = field(default_factory=dict)
    mines: dict[Square, int] = field(default_factory=dict)
    tokens: set[Square] = field(default_factory=set)
    flashes: dict[Square, str] = field(default_factory=dict)

    @classmethod
    def of(cls, state: State) -> Scene:
        return cls(state, {r.name: r.square if r.alive else None for r in state.robots},
                   dict(state.mines), set(state.tokens))

    def apply(self, event: Event) -> bool:
        """Follow one event; True if it shows (a picture of it is worth a step)."""
        self.flashes = {}
        kind, data = event.kind, event.data
        square = _square(data.get("square"))
        robot = data.get("robot")
        if kind in ("move", "pushed", "jump", "teleport", "reboot") and square and robot:
            self.robots[robot] = square
        elif kind == "destroyed" and robot:
            self.robots[robot] = None
        elif kind == "damage" and robot and self.robots.get(robot):
            self.flashes[self.robots[robot]] = "damage"  # type: ignore[index]
        elif kind == "fire" and _square(data.get("hit")):
            self.flashes[_square(data["hit"])] = "laser"  # type: ignore[index]
        elif kind == "crossfire" and data.get("hits"):
            self.flashes.update({parse_square(hit): "laser" for hit in data["hits"]})
        elif kind in ("detonation", "discharge") and square:
            self.flashes.update({s: "damage" for s in (square, *(step(square, k) for k in range(8)))})
        elif kind == "mine" and square:
            self.mines.pop(square, None)
            self.flashes[square] = "damage"
        elif kind == "mine-laid" and square and robot:
            self.mines[square] = _seat(self.state, robot)
        elif kind == "mines-home":
            for name in data.get("squares", []):
                self.mines.pop(parse_square(name), None)
        elif kind == "token" and square:
            self.tokens.discard(square)
        else:
            return False
        return True


def _square(text: Any) -> Square | None:
    return parse_square(text) if isinstance(text, str) and text else None


def _seat(state: State, name: str) -> int:
    return next(r.seat for r in state.robots if r.name == name)


def draw(scene: Scene) -> Picture:
    state = scene.state
    out: Picture = dict.fromkeys(range(state.arena.width * state.arena.height), _FLOOR)
    for square in scene.tokens:
        out[cell_of(state, square)] = look("vp", m.PULSE)
    for square, owner in scene.mines.items():
        out[cell_of(state, square)] = look(f"{SEAT_COLOURS[owner % 4]}-mine")
    for robot in state.robots:  # a KillBot's facing: the square in front of it pulses violet
        stands = scene.robots.get(robot.name)
        if robot.killbot and stands is not None and state.arena.on_arena(nose := step(stands, 2 * robot.facing)):
            out[cell_of(state, nose)] = look("killbot", m.PULSE)
    for robot in state.robots:
        stands = scene.robots.get(robot.name)
        if stands is not None:
            out[cell_of(state, stands)] = robot_look(robot.seat, robot.killbot)
    for square, name in scene.flashes.items():
        if state.arena.on_arena(square):
            out[cell_of(state, square)] = look(name)
    return out


def picture(state: State) -> Picture:
    return draw(Scene.of(state))


def frames(before: State, events: list[Event], after: State) -> Frames:
    return scene_frames(Scene.of(before), events, draw, picture(after))


def robot_cell(state: State, seat: int) -> int | None:
    robot = state.robots[seat]
    return cell_of(state, robot.square) if robot.alive and robot.square else None


def candidates(state: State, decision: Decision) -> list[Candidate]:
    """Every choice of a VOLT decision on the deciding robot's square (or the start space a
    reboot names): previous/next step through them, the phone shows them in words."""
    robot = state.robots[decision.player]
    out = []
    for choice in decision.choices:
        words = choice.split(" ", 1)[1] if " " in choice else choice
        target = _square(words.split()[-1]) if words.startswith("start ") else robot.square
        cell = cell_of(state, target) if target else 0
        out.append(Candidate(choice, cell, words))
    return out
