"""Board elements that act after the robots have moved: conveyor, pusher, gear, crusher.

They act in that order (board lasers, last, are in lasers.py). Conveyors and
pushers move every robot on them at once, so conflicts between robots are
settled before anyone moves.
"""

from __future__ import annotations

from typing import Any, Mapping

from .board import FACINGS, Square, neighbour, square_name
from .context import Ctx
from .damage import damage, destroy
from .movement import FENCE_DAMAGE, enter, step
from .state import Player

_GEAR_TURNS = {"L": -1, "R": 1, "U": 2}


def conveyors(ctx: Ctx) -> None:
    """Yellow belts move one square; blue belts a second time if the first lands on a belt."""
    if "conveyor" not in ctx.kinds:
        return
    riders = [p for p in ctx.robots() if _belt(ctx, p.square) is not None]
    blue = {p.name for p in riders if _belt(ctx, p.square)["colour"] == "blue"}  # type: ignore[index]
    moved = _belt_phase(ctx, riders)
    again = [p for p, arrived in moved if p.name in blue and p.square == arrived
             and _belt(ctx, p.square) is not None]
    _belt_phase(ctx, again)


def _belt(ctx: Ctx, square: Square | None) -> Mapping[str, Any] | None:
    cell = ctx.cells.get(square) if square is not None else None
    return cell if cell is not None and cell["type"] == "conveyor" else None


def _belt_phase(ctx: Ctx, riders: list[Player]) -> list[tuple[Player, Square]]:
    """One simultaneous belt move; returns (robot, square it arrived on)."""
    if not riders:
        return []
    plans: dict[str, tuple[Player, int, Square]] = {}
    for robot in riders:
        if robot.square is None:
            continue
        way = FACINGS.index(_belt(ctx, robot.square)["dir"])  # type: ignore[index]
        target = neighbour(robot.square, way)
        if ctx.board.wall_between(robot.square, way) or ctx.bridge_raised(target) == (way + 2) % 4:
            continue
        if not ctx.board.on_board(target):  # the fence: 2 HP and no move, in both rulesets
            ctx.emit("fence", robot, "electric fence", damage=FENCE_DAMAGE)
            damage(ctx, robot, FENCE_DAMAGE, "electric fence")
            continue
        plans[robot.name] = (robot, way, target)
    _settle_conflicts(ctx, plans)
    _drop_blocked(ctx, plans)
    for robot, way, target in plans.values():
        robot.square = target
        belt = _belt(ctx, target)
        turned = False
        if belt is not None:
            turn = (FACINGS.index(belt["dir"]) - way) % 4
            if turn in (1, 3):  # onto a perpendicular belt: turn with it
                robot.facing = (robot.facing + (1 if turn == 1 else -1)) % 4
                turned = True
        if ctx.events is not None:
            words = f"conveyor to {square_name(target)}" + (f", face {FACINGS[robot.facing]}" if turned else "")
            ctx.emit("conveyor", robot, words, square=square_name(target), facing=FACINGS[robot.facing])
    arrived = [(robot, target) for robot, _, target in plans.values()]
    for robot, target in arrived:
        if robot.square == target:
            enter(ctx, robot, target)
    return arrived


def _settle_conflicts(ctx: Ctx, plans: dict[str, tuple[Player, int, Square]]) -> None:
    """Two real robots aimed at one square: only one moving the way a belt there runs goes."""
    by_target: dict[Square, list[str]] = {}
    for name, (robot, _, target) in plans.items():
        if robot.mode == "real":
            by_target.setdefault(target, []).append(name)
    for target, names in by_target.items():
        if len(names) < 2:
            continue
        belt = _belt(ctx, target)
        along = [n for n in names if belt is not None and FACINGS[plans[n][1]] == belt["dir"]]
        keep = along[0] if len(along) == 1 else None
        for name in names:
            if name != keep:
                del plans[name]


def _drop_blocked(ctx: Ctx, plans: dict[str, tuple[Player, int, Square]]) -> None:
    """A belt has no effect into a robot that stays put (repeat until nothing changes).

    Two real robots carried head-on into each other's squares stay put too:
    they cannot pass through each other.
    """
    for name, (robot, _, target) in list(plans.items()):
        other = ctx.blocker(target, robot)
        if other is not None and other.name in plans and plans[other.name][2] == robot.square:
            plans.pop(name, None)
            plans.pop(other.name, None)
    changed = True
    while changed:
        changed = False
        for name, (robot, _, target) in list(plans.items()):
            other = ctx.blocker(target, robot)
            if other is not None and other.name not in plans:
                del plans[name]
                changed = True


def pushers(ctx: Ctx) -> None:
    """Active pushers shove robots one square; two aimed at one square both fail."""
    if "pusher" not in ctx.kinds:
        return
    plans: list[tuple[Player, int, Square]] = []
    cells = ctx.cells
    for robot in ctx.robots():
        cell = cells.get(robot.square)  # type: ignore[arg-type]
        if cell is not None and cell["type"] == "pusher" and ctx.stage in cell["stages"]:
            way = FACINGS.index(cell["dir"])
            plans.append((robot, way, neighbour(robot.square, way)))  # type: ignore[arg-type]
    targets = [t for r, _, t in plans if r.mode == "real"]
    for robot, way, target in _downstream_first(ctx, plans):
        if robot.mode == "real" and targets.count(target) > 1:
            ctx.emit("pusher", robot, "pusher conflict, no move")
            continue
        if robot.square == neighbour(target, (way + 2) % 4):  # not shoved off by an earlier chain
            step(ctx, robot, way, None, "pusher")


def _downstream_first(ctx: Ctx, plans: list[tuple[Player, int, Square]]) -> list[tuple[Player, int, Square]]:
    """Pushers act at once: a push whose chain of robots meets another pushed robot waits for it."""
    todo, ordered = list(plans), []
    while todo:
        pending = {id(r) for r, _, _ in todo}
        ready = [plan for plan in todo if not _chain_meets(ctx, plan, pending)] or todo[:1]  # a ring
        ordered += ready
        todo = [plan for plan in todo if plan not in ready]
    return ordered


def _chain_meets(ctx: Ctx, plan: tuple[Player, int, Square], pending: set[int]) -> bool:
    robot, way, square = plan
    while ctx.board.on_board(square):
        other = ctx.blocker(square, robot)
        if other is None:
            return False
        if id(other) in pending:
            return True
        square = neighbour(square, way)
    return False


def gears(ctx: Ctx) -> None:
    if "gear" not in ctx.kinds:
        return
    cells = ctx.cells
    for robot in ctx.robots():
        cell = cells.get(robot.square)  # type: ignore[arg-type]
        if cell is None or cell["type"] != "gear":
            continue
        if cell["turn"] == "U" and not ctx.rules["gear_180"]:
            continue
        robot.facing = (robot.facing + _GEAR_TURNS[cell["turn"]]) % 4
        if ctx.events is not None:
            ctx.emit("gear", robot, f"gear, face {FACINGS[robot.facing]}", facing=FACINGS[robot.facing])


def crushers(ctx: Ctx) -> None:
    if "crusher" not in ctx.kinds:
        return
    cells = ctx.cells
    for robot in ctx.robots():
        cell = cells.get(robot.square)  # type: ignore[arg-type]
        if cell is not None and cell["type"] == "crusher" and ctx.stage in cell["stages"]:
            destroy(ctx, robot, f"crushed at {square_name(robot.square)}")  # type: ignore[arg-type]
