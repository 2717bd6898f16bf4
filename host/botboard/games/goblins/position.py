"""Compact scenario positions (docs/scenarios-goblins.md): robots built by hand, combat ahead.

A compact position replaces the build of a new game's first round: the yards
are given, tiles in them leave the supply, loose tiles fall off, and play
goes on from the agenda choice (``"stage": "agendas"``) or from the first
combat round with the players' agendas given (``"stage": "combat"``, the
default). ``tactics`` fixes the order of the round's tactics cards, ``dice``
loads the dice (used before the seed's), ``goblins`` and ``front`` override a
robot after setup.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ScenarioError
from ..fields import BadValue, each, entries, field, known_fields, parsing, whole
from .agendas import BET_SIDES, agendas, card_of
from .context import Ctx
from .rounds import after_build, ready_for_combat
from .state import Robot, State
from .yard import COCKPIT, SIDE_NAMES, parse_square

_KNOWN = {"stage", "robots", "players", "tactics", "dice", "scores"}
MAX_SCORE = 999  # far beyond a game's scores
_ROBOT = {"members", "yard", "blocked", "front", "goblins", "blueprint"}


def _player(name: Any, count: int, where: str) -> int:
    if not (isinstance(name, str) and name[:1] == "p" and name[1:].isdigit() and 1 <= int(name[1:]) <= count):
        raise ScenarioError(f"{where}: {name!r} is not a player of this {count}-player game (p1..p{count})")
    return int(name[1:]) - 1


def compact_position(state: State, position: Mapping[str, Any]) -> State:
    known_fields(position, _KNOWN)
    ctx = Ctx(state)
    count = len(state.players)
    robots = position.get("robots")
    if not isinstance(robots, list) or len(robots) != 2:
        raise ScenarioError("position.robots: expected a list of 2 robots (team A, team B)")
    for player in state.players:
        player.hand = []
    used: set[int] = set()
    for team, doc in enumerate(robots):
        with parsing(f"robots[{team}]"):
            state.robots[team] = _robot(ctx, team, doc, count, used, state.robots[team])
    members = sorted(p for r in state.robots for p in r.members)
    if members != list(range(count)):
        raise ScenarioError(f"position.robots: members must name every player once (p1..p{count})")
    state.supply = [t for t in state.supply + sorted(ctx.box.tiles) if t not in used]
    state.supply = list(dict.fromkeys(state.supply))
    scores = field(position, "scores", lambda v: entries(v or {}, str, whole(0, MAX_SCORE)), {})
    for name, score in scores.items():
        state.players[_player(name, count, "position.scores")].score = score
    after_build(ctx)
    if "tactics" in position:
        cards = position["tactics"]
        if not isinstance(cards, list) or any(not isinstance(c, int) or c not in ctx.box.tactics for c in cards):
            raise ScenarioError(f"position.tactics: expected tactics card ids of the box ({min(ctx.box.tactics)}.."
                                f"{max(ctx.box.tactics)}), top first")
        state.tactics = list(cards) + [c for c in state.tactics if c not in cards]
    state.loaded = field(position, "dice", lambda v: each(v, whole(0, 5, " (die faces 1..5, 0 the blank)")), [])
    if position.get("stage", "combat") == "combat":
        with parsing("players"):
            _give_agendas(state, position.get("players") or {}, count)
        state.queue = []
        ready_for_combat(ctx)
    elif position.get("stage") != "agendas":
        raise ScenarioError("position.stage: expected \"agendas\" or \"combat\"")
    for team, doc in enumerate(robots):
        robot = state.robots[team]
        with parsing(f"robots[{team}]"):
            robot.front = field(doc, "front", _side, robot.front)
            goblins = field(doc, "goblins", _names, None)
        if goblins is not None:
            robot.goblins = [_player(p, count, f"position.robots[{team}].goblins") for p in goblins]
    return state


def _robot(ctx: Ctx, team: int, doc: Any, count: int, used: set[int], base: Robot) -> Robot:
    where = f"position.robots[{team}]"
    if not isinstance(doc, Mapping) or set(doc) - _ROBOT:
        raise ScenarioError(f"{where}: expected an object with fields from {', '.join(sorted(_ROBOT))}")
    members = [_player(p, count, f"{where}.members") for p in field(doc, "members", _names, [])]
    if not 1 <= len(members) <= 2:
        raise ScenarioError(f"{where}.members: a team has 1 or 2 players")
    robot = Robot(members, field(doc, "blueprint", str, base.blueprint), field(doc, "blocked", _blocked, base.blocked))
    robot.pilot, robot.tactician = members[0], members[-1]
    for square, text in field(doc, "yard", lambda v: entries(v or {}, str, str), {}).items():
        with parsing(f"yard.{square}"):
            square = parse_square(square)
        parts = str(text).split()
        if (square == COCKPIT or len(parts) != 2 or not parts[0][1:].isdigit() or parts[1].upper() not in tuple(SIDE_NAMES)
                or int(parts[0][1:]) not in ctx.box.tiles):
            raise ScenarioError(f"{where}.yard.{square}: expected \"t<id> <N|E|S|W>\" with a tile of the box, "
                                f"off the cockpit; got {text!r}")
        tile = int(parts[0][1:])
        if tile in used:
            raise ScenarioError(f"{where}.yard.{square}: t{tile} is already used")
        used.add(tile)
        robot.yard[square] = [tile, SIDE_NAMES.index(parts[1].upper())]
    return robot


def _side(value: Any) -> int:
    if not isinstance(value, str) or value.upper() not in tuple(SIDE_NAMES):
        raise BadValue(f"expected one of {', '.join(SIDE_NAMES)}, got {value!r}")
    return SIDE_NAMES.index(value.upper())


def _names(value: Any) -> list[str]:
    return each(value, str)


def _blocked(value: Any) -> list[str]:
    return each(value, parse_square)


def _give_agendas(state: State, players: Any, count: int) -> None:
    for name, doc in entries(players, str, lambda v: v).items():
        index = _player(name, count, "position.players")
        with parsing(name):
            kept = field(doc, "agendas", _names, []) if isinstance(doc, Mapping) else []
        for item in kept:
            if card_of(item) not in agendas() and item not in BET_SIDES:
                raise ScenarioError(f"position.players.{name}.agendas: unknown agenda {item!r}; "
                                    f"agendas: {', '.join(agendas())} (betting as star or snitch)")
        state.players[index].agendas = sorted(kept)
        state.players[index].agenda_hand = []
