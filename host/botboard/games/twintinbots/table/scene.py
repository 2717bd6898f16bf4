"""What stands where, as the LEDs show it: a mutable picture of a game state.

The animation needs the arena between two engine states: it builds a
``Scene`` from the state before a turn and moves pieces as each event says
(a robot moves, turns, loads...). The engine's events name the robot and the
destination; where an event leaves something implicit (which object a push
moved), the scene infers it from what stands next to the destination. The
last frame of every turn is built from the engine's state itself, so a
guess can never outlive the animation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...base import Event
from .. import content as C
from ..hexgrid import Arena, distance
from ..state import BLOB, CRYSTAL0, State


@dataclass
class Robot:
    cell: int
    face: int
    load: int  # points of the crystal carried, 0 for none


@dataclass
class Scene:
    grid: Arena
    mnbr: tuple[tuple[int, ...], ...]
    bases: dict[int, int]  # cell -> seat
    rocks: set[int]
    mud: set[int]
    teleporters: dict[int, int]  # cell -> pair index
    robots: dict[int, Robot]
    crystals: dict[int, int]  # cell -> points
    blobs: set[int]
    active: int | None
    countdown: int
    winners: tuple[int, ...] = ()
    flashes: dict[int, str] = field(default_factory=dict)  # cell -> "zap" / "deliver" / "hit"

    @classmethod
    def from_state(cls, state: State) -> "Scene":
        layout = state.layout
        grid = layout.arena
        return cls(
            grid=grid, mnbr=layout.mnbr,
            bases={c: s for s, c in enumerate(layout.bases)},
            rocks=set(layout.rocks), mud=set(layout.mud),
            teleporters={c: i for i, pair in enumerate(layout.teleporters) for c in pair},
            robots={r: Robot(state.cell[r], state.face[r], state.load[r])
                    for r in range(len(state.cell))},
            crystals={c: o - CRYSTAL0 for c, o in enumerate(state.occ) if CRYSTAL0 < o < BLOB},
            blobs={c for c, o in enumerate(state.occ) if o == BLOB},
            active=None if state.result else state.player,
            countdown=state.countdown,
            winners=state.result[1] if state.result else ())

    # -- lookups ------------------------------------------------------------------
    def cell(self, name: Any) -> int:
        return self.grid.cell(str(name))

    def robot_at(self, cell: int) -> int | None:
        for rid, robot in self.robots.items():
            if robot.cell == cell:
                return rid
        return None

    def front(self, rid: int) -> int:
        robot = self.robots[rid]
        return self.grid.nbr[robot.cell][robot.face]

    def _movable_next_to(self, dest: int, near: int, exclude: int | None) -> int | None:
        """The pushable thing beside ``dest`` nearest ``near``: what a push just moved."""
        coords = self.grid.coords
        found = []
        for c in range(self.grid.size):
            if dest not in self.mnbr[c] or c == dest:
                continue
            rid = self.robot_at(c)
            if (rid is not None and rid != exclude) or c in self.crystals or c in self.blobs:
                found.append(c)
        if not found:
            return None
        return min(found, key=lambda c: distance(coords[c], coords[near]))

    def _relocate(self, src: int, dst: int) -> None:
        rid = self.robot_at(src)
        if rid is not None:
            self.robots[rid].cell = dst
        elif src in self.crystals:
            self.crystals[dst] = self.crystals.pop(src)
        elif src in self.blobs:
            self.blobs.discard(src)
            self.blobs.add(dst)

    # -- events ---------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        """Move pieces as ``event`` says; set ``flashes`` for this frame only."""
        self.flashes = {}
        d = event.data
        kind = event.kind
        rid = d.get("robot")
        try:
            handler = _HANDLERS.get(kind)
            if handler is not None:
                handler(self, d, rid)
        except (KeyError, ValueError, IndexError, TypeError):
            pass  # a scene that cannot follow an event waits for the exact final frame

    def _move(self, d: Any, rid: Any) -> None:
        self.robots[rid].cell = self.cell(d["to"])

    def _turn(self, d: Any, rid: Any) -> None:
        self.robots[rid].face = int(d["facing"])

    def _push(self, d: Any, rid: Any) -> None:
        dest = self.cell(d["to"])
        if rid is not None:
            near = self.robots[rid].cell
        else:
            near = min(self.blobs, key=lambda b: distance(self.grid.coords[b], self.grid.coords[dest]))
        src = self._movable_next_to(dest, near, rid)
        if src is not None:
            self._relocate(src, dest)

    def _blob(self, d: Any, rid: Any) -> None:
        dest = self.cell(d["to"])
        src = min((b for b in self.blobs if dest in self.mnbr[b]),
                  key=lambda b: 0, default=None)
        if src is not None:
            self._relocate(src, dest)

    def _load(self, d: Any, rid: Any) -> None:
        front = self.front(rid)
        if front in self.crystals:
            self.robots[rid].load = self.crystals.pop(front)
            self.flashes[front] = "hit"

    def _steal(self, d: Any, rid: Any) -> None:
        victim = self.robots[d["target"]]
        self.robots[rid].load, victim.load = victim.load, 0

    def _unload(self, d: Any, rid: Any) -> None:
        carried = self.robots[rid].load
        self.robots[rid].load = 0
        if "to" in d:
            self.crystals[self.cell(d["to"])] = carried
        elif "target" in d:
            self.robots[d["target"]].load = carried
        elif "base" in d:
            seat = C.COLOURS.index(d["base"])
            for cell, s in self.bases.items():
                if s == seat:
                    self.flashes[cell] = "deliver"

    def _deliver(self, d: Any, rid: Any) -> None:
        for cell, s in self.bases.items():
            if s == d["seat"]:
                self.flashes[cell] = "deliver"

    def _enter(self, d: Any, rid: Any) -> None:
        cell = self.cell(d["at"])
        self.crystals[cell] = C.CRYSTAL_BY_NAME[d["crystal"]]
        self.flashes[cell] = "hit"

    def _zap(self, d: Any, rid: Any) -> None:
        robot = self.robots[rid]
        target = self.robots[d["target"]].cell if "target" in d else (
            self.cell(d["at"]) if "at" in d else -1)
        cell = self.grid.nbr[robot.cell][robot.face]
        steps = 0
        while cell >= 0 and steps < 2 * self.grid.radius + 1:
            self.flashes[cell] = "zap"
            if cell == target or (target < 0 and steps >= 1):
                break
            cell = self.grid.nbr[cell][robot.face]
            steps += 1
        if target >= 0:
            self.flashes[target] = "hit"


_HANDLERS = {
    "move": Scene._move, "jump": Scene._move, "turn": Scene._turn, "push": Scene._push,
    "blob": Scene._blob, "load": Scene._load, "steal": Scene._steal, "unload": Scene._unload,
    "deliver": Scene._deliver, "enter": Scene._enter, "zap": Scene._zap, "fizzle": Scene._zap,
}
