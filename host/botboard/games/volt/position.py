"""Compact scenario positions: a new game with the given fields laid over it
(docs/scenarios-volt.md)."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ScenarioError
from ..fields import BadValue, each, entries, field, known_fields, parsing, whole
from .arena import BOX_VP_TOKENS, load_arena, vp_number
from .ctx import Ctx
from .grid import parse_square, square_name
from .killbots import program_killbots
from .modules import DECKS, module, param
from .monitor import auto_place, check
from .state import Robot, State

KNOWN = {"round", "tokens", "mines", "bag", "decks", "robots"}
MAX_ROUND = 999  # far beyond any game (max_rounds is 20 by default)


def compact_position(state: State, position: Mapping[str, Any]) -> State:
    known_fields(position, KNOWN, hint=" (the arena is options.arena)")
    state.round = field(position, "round", whole(1, MAX_ROUND), state.round)
    if "tokens" in position:
        state.bag += list(state.tokens.values())
        state.tokens = {}
        for square, number in field(position, "tokens", lambda v: entries(v, parse_square, vp_number)).items():
            if state.arena.vp_spaces.get(number) != square:
                raise ScenarioError(f"position.tokens: VP token {number} belongs on space {number} "
                                    f"({_space(state, number)}), not {square_name(square)}")
            state.tokens[square] = number
            if number in state.bag:
                state.bag.remove(number)
    if "bag" in position:
        state.bag = field(position, "bag", lambda v: each(v, vp_number))
        with parsing("bag"):
            _check_bag(state)
    if "decks" in position:
        decks = field(position, "decks", lambda v: entries(v, _deck, lambda cards: each(cards, module)))
        for deck, cards in decks.items():
            state.decks[deck] = [m.id for m in cards]
    names = {r.name: r.seat for r in state.robots}
    robots = position.get("robots", {})
    if not isinstance(robots, Mapping):
        raise ScenarioError("position.robots: expected an object keyed p1, p2, ... (k3, k4 for KillBots)")
    for name, fields in robots.items():
        if name not in names:
            raise ScenarioError(f"position.robots: no robot {name!r} in this game ({', '.join(names)})")
        if not isinstance(fields, Mapping):
            raise ScenarioError(f"position.robots.{name}: expected an object")
        seat = names[name]
        with parsing(f"robots.{name}"):
            robot = Robot.from_json(name, fields, state.robots[seat])
        if "modules" in fields:
            if "monitor" in fields:
                raise ScenarioError(f"position.robots.{name}: give \"modules\" (a list, placed for you) "
                                    "or \"monitor\" (slot: module), not both")
            robot.monitor = auto_place(state.monitor, robot.modules)
        if "destroyed" in fields and fields["destroyed"] and "square" not in fields:
            robot.square = None
        state.robots[seat] = robot
    def owner(name: Any) -> int:
        if not isinstance(name, str) or name not in names:
            raise BadValue(f"no robot {name!r} in this game ({', '.join(names)})")
        return names[name]

    state.mines = field(position, "mines", lambda v: entries(v, parse_square, owner), {})
    for name, fields in robots.items():
        robot = state.robots[names[name]]
        if robot.has("mines") and "mines_held" not in fields:
            placed = sum(1 for o in state.mines.values() if o == robot.seat)
            robot.mines_held = int(param("mines", "tokens")) - placed
    _validate(state)
    for robot in state.robots:  # KillBots program from where the position puts them
        if robot.killbot and "program" not in robots.get(robot.name, {}):
            robot.program, robot.submitted = [], False
    program_killbots(Ctx(state))
    return state


def _deck(name: str) -> str:
    if name not in DECKS:
        raise BadValue(f"unknown deck; decks: {', '.join(DECKS)}")
    return name


def _check_bag(state: State) -> None:
    for number in state.bag:
        if number not in state.arena.vp_spaces:
            raise BadValue(f"token {number}, but the arena has no VP space {number}")
    if len(state.bag) > BOX_VP_TOKENS:
        raise BadValue(f"{len(state.bag)} tokens; the box holds {BOX_VP_TOKENS}")


def _space(state: State, number: int) -> str:
    square = state.arena.vp_spaces.get(number)
    return square_name(square) if square else "no such space"


def _validate(state: State) -> None:
    arena = load_arena(state.options["arena"])
    taken: dict[tuple[int, int], str] = {}
    for robot in state.robots:
        try:
            check(state.monitor, robot.monitor)
        except ScenarioError as err:
            raise ScenarioError(f"position.robots.{robot.name}.{err}") from None
        if robot.square is None:
            if not robot.destroyed:
                raise ScenarioError(f"position.robots.{robot.name}: a robot without a square must be "
                                    "\"destroyed\": true")
            continue
        where = square_name(robot.square)
        if not arena.on_arena(robot.square):
            raise ScenarioError(f"position.robots.{robot.name}.square: {where} is outside the "
                                f"{arena.width}x{arena.height} arena {arena.name}")
        if robot.square in arena.pits:
            raise ScenarioError(f"position.robots.{robot.name}.square: {where} is a pit")
        if robot.square in taken:
            raise ScenarioError(f"position: {taken[robot.square]} and {robot.name} both stand on {where}")
        if robot.square in state.mines:
            raise ScenarioError(f"position: {robot.name} stands on a mine at {where}")
        if not 0 <= robot.damage <= 2:
            raise ScenarioError(f"position.robots.{robot.name}.damage: 0..2 on a robot in the arena")
        taken[robot.square] = robot.name
