"""The Goblins, Inc. LED language: one LED under each square of the two construction yards.

Robot A is built on the yard on the left (layout station yard-a), robot B on
the right. The tiles lie on the squares; each square's LED shines around its
tile, so a tile's colour frames it.

==========================  ==========================================================
what                        palette entry, effect
==========================  ==========================================================
empty square                floor, steady (a faint glow, so the yard shows)
square the blueprint blocks blocked (dim slate), steady
the cockpit                 cockpit (gold), steady; blinking once it holds no goblin
a tile                      its type: weapon (scarlet), armor (azure), engine (emerald),
                            decoration (violet); steady when joined to the cockpit
                            by metal, breathing when it is loose (it will fall off)
a tile under a defense      token (lime), steady (combat only)
token
the tile being placed       choice (ice white), breathing; the squares it joins by
                            metal as it is turned now light ice white, steady
the lines the dice name     dice (sky blue), for one step after a roll
a hit                       hit (orange) on the square, for one step; then the square
                            goes dark if its tile fell off
a decision's choices        choice (ice white), breathing, on the cockpit (secret choices)
                            or the square they name (tokens, Duct Tape, Crane)
something to fix            alert (cyan), blinking, on the square to fix
==========================  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bbshared import messages as m

from ....link.image import CellState
from ....session.mapping import Candidate, Frames, Picture, scene_frames
from ....session.palette import load_palette
from ...base import Decision, Event
from ..defense import covering
from ..state import State
from ..tiles import load_box
from ..yard import ALL_SQUARES, COCKPIT, SIDE_NAMES, SIZE, connected, line_squares, xy

PALETTE, INDEX, PALETTE_DOC = load_palette(Path(__file__).resolve().parent / "data" / "palette.json")
TYPE_COLOURS = {"weapon": "weapon", "armor": "armor", "engine": "engine", "decoration": "decoration"}
YARD_GAP = 1  # empty columns between the two yards on the layout


def look(name: str, effect: int = m.SOLID) -> CellState:
    return CellState(INDEX[name], m.NO_FACING, effect)


def cell_of(team: int, square: str) -> int:
    """Engine cell index: robot A's squares r1c1..r5c5 first, then robot B's."""
    return team * SIZE * SIZE + ALL_SQUARES.index(square)


def coords() -> list[tuple[int, int]]:
    """Where each engine cell lies on the layout: the yards side by side, a column apart."""
    out = []
    for team in (0, 1):
        x0 = team * (SIZE + YARD_GAP)
        out += [(x0 + xy(s)[0], xy(s)[1]) for s in ALL_SQUARES]
    return out


@dataclass
class Scene:
    """The yards while an action's events play out."""

    state: State
    yards: list[dict[str, Any]] = field(default_factory=list)
    sides: dict[int, int] = field(default_factory=dict)  # attacking team -> side of the enemy hit
    flashes: dict[int, str] = field(default_factory=dict)  # engine cell -> palette name

    @classmethod
    def of(cls, state: State) -> Scene:
        sides = {t: r["side"] for t, r in enumerate(state.reveal) if "side" in r}
        return cls(state, [dict(r.yard) for r in state.robots], sides)

    def apply(self, event: Event) -> bool:
        """Follow one event; True if it shows."""
        self.flashes = {}
        kind, data = event.kind, event.data
        team = data.get("team")
        if kind == "place":
            mine = self.state.team_of(int(str(data["player"])[1:]) - 1)
            self.yards[mine][data["square"]] = [data["tile"], "NESW".index(data["rot"])]
            self.flashes[cell_of(mine, data["square"])] = "choice"
        elif kind == "destroyed" and team is not None:
            self.yards[team].pop(data["square"], None)
            self.flashes[cell_of(team, data["square"])] = "hit"
        elif kind == "token-lost" and team is not None:
            self.flashes.update({cell_of(team, s): "hit" for s in str(data["token"]).split("+")})
        elif kind == "goblin-out" and team is not None:
            self.flashes[cell_of(team, COCKPIT)] = "hit"
        elif kind == "aim" and team is not None:
            self.sides[team] = SIDE_NAMES.index(data["side"])
        elif kind == "roll" and team is not None and team in self.sides:
            box = load_box(self.state.box)
            for die in data.get("dice", []):
                if die:
                    squares = line_squares(box, self.sides[team], die)
                    self.flashes.update({cell_of(1 - team, s): "dice" for s in squares})
            return bool(self.flashes)
        else:
            return False
        return True


def draw(scene: Scene) -> Picture:
    state = scene.state
    box = load_box(state.box)
    out: Picture = {}
    for team, robot in enumerate(state.robots):
        yard = scene.yards[team]
        joined = connected(yard, box)
        fighting = state.stage == "combat"
        for square in ALL_SQUARES:
            cell = cell_of(team, square)
            if square == COCKPIT:
                empty = fighting and not robot.goblins
                out[cell] = look("cockpit", m.BLINK if empty else m.SOLID)
            elif square in yard:
                name = TYPE_COLOURS[box.tiles[yard[square][0]].type]
                if fighting and covering(robot, square):
                    name = "token"
                out[cell] = look(name, m.SOLID if square in joined else m.PULSE)
            else:
                out[cell] = look("blocked" if square in robot.blocked else "floor")
    for cell, name in scene.flashes.items():
        out[cell] = look(name)
    return out


def picture(state: State) -> Picture:
    return draw(Scene.of(state))


def frames(before: State, events: list[Event], after: State) -> Frames:
    if len(before.robots) != len(after.robots) or before.round != after.round:
        return [(None, picture(after))]  # a new round: new yards
    return scene_frames(Scene.of(before), events, draw, picture(after))


def candidates(state: State, decision: Decision) -> list[Candidate]:
    """A choice that names squares shows on the first of them (the defender's token, the tile
    Duct Tape or Crane works on); any other (secret controllers, agendas, tiles kept, the
    order of the dice) on the decider's cockpit: the phone says them in words."""
    team = state.team_of(decision.player)
    out = []
    for choice in decision.choices:
        words = choice.split(" ", 1)[1] if " " in choice else choice
        squares = [w for w in words.replace("+", " ").split() if w in ALL_SQUARES]
        cell = cell_of(team, squares[0] if squares else COCKPIT)
        out.append(Candidate(choice, cell, words))
    return out
