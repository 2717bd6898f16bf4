"""VOLT game state: robots, dice programs, mines, VP tokens, decks, and the replay record.

A round's resolution (activation, resolution, the next preparation) runs as
straight-line code; when an operator must choose, the engine stops, keeps a
snapshot of the state from before the resolution and the answers so far, and
replays from the snapshot once the answer comes (see ``ctx.Ctx.ask``). States
round-trip through JSON; ``clone`` copies everything a rule may change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..base import JSON, ScenarioError
from ..fields import BadValue, each, entries, number_key, parsing, reading_state
from .arena import Arena, load_arena
from .grid import FACINGS, KEYS, UNITS, Square, parse_key, parse_square, square_name
from .modules import module
from .monitor import Monitor, check, load_monitor

PRESETS = ("ask", "always", "never")


@dataclass
class Die:
    unit: int  # 1..3
    colour: str  # "red" | "blue"
    key: int  # 0..7; for a KillBot relative to its facing (0 = ahead)
    number: int  # 1..6
    done: bool = False
    remote_by: int | None = None  # seat of the operator who moved it by REMOTE CONTROL

    def name(self) -> str:
        return f"{UNITS[self.unit - 1]}:{self.colour[0].upper()}{self.number}{KEYS[self.key]}"

    def to_json(self) -> JSON:
        doc: dict[str, JSON] = {"die": self.name(), "done": self.done}
        if self.remote_by is not None:
            doc["remote_by"] = self.remote_by
        return doc

    @classmethod
    def parse(cls, text: str) -> Die:
        unit, _, rest = text.partition(":")
        if unit not in UNITS or len(rest) < 3 or rest[0] not in "RB" or not rest[1].isdigit():
            raise BadValue(f"bad die {text!r}: expected UNIT:COLOUR NUMBER KEY, e.g. II:R3NE")
        return cls(UNITS.index(unit) + 1, "red" if rest[0] == "R" else "blue", parse_key(rest[2:]), int(rest[1]))

    @classmethod
    def from_json(cls, doc: Any) -> Die:
        if isinstance(doc, str):
            return cls.parse(doc)
        die = cls.parse(doc["die"])
        die.done = bool(doc.get("done", False))
        die.remote_by = doc.get("remote_by")
        return die


@dataclass
class Robot:
    seat: int  # 0-based; humans first, then KillBots
    name: str  # p1.. for operators, k3.. for KillBots (the seat number)
    side: int
    killbot: bool = False
    square: Square | None = None
    facing: int = 0  # KillBots only: 0..3 N E S W
    damage: int = 0
    destroyed: bool = False  # off the arena until the next Phase 0
    vp: int = 0
    start_number: int = 0
    program: list[Die] = field(default_factory=list)
    submitted: bool = False
    monitor: dict[int, str] = field(default_factory=dict)  # slot -> equipped module
    inventory: list[str] = field(default_factory=list)
    presets: dict[str, str] = field(default_factory=dict)
    mines_held: int = 0  # mine tokens on the MINES card
    shield: int = 0  # damage tokens on the SHIELD

    @property
    def alive(self) -> bool:
        return self.square is not None and not self.destroyed

    @property
    def modules(self) -> list[str]:
        """The equipped modules, in slot order."""
        return [self.monitor[s] for s in sorted(self.monitor)]

    def has(self, module: str) -> bool:
        return module in self.monitor.values()

    def preset(self, module: str) -> str:
        return self.presets.get(module, "ask")

    def clone(self) -> Robot:
        copy = Robot(**self.__dict__)
        copy.program = [Die(**d.__dict__) for d in self.program]
        copy.monitor, copy.inventory = dict(self.monitor), list(self.inventory)
        copy.presets = dict(self.presets)
        return copy

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat, "side": self.side, "killbot": self.killbot,
            "square": square_name(self.square) if self.square else None,
            "facing": FACINGS[self.facing] if self.killbot else None,
            "damage": self.damage, "destroyed": self.destroyed, "vp": self.vp,
            "start_number": self.start_number, "submitted": self.submitted,
            "program": [d.to_json() for d in self.program],
            "monitor": {str(s): m for s, m in sorted(self.monitor.items())},
            "inventory": list(self.inventory),
            "presets": dict(sorted(self.presets.items())),
            "mines_held": self.mines_held, "shield": self.shield,
        }

    @classmethod
    def from_json(cls, name: str, doc: Mapping[str, Any], base: Robot | None = None) -> Robot:
        robot = base.clone() if base else Robot(int(doc.get("seat", 0)), name, int(doc.get("side", 1)))
        for key, value in doc.items():
            with parsing(key):
                _set(robot, key, value)
        return robot


def _set(robot: Robot, key: str, value: Any) -> None:
    if key == "square":
        robot.square = parse_square(value) if value else None
    elif key == "facing":
        if value is not None:
            if str(value).upper() not in ("N", "E", "S", "W"):
                raise BadValue(f"facing {value!r}: expected N, E, S or W")
            robot.facing = FACINGS.index(str(value).upper())
    elif key == "program":
        robot.program = each(value, Die.from_json)
    elif key == "inventory":
        robot.inventory = [m.id for m in each(value, module)]
    elif key == "modules":  # a list: slots 1, 2, ... until the position places them (position.py)
        robot.monitor = {slot: m.id for slot, m in enumerate(each(value, module), start=1)}
    elif key == "monitor":
        robot.monitor = entries(value, number_key(int), lambda m: module(m).id)
    elif key == "presets":
        robot.presets = entries(value, lambda name: module(name).id, _preset)
    elif key in ("seat", "side", "damage", "vp", "start_number", "mines_held", "shield"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadValue(f"expected a whole number, got {value!r}")
        setattr(robot, key, value)
    elif key in ("killbot", "destroyed", "submitted"):
        setattr(robot, key, bool(value))
    else:
        raise BadValue(f"unknown robot field {key!r}")


def _preset(value: Any) -> str:
    if value not in PRESETS:
        raise BadValue(f"expected ask, always or never, got {value!r}")
    return str(value)


@dataclass
class State:
    options: dict[str, Any]
    seed: int
    robots: list[Robot]
    humans: int
    round: int = 1
    phase: str = "program"  # program | decide | over
    mines: dict[Square, int] = field(default_factory=dict)  # square -> owner seat
    tokens: dict[Square, int] = field(default_factory=dict)  # square -> VP token number
    bag: list[int] = field(default_factory=list)  # VP tokens not drawn yet
    decks: dict[str, list[str]] = field(default_factory=dict)
    draws: int = 0  # chance draws so far (the RNG stream is seed + draw count)
    next_start: int = 1  # the next starting-number token
    outcome: dict[str, Any] | None = None
    # the replay record of a resolution interrupted by a question
    snapshot: dict[str, Any] | None = None
    answers: list[str] = field(default_factory=list)
    emitted: int = 0  # events of the interrupted resolution already returned
    pending: dict[str, Any] | None = None  # player, kind, prompt, choices

    @property
    def arena(self) -> Arena:
        return load_arena(self.options["arena"])

    @property
    def monitor(self) -> Monitor:
        return load_monitor(self.options["monitor"])

    def robot_at(self, square: Square) -> Robot | None:
        for robot in self.robots:
            if robot.square == square and not robot.destroyed:
                return robot
        return None

    def by_name(self, name: str) -> Robot:
        for robot in self.robots:
            if robot.name == name:
                return robot
        raise ScenarioError(f"no robot {name!r}")

    def in_start_order(self) -> list[Robot]:
        return sorted(self.robots, key=lambda r: (r.start_number or 99, r.seat))

    def clone(self) -> State:
        """A copy a rule may change; the snapshot is shared (it is never changed in place)."""
        copy = State(**self.__dict__)
        copy.options = dict(self.options)
        copy.robots = [r.clone() for r in self.robots]
        copy.mines, copy.tokens = dict(self.mines), dict(self.tokens)
        copy.bag = list(self.bag)
        copy.decks = {k: list(v) for k, v in self.decks.items()}
        copy.answers = list(self.answers)
        copy.outcome = dict(self.outcome) if self.outcome is not None else None
        copy.pending = dict(self.pending) if self.pending is not None else None
        return copy

    def to_json(self) -> dict[str, JSON]:
        return {
            "options": dict(self.options), "seed": self.seed, "humans": self.humans,
            "round": self.round, "phase": self.phase, "next_start": self.next_start,
            "robots": {r.name: r.to_json() for r in self.robots},
            "mines": {square_name(s): self.robots[o].name for s, o in sorted(self.mines.items())},
            "tokens": {square_name(s): n for s, n in sorted(self.tokens.items())},
            "bag": list(self.bag), "decks": {k: list(v) for k, v in sorted(self.decks.items())},
            "draws": self.draws, "outcome": self.outcome,
            "snapshot": self.snapshot, "answers": list(self.answers), "emitted": self.emitted,
            "pending": self.pending,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> State:
        with reading_state():
            robots = []
            for name, fields in doc["robots"].items():
                with parsing(f"robots.{name}"):
                    robots.append(Robot.from_json(name, fields))
            names = {r.name: r.seat for r in robots}
            state = cls(
                options=dict(doc["options"]), seed=int(doc["seed"]), robots=robots,
                humans=int(doc["humans"]), round=int(doc.get("round", 1)),
                phase=str(doc.get("phase", "program")), next_start=int(doc.get("next_start", 1)),
                mines={parse_square(s): names[o] for s, o in doc.get("mines", {}).items()},
                tokens={parse_square(s): int(n) for s, n in doc.get("tokens", {}).items()},
                bag=[int(n) for n in doc.get("bag", [])],
                decks={k: list(v) for k, v in doc.get("decks", {}).items()},
                draws=int(doc.get("draws", 0)), outcome=doc.get("outcome"),
                snapshot=doc.get("snapshot"), answers=list(doc.get("answers", [])),
                emitted=int(doc.get("emitted", 0)), pending=doc.get("pending"))
            load_arena(state.options["arena"])
            for robot in robots:
                check(state.monitor, robot.monitor)
            return state
