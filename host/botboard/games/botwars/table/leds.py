"""The BotWars LED language: one LED per square, under a printed factory floor.

    picture(state)                  every square (engine cell index) -> CellState
    frames(before, events, after)   one picture per visible event, then picture(after)
    robot_cell(state, seat)         where a seat's robot (or its wreck) shows
    candidates(state, decision)     where each choice of a pending decision shows

Why it looks like this: walls, belts, gears, pits and the flags' numbers are
printed on the panel over the LEDs, so the LEDs show only what changes. The
reference board has one LED per square (hardware/layouts/botwars.json,
``leds_per_cell`` 1): a square cannot show a facing inside itself, and SPIN
looks the same as steady. So colour says who, the effect (steady, pulse,
blink) says what, and a robot's facing is its *nose*: the square in front of
it, lit in its colour at a quarter. Every entry is drawn in docs by
docs/img/make_pictures.py from this module.

==========================  =====================================================
what                        palette entry, effect
==========================  =====================================================
empty square                floor, steady (a faint glow, so the grid shows)
real robot                  its colour (red, blue, green, yellow), steady
virtual robot               its colour, pulse (a ghost: it touches no robot)
its facing                  <colour>-nose, steady, on the square in front of it
robots sharing a square     shared (violet): steady if one is real, pulse if all are virtual
its checkpoint              <colour>-nose, pulse (where it comes back if destroyed)
destroyed robot             its colour, blink, on its checkpoint (until reinstated)
flag                        flag (pale lime): pulse if it is some robot's next flag, steady if
                            still ahead of a robot, dark once every robot has touched it
laser beam (animation)      laser (rose), steady, along the beam
hit, damage, destroyed      damage (orange), steady, on the robot for one step
flag or checkpoint reached  flag, steady, on the robot for one step
decision choice             choice (ice white), pulse; the selected one steady (SPIN)
wrong register              alert (cyan), blink, on the robot the station programs
==========================  =====================================================

One square shows one thing: a body hides the rest, then a destroyed robot's
mark, a nose, a checkpoint, a flag; between robots the lowest seat shows. A
robot without a nose faces the edge of the board, or a robot standing in
front of it. Animation flashes are steady, not blinking: a step lasts about
0.3 s and a 400 ms blink could stay dark for all of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from bbshared import messages as m

from ....link.image import CellState
from ....session.palette import load_palette
from ....session.mapping import Candidate, Frames, Picture, scene_frames
from ...base import Decision, Event
from ...squares import Square, parse_facing, parse_square, square_name
from ..board import Board, neighbour
from ..cards import robot_colours
from ..state import ON_BOARD, State

PALETTE, INDEX, PALETTE_DOC = load_palette(Path(__file__).resolve().parent / "data" / "palette.json")
# one colour per station of the reference board: the first four robot colours
ROBOT_COLOURS: tuple[str, ...] = tuple(robot_colours()[:4])
NONE = m.NO_FACING
_FACING_WORDS = ("north", "east", "south", "west")


def look(name: str, effect: int = m.SOLID, facing: int = NONE) -> CellState:
    return CellState(INDEX[name], facing, effect)


_FLOOR = look("floor")  # frozen: one instance for every plain square


def nose(colour: str) -> str:
    return f"{colour}-nose"


# -- squares and cells --------------------------------------------------------

def cell_of(board: Board, square: Square) -> int:
    """Engine cell index of a square: rows from the south, west to east in each."""
    return (square[1] - 1) * board.width + square[0] - 1


def coords(board: Board) -> list[tuple[int, int]]:
    """Engine cell index -> layout coordinate; the layout's cells are ``(x, y)`` squares too."""
    return [(i % board.width + 1, i // board.width + 1) for i in range(board.width * board.height)]


def seat_colours(colours: Sequence[str]) -> list[str]:
    """Each seat's palette colour: its own colour if the palette has it and nobody took it
    first, else the first robot colour still free (the palette holds four)."""
    out: list[str | None] = []
    for colour in colours:
        name = colour.lower()
        out.append(name if name in ROBOT_COLOURS and name not in out else None)
    free = [c for c in ROBOT_COLOURS if c not in out]
    return [c if c is not None else (free.pop(0) if free else ROBOT_COLOURS[i % len(ROBOT_COLOURS)])
            for i, c in enumerate(out)]


# -- the scene: what stands where, followed event by event ----------------------------

@dataclass
class Bot:
    name: str  # the engine's player name, p1...
    colour: str  # palette name
    square: Square | None
    facing: int  # 0..3 N E S W
    mode: str  # real | virtual | destroyed | out
    checkpoint: Square
    flags: int

    @property
    def on_floor(self) -> bool:
        return self.square is not None and self.mode in ON_BOARD


@dataclass
class Scene:
    """A mutable picture of a state; ``flashes`` (square -> palette name) last one frame."""

    board: Board
    bots: list[Bot]  # by seat
    flashes: dict[Square, str] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: State) -> Scene:
        colours = seat_colours([p.colour or p.name for p in state.players])
        return cls(state.board, [Bot(p.name, c, p.square, p.facing, p.mode, p.checkpoint, p.flags)
                                 for p, c in zip(state.players, colours)])

    def bot(self, name: Any) -> Bot:
        for bot in self.bots:
            if bot.name == name:
                return bot
        raise KeyError(name)

    def apply(self, event: Event) -> bool:
        """Follow ``event``; True if it is worth a frame of its own."""
        self.flashes = {}
        handler = _HANDLERS.get(event.kind)
        if handler is None:
            return False
        try:
            return handler(self, event.data)
        except (KeyError, ValueError, IndexError, TypeError):
            return False  # an event it cannot follow: the exact last frame puts things right

    # -- one handler per event kind ------------------------------------------------
    def _move(self, d: Mapping[str, Any]) -> bool:
        bot = self.bot(d["robot"])
        bot.square = parse_square(d["square"])
        if "facing" in d:  # a belt turned it
            bot.facing = parse_facing(d["facing"])
        return True

    def _turn(self, d: Mapping[str, Any]) -> bool:
        self.bot(d["robot"]).facing = parse_facing(d["facing"])
        return True

    def _laser(self, d: Mapping[str, Any]) -> bool:
        for square in span_squares(str(d["squares"])):
            self.flashes[square] = "laser"
        for name in d.get("hits", []):
            self._flash(self.bot(name), "damage")
        return True

    def _board_laser(self, d: Mapping[str, Any]) -> bool:
        bot = self.bot(d["robot"])
        if bot.square is None:
            return False
        for square in turret_beam(self.board, bot.square):
            self.flashes[square] = "laser"
        return self._flash(bot, "damage")

    def _hurt(self, d: Mapping[str, Any]) -> bool:
        return self._flash(self.bot(d["robot"]), "damage")

    def _destroyed(self, d: Mapping[str, Any]) -> bool:
        bot = self.bot(d["robot"])
        self._flash(bot, "damage")
        bot.square = None
        bot.mode = "destroyed" if int(d.get("lives", 1)) > 0 else "out"
        return True

    def _checkpoint(self, d: Mapping[str, Any]) -> bool:
        bot = self.bot(d["robot"])
        bot.checkpoint = parse_square(d["square"])
        self.flashes[bot.checkpoint] = "flag"
        return True

    def _flag(self, d: Mapping[str, Any]) -> bool:
        bot = self.bot(d["robot"])
        bot.flags = int(d["flag"])
        return self._flash(bot, "flag")

    def _real(self, d: Mapping[str, Any]) -> bool:
        self.bot(d["robot"]).mode = "real"
        return True

    def _reinstate(self, d: Mapping[str, Any]) -> bool:
        bot = self.bot(d["robot"])
        bot.square, bot.facing, bot.mode = parse_square(d["square"]), parse_facing(d["facing"]), "virtual"
        return True

    def _stage_end(self, d: Mapping[str, Any]) -> bool:
        """Not drawn: the stage's summary puts every robot back where the engine has it."""
        for name, where in d["squares"].items():
            self.bot(name).square = parse_square(where) if where else None
        for name, facing in d["facings"].items():
            self.bot(name).facing = parse_facing(facing)
        return False

    def _flash(self, bot: Bot, name: str) -> bool:
        if bot.square is None:
            return False
        self.flashes[bot.square] = name
        return True


_HANDLERS: dict[str, Callable[[Scene, Mapping[str, Any]], bool]] = {
    "move": Scene._move, "push": Scene._move, "pusher": Scene._move, "conveyor": Scene._move,
    "teleport": Scene._move, "turn": Scene._turn, "gear": Scene._turn, "laser": Scene._laser,
    "board-laser": Scene._board_laser, "damage": Scene._hurt, "sacrifice": Scene._hurt,
    "destroyed": Scene._destroyed, "checkpoint": Scene._checkpoint, "flag": Scene._flag,
    "real": Scene._real, "reinstate": Scene._reinstate, "stage-end": Scene._stage_end,
}
VISIBLE = frozenset(k for k in _HANDLERS if k != "stage-end")

_SPAN = re.compile(r"^r(\d+)(?:-(\d+))?c(\d+)(?:-(\d+))?$")


def span_squares(text: str) -> list[Square]:
    """The squares of a beam as the engine writes it (``r4-6c7``, ``r5c2-4``; ``-``: none)."""
    match = _SPAN.match(text)
    if not match:
        return []
    y0, y1, x0, x1 = (int(g) if g else None for g in match.groups())
    assert y0 is not None and x0 is not None
    return [(x, y) for y in range(y0, (y1 or y0) + 1) for x in range(x0, (x1 or x0) + 1)]


def turret_beam(board: Board, target: Square) -> list[Square]:
    """The squares from the first board laser whose beam reaches ``target`` to it.

    The engine names only the robot a board laser hit; walls stop the beam as
    in the engine (raised drawbridges are left out: the last frame is exact).
    """
    for laser in board.lasers:
        here, squares = laser.square, []
        while board.on_board(here):
            squares.append(here)
            if here == target:
                return squares
            if board.wall_between(here, laser.facing):
                break
            here = neighbour(here, laser.facing)
    return [target]


# -- drawing ----------------------------------------------------------------------

def _flags(scene: Scene) -> dict[Square, CellState]:
    playing = [b for b in scene.bots if b.mode != "out"]
    out = {}
    for number, square in enumerate(scene.board.flags, start=1):
        ahead = [b for b in playing if b.flags < number]
        if ahead:
            nxt = any(b.flags + 1 == number for b in ahead)
            out[square] = look("flag", m.PULSE if nxt else m.SOLID)
    return out


def _checkpoints(scene: Scene) -> dict[Square, CellState]:
    out: dict[Square, CellState] = {}
    for bot in scene.bots:
        if bot.on_floor and bot.checkpoint != bot.square:
            out.setdefault(bot.checkpoint, look(nose(bot.colour), m.PULSE))
    return out


def _noses(scene: Scene) -> dict[Square, CellState]:
    out: dict[Square, CellState] = {}
    for bot in scene.bots:
        if bot.on_floor:
            front = neighbour(bot.square, bot.facing)  # type: ignore[arg-type]
            if scene.board.on_board(front):
                out.setdefault(front, look(nose(bot.colour)))
    return out


def _wrecks(scene: Scene) -> dict[Square, CellState]:
    out: dict[Square, CellState] = {}
    for bot in scene.bots:
        if bot.mode == "destroyed":
            out.setdefault(bot.checkpoint, look(bot.colour, m.BLINK))
    return out


def _bodies(scene: Scene) -> dict[Square, CellState]:
    here: dict[Square, list[Bot]] = {}
    for bot in scene.bots:
        if bot.on_floor:
            here.setdefault(bot.square, []).append(bot)  # type: ignore[arg-type]
    out = {}
    for square, bots in here.items():
        effect = m.SOLID if any(b.mode == "real" for b in bots) else m.PULSE
        # the facing rides along for the console's arrow; one LED cannot show it
        out[square] = look(bots[0].colour, effect, bots[0].facing) if len(bots) == 1 \
            else look("shared", effect)
    return out


def draw(scene: Scene) -> Picture:
    """Every square -> its look: the layers from the bottom up, then this frame's flashes."""
    board = scene.board
    looks: dict[Square, CellState] = {}
    for layer in (_flags, _checkpoints, _noses, _wrecks, _bodies):
        looks.update(layer(scene))
    looks.update({square: look(name) for square, name in scene.flashes.items()})
    out = dict.fromkeys(range(board.width * board.height), _FLOOR)
    for square, state in looks.items():
        if board.on_board(square):
            out[cell_of(board, square)] = state
    return out


def picture(state: State) -> Picture:
    return draw(Scene.from_state(state))


def frames(before: State, events: list[Event], after: State) -> Frames:
    """(event, picture) per visible event, followed on a scene of ``before``; then
    (None, picture(after)), exact whatever the scene made of the events."""
    return scene_frames(Scene.from_state(before), events, draw, picture(after))


def robot_cell(state: State, seat: int) -> int | None:
    """The seat's robot's square; a destroyed robot's checkpoint (its mark); None once out."""
    robot = state.players[seat]
    if robot.on_board and robot.square is not None:
        return cell_of(state.board, robot.square)
    if robot.mode == "destroyed":
        return cell_of(state.board, robot.checkpoint)
    return None


# -- decisions --------------------------------------------------------------------

def candidates(state: State, decision: Decision) -> list[Candidate]:
    """A reinstated robot's facings on the squares around its checkpoint (the checkpoint
    itself for a side off the board); repair or option both on the robot's square."""
    robot = state.players[decision.player]
    board = state.board
    out = []
    for choice in decision.choices:
        word = choice.split()[-1]
        if decision.kind == "reinstate":
            facing = parse_facing(word)
            front = neighbour(robot.checkpoint, facing)
            square = front if board.on_board(front) else robot.checkpoint
            words = f"come back at {square_name(robot.checkpoint)} facing {_FACING_WORDS[facing]}"
        else:
            square = robot.square if robot.square is not None else robot.checkpoint
            words = "repair 2 HP" if word == "repair" else "take an option"
        out.append(Candidate(choice, cell_of(board, square), words))
    return out


# -- the docs' legend -------------------------------------------------------------

def legend() -> list[tuple[str, CellState]]:
    """(what, look) for every element of the language, in the docstring's order."""
    red = ROBOT_COLOURS[0]
    return [
        ("empty square", look("floor")),
        ("real robot", look(red, m.SOLID, 0)),
        ("virtual robot", look(red, m.PULSE, 0)),
        ("its nose", look(nose(red))),
        ("robots sharing", look("shared")),
        ("all virtual", look("shared", m.PULSE)),
        ("its checkpoint", look(nose(red), m.PULSE)),
        ("destroyed", look(red, m.BLINK)),
        ("next flag", look("flag", m.PULSE)),
        ("flag ahead", look("flag")),
        ("laser beam", look("laser")),
        ("hit", look("damage")),
        ("choice", look("choice", m.PULSE)),
        ("selected", look("choice", m.SPIN)),
        ("wrong register", look("alert", m.BLINK)),
    ]
