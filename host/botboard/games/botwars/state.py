"""BotWars game state: one robot per player at a time, the floor's switches, the phase.

States are plain dataclasses that the engine clones before changing, so a
state handed out by ``Game.apply`` is never modified afterwards. JSON
round-trips through ``to_json``/``from_json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

from ..base import JSON, ScenarioError
from ..fields import BadValue, each, entries, number_key, parsing, reading_state
from .board import FACINGS, Board, Square, board_from_json, load_board, parse_facing, parse_square, square_name
from .cards import deck

MAX_HP = 10
REGISTERS = 5
ON_BOARD = ("real", "virtual")  # modes of a robot standing on the floor


@dataclass
class Player:
    """A player and the robot they currently run (``square`` None when off the floor)."""

    name: str
    square: Square | None
    facing: int
    checkpoint: Square
    colour: str = ""  # the robot's colour, for the report (data/colours.json or the option)
    hp: int = MAX_HP
    mode: str = "virtual"  # real | virtual | destroyed (awaiting reinstatement) | out
    virtual_turn: int = 1  # the robot's first full turn after (re)instatement
    lives: int = 3  # robots left, counting the one in play
    flags: int = 0  # flags touched, in order
    options: int = 0
    threshold: int = 6  # sacrifice an option instead of a hit point at or below this HP
    stations: list[Square] = field(default_factory=list)  # upgrade stations visited, in order
    hand: list[int] = field(default_factory=list)
    program: list[int | None] | None = None  # five registers once submitted
    fused: dict[int, int | None] = field(default_factory=dict)  # register index -> card (None: empty)
    rebooting: bool = False
    reboot_next: bool = False

    @property
    def on_board(self) -> bool:
        return self.mode in ON_BOARD

    def clone(self) -> Player:
        copy = Player(**self.__dict__)
        copy.stations = list(self.stations)
        copy.hand = list(self.hand)
        copy.program = list(self.program) if self.program is not None else None
        copy.fused = dict(self.fused)
        return copy

    def free_registers(self) -> list[int]:
        return [i for i in range(REGISTERS) if i not in self.fused]

    def to_json(self) -> dict[str, JSON]:
        cards = deck()
        return {
            "colour": self.colour,
            "square": square_name(self.square) if self.square else None,
            "facing": FACINGS[self.facing], "checkpoint": square_name(self.checkpoint),
            "hp": self.hp, "mode": self.mode, "virtual_turn": self.virtual_turn,
            "lives": self.lives, "flags": self.flags, "options": self.options,
            "threshold": self.threshold, "stations": [square_name(s) for s in self.stations],
            "hand": [cards.name(c) for c in self.hand],
            "program": None if self.program is None else
            [cards.name(c) if c is not None else None for c in self.program],
            "fused": {str(i + 1): cards.name(c) if c is not None else None
                      for i, c in sorted(self.fused.items())},
            "rebooting": self.rebooting, "reboot_next": self.reboot_next,
        }

    @classmethod
    def from_json(cls, name: str, doc: Mapping[str, Any], base: Player | None = None) -> Player:
        """Fields in ``doc`` override ``base`` (or defaults); ScenarioError names a bad field."""
        cards = deck()
        player = base.clone() if base else Player(name, None, 0, (1, 1))
        for key, value in doc.items():
            with parsing(key):
                _set_field(player, key, value, cards)
        return player


def _set_field(player: Player, key: str, value: Any, cards: Any) -> None:
    if key == "square":
        player.square = parse_square(value) if value else None
    elif key == "facing":
        player.facing = parse_facing(value)
    elif key == "colour":
        if not isinstance(value, str) or not value.strip():
            raise BadValue(f"expected a colour name, e.g. red, got {value!r}")
        player.colour = value
    elif key == "checkpoint":
        player.checkpoint = parse_square(value)
    elif key == "stations":
        player.stations = each(value, parse_square)
    elif key == "hand":
        player.hand = each(value, cards.parse)
    elif key == "program":
        player.program = None if value is None else each(value, lambda c: cards.parse(c) if c else None)
    elif key == "fused":
        player.fused = entries(value, number_key(_register), lambda c: cards.parse(c) if c else None)
    elif key == "mode":
        if value not in ("real", "virtual", "destroyed", "out"):
            raise BadValue(f"expected real, virtual, destroyed or out, got {value!r}")
        player.mode = value
    elif key in ("hp", "virtual_turn", "lives", "flags", "options", "threshold"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadValue(f"expected a whole number, got {value!r}")
        setattr(player, key, value)
    elif key in ("rebooting", "reboot_next"):
        setattr(player, key, bool(value))
    else:
        raise BadValue("unknown robot field")


def _register(number: int) -> int:
    """A register as the file numbers it (1..5), as the engine does (0..4)."""
    if not 1 <= number <= REGISTERS:
        raise BadValue(f"expected a register 1..{REGISTERS}, got {number}")
    return number - 1


@lru_cache(maxsize=32)
def _inline_board(text: str) -> Board:
    return board_from_json(json.loads(text))


def resolve_board(ref: str | Mapping[str, Any]) -> Board:
    """A board by name, or an inline board document (scenarios use both)."""
    if isinstance(ref, str):
        return load_board(ref)
    if isinstance(ref, Mapping):
        return _inline_board(json.dumps(ref, sort_keys=True))
    raise ScenarioError(f"board: expected a board name or a board object, got {ref!r}")


@dataclass
class State:
    ruleset: str
    board_ref: str | dict[str, Any]  # a board name, or an inline board document
    seed: int
    players: list[Player]
    turn: int = 1
    phase: str = "program"  # program | decide | over
    switches: set[Square] = field(default_factory=set)  # switches currently on
    decisions: list[tuple[int, str]] = field(default_factory=list)  # (player, kind) queue
    max_turns: int = 40
    outcome: dict[str, Any] | None = None  # winners, reason, scores once the game is over
    stages: int = 0  # stages played so far (benchmarks count them)

    @property
    def board(self) -> Board:
        return resolve_board(self.board_ref)

    def clone(self) -> State:
        copy = State(**self.__dict__)
        copy.players = [p.clone() for p in self.players]
        copy.switches = set(self.switches)
        copy.decisions = list(self.decisions)
        return copy

    def to_json(self) -> dict[str, JSON]:
        return {
            "ruleset": self.ruleset, "board": self.board_ref, "seed": self.seed,
            "turn": self.turn, "phase": self.phase, "max_turns": self.max_turns,
            "switches": sorted(square_name(s) for s in self.switches),
            "decisions": [[p, k] for p, k in self.decisions],
            "outcome": self.outcome, "stages": self.stages,
            "robots": {p.name: p.to_json() for p in self.players},
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> State:
        with reading_state():
            robots = doc["robots"]
            players = []
            for name in robots:
                with parsing(f"robots.{name}"):
                    players.append(Player.from_json(name, robots[name]))
            resolve_board(doc["board"])
            return cls(
                ruleset=str(doc["ruleset"]), board_ref=doc["board"], seed=int(doc["seed"]),
                players=players, turn=int(doc.get("turn", 1)), phase=str(doc.get("phase", "program")),
                switches={parse_square(s) for s in doc.get("switches", [])},
                decisions=[(int(p), str(k)) for p, k in doc.get("decisions", [])],
                max_turns=int(doc.get("max_turns", 40)), outcome=doc.get("outcome"),
                stages=int(doc.get("stages", 0)))
