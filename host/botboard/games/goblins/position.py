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
from .agendas import BET_SIDES, agendas, card_of
from .context import Ctx
from .rounds import after_build, ready_for_combat
from .state import Robot, State
from .yard import COCKPIT, SIDE_NAMES, parse_square

_KNOWN = {"stage", "robots", "players", "tactics", "dice", "scores"}
_ROBOT = {"members", "yard", "blocked", "front", "goblins", "blueprint"}


def _player(name: Any, count: int, where: str) -> int:
    if not (isinstance(name, str) and name[:1] == "p" and name[1:].isdigit() and 1 <= int(name[1:]) <= count):
        raise ScenarioError(f"{where}: {name!r} is not a player of this {count}-player game (p1..p{count})")
    return int(name[1:]) - 1


def compact_position(state: State, position: Mapping[str, Any]) -> State:
    unknown = set(position) - _KNOWN
    if unknown:
        raise ScenarioError(f"position: unknown field(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(_KNOWN))}")
    ctx = Ctx(state)
    count = len(state.players)
    robots = position.get("robots")
    if not isinstance(robots, list) or len(robots) != 2:
        raise ScenarioError("position.robots: expected a list of 2 robots (team A, team B)")
    for player in state.players:
        player.hand = []
    used: set[int] = set()
    for team, doc in enumerate(robots):
        state.robots[team] = _robot(ctx, team, doc, count, used, state.robots[team])
    members = sorted(p for r in state.robots for p in r.members)
    if members != list(range(count)):
        raise ScenarioError(f"position.robots: members must name every player once (p1..p{count})")
    state.supply = [t for t in state.supply + sorted(ctx.box.tiles) if t not in used]
    state.supply = list(dict.fromkeys(state.supply))
    for name, doc in (position.get("scores") or {}).items():
        state.players[_player(name, count, "position.scores")].score = int(doc)
    after_build(ctx)
    if "tactics" in position:
        cards = position["tactics"]
        if not isinstance(cards, list) or any(c not in ctx.box.tactics for c in cards):
            raise ScenarioError(f"position.tactics: expected tactics card ids of the box ({min(ctx.box.tactics)}.."
                                f"{max(ctx.box.tactics)}), top first")
        state.tactics = list(cards) + [c for c in state.tactics if c not in cards]
    state.loaded = [int(d) for d in position.get("dice", [])]
    if any(not 0 <= d <= 5 for d in state.loaded):
        raise ScenarioError("position.dice: die faces are 1..5, or 0 for the blank")
    if position.get("stage", "combat") == "combat":
        _give_agendas(state, position.get("players") or {}, count)
        state.queue = []
        ready_for_combat(ctx)
    elif position.get("stage") != "agendas":
        raise ScenarioError("position.stage: expected \"agendas\" or \"combat\"")
    for team, doc in enumerate(robots):
        robot = state.robots[team]
        if "front" in doc:
            robot.front = SIDE_NAMES.index(str(doc["front"]).upper())
        if "goblins" in doc:
            robot.goblins = [_player(p, count, f"position.robots[{team}].goblins") for p in doc["goblins"]]
    return state


def _robot(ctx: Ctx, team: int, doc: Any, count: int, used: set[int], base: Robot) -> Robot:
    where = f"position.robots[{team}]"
    if not isinstance(doc, Mapping) or set(doc) - _ROBOT:
        raise ScenarioError(f"{where}: expected an object with fields from {', '.join(sorted(_ROBOT))}")
    members = [_player(p, count, f"{where}.members") for p in doc.get("members", [])]
    if not 1 <= len(members) <= 2:
        raise ScenarioError(f"{where}.members: a team has 1 or 2 players")
    robot = Robot(members, str(doc.get("blueprint", base.blueprint)), list(doc.get("blocked", base.blocked)))
    robot.pilot, robot.tactician = members[0], members[-1]
    for square, text in (doc.get("yard") or {}).items():
        square = parse_square(square)
        parts = str(text).split()
        if (square == COCKPIT or len(parts) != 2 or not parts[0][1:].isdigit() or parts[1].upper() not in SIDE_NAMES
                or int(parts[0][1:]) not in ctx.box.tiles):
            raise ScenarioError(f"{where}.yard.{square}: expected \"t<id> <N|E|S|W>\" with a tile of the box, "
                                f"off the cockpit; got {text!r}")
        tile = int(parts[0][1:])
        if tile in used:
            raise ScenarioError(f"{where}.yard.{square}: t{tile} is already used")
        used.add(tile)
        robot.yard[square] = [tile, SIDE_NAMES.index(parts[1].upper())]
    return robot


def _give_agendas(state: State, players: Mapping[str, Any], count: int) -> None:
    for name, doc in players.items():
        index = _player(name, count, "position.players")
        kept = list(doc.get("agendas", [])) if isinstance(doc, Mapping) else []
        for item in kept:
            if card_of(item) not in agendas() and item not in BET_SIDES:
                raise ScenarioError(f"position.players.{name}.agendas: unknown agenda {item!r}; "
                                    f"agendas: {', '.join(agendas())} (betting as star or snitch)")
        state.players[index].agendas = sorted(kept)
        state.players[index].agenda_hand = []
