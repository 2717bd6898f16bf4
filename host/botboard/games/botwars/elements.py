"""Board elements that act after the robots have moved: conveyor, pusher, gear, crusher.

They act in that order (board lasers, last, are in lasers.py). Conveyors and
pushers move every robot on them at once, so conflicts between robots are
settled before anyone moves.
"""

from __future__ import annotations

from typing import Any

from .board import FACINGS, OFF, Square, neighbour, square_name
from .context import Ctx
from .damage import destroy
from .movement import enter, fence, step
from .state import Player


def conveyors(ctx: Ctx) -> None:
    """Yellow belts move one square; blue belts a second time if the first lands on a belt."""
    belts = ctx.floor.belts
    if not belts:
        return
    riders = [p for p in ctx.robots() if p.square in belts]
    blue = {p.name for p in riders if belts[p.square][1]}  # type: ignore[index]
    moved = _belt_phase(ctx, riders)
    again = [p for p, arrived in moved if p.name in blue and p.square == arrived and arrived in belts]
    _belt_phase(ctx, again)


def _belt_phase(ctx: Ctx, riders: list[Player]) -> list[tuple[Player, Square]]:
    """One simultaneous belt move; returns (robot, square it arrived on)."""
    if not riders:
        return []
    belts, exits, bridges = ctx.floor.belts, ctx.exits, ctx.board.bridges
    plans: dict[str, tuple[Player, int, Square]] = {}
    for robot in riders:
        if robot.square is None:
            continue
        way = belts[robot.square][0]
        target = exits[robot.square][way]
        if target is None or (target in bridges and ctx.bridge_raised(target) == (way + 2) % 4):
            continue  # a wall, or a raised bridge's own side
        if target is OFF:  # the fence: 2 HP and no move, in both rulesets
            fence(ctx, robot)
            continue
        plans[robot.name] = (robot, way, target)
    if len(plans) > 1:
        _settle_conflicts(ctx, plans)
    _drop_blocked(ctx, plans)
    for robot, way, target in plans.values():
        robot.square = target
        belt = belts.get(target)
        turned = False
        if belt is not None:
            turn = (belt[0] - way) % 4
            if turn in (1, 3):  # onto a perpendicular belt: turn with it
                robot.facing = (robot.facing + (1 if turn == 1 else -1)) % 4
                turned = True
        if ctx.events is not None:
            ctx.record("conveyor", robot, _conveyed, target, robot.facing, turned)
    arrived = [(robot, target) for robot, _, target in plans.values()]
    entry = ctx.floor.entry
    for robot, target in arrived:
        if robot.square == target and target in entry:
            enter(ctx, robot, target)
    return arrived


def _conveyed(target: Square, facing: int, turned: bool) -> tuple[str, dict[str, Any]]:
    words = f"conveyor to {square_name(target)}" + (f", face {FACINGS[facing]}" if turned else "")
    return words, {"square": square_name(target), "facing": FACINGS[facing]}


def _settle_conflicts(ctx: Ctx, plans: dict[str, tuple[Player, int, Square]]) -> None:
    """Two real robots aimed at one square: only one moving the way a belt there runs goes."""
    by_target: dict[Square, list[str]] = {}
    for name, (robot, _, target) in plans.items():
        if robot.mode == "real":
            by_target.setdefault(target, []).append(name)
    for target, names in by_target.items():
        if len(names) < 2:
            continue
        belt = ctx.floor.belts.get(target)
        along = [n for n in names if belt is not None and plans[n][1] == belt[0]]
        keep = along[0] if len(along) == 1 else None
        for name in names:
            if name != keep:
                del plans[name]


def _drop_blocked(ctx: Ctx, plans: dict[str, tuple[Player, int, Square]]) -> None:
    """A belt has no effect into a robot that stays put (repeat until nothing changes).

    Two real robots carried head-on into each other's squares stay put too:
    they cannot pass through each other.
    """
    # nobody has moved yet: who stands on each target is asked once
    blockers = {name: (robot, other) for name, (robot, _, target) in plans.items()
                if (other := ctx.blocker(target, robot)) is not None}
    if not blockers:
        return  # most belt moves: nobody in the way
    for name, (robot, other) in blockers.items():
        if other.name in plans and plans[other.name][2] == robot.square:
            plans.pop(name, None)
            plans.pop(other.name, None)
    changed = True
    while changed:
        changed = False
        for name in list(plans):
            if name in blockers and blockers[name][1].name not in plans:
                del plans[name]
                changed = True


def pushers(ctx: Ctx) -> None:
    """Active pushers shove robots one square; two aimed at one square both fail."""
    pushes = ctx.floor.pushes[ctx.stage]
    if not pushes:
        return
    plans: list[tuple[Player, int, Square]] = []
    for robot in ctx.robots():
        way = pushes.get(robot.square)  # type: ignore[arg-type]
        if way is not None:
            plans.append((robot, way, neighbour(robot.square, way)))  # type: ignore[arg-type]
    if not plans:
        return
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
    turns = ctx.floor.gears
    if not turns:
        return
    for robot in ctx.robots():
        turn = turns.get(robot.square)  # type: ignore[arg-type]
        if turn is None:
            continue
        robot.facing = (robot.facing + turn) % 4
        if ctx.events is not None:
            ctx.record("gear", robot, _geared, robot.facing)


def _geared(facing: int) -> tuple[str, dict[str, Any]]:
    return f"gear, face {FACINGS[facing]}", {"facing": FACINGS[facing]}


def crushers(ctx: Ctx) -> None:
    crushes = ctx.floor.crushes[ctx.stage]
    if not crushes:
        return
    for robot in ctx.robots():
        if robot.square in crushes:
            destroy(ctx, robot, f"crushed at {square_name(robot.square)}")
