"""Hit points, options sacrificed, fused registers, destruction and repair."""

from __future__ import annotations

from typing import Any

from .cards import deck
from .context import Ctx
from .state import MAX_HP, REGISTERS, Player


def damage(ctx: Ctx, robot: Player, points: int, cause: str) -> None:
    """Take ``points`` hits one by one: an option soaks a hit at or below the threshold."""
    lost = 0
    for _ in range(points):
        if robot.options and robot.hp <= robot.threshold:
            robot.options -= 1
            ctx.emit("sacrifice", robot, f"option sacrificed instead of 1 HP ({cause})", cause=cause)
        else:
            robot.hp -= 1
            lost += 1
            if robot.hp <= 0:
                break
    if lost and ctx.events is not None:
        ctx.record("damage", robot, _damaged, robot.hp, lost, cause)
    if robot.hp <= 0:
        destroy(ctx, robot, cause)
    elif robot.hp <= REGISTERS:  # (above, no register locks: most hits)
        fuse(ctx, robot)


def _damaged(hp: int, lost: int, cause: str) -> tuple[str, dict[str, Any]]:
    return f"-{lost} HP ({cause})", {"hp": hp, "lost": lost, "cause": cause}


def fuse(ctx: Ctx, robot: Player) -> None:
    """Below 6 HP the last registers lock with whatever card they hold now."""
    cards = deck()
    for index in range(robot.hp - 1 if robot.hp > 1 else 0, REGISTERS):
        if index in robot.fused:
            continue
        card = robot.program[index] if robot.program else None
        robot.fused[index] = card
        if ctx.events is not None:
            name = cards.name(card) if card is not None else "empty"
            ctx.emit("fuse", robot, f"register {index + 1} fused ({name})", register=index + 1,
                     card=name)


def unfuse(robot: Player) -> list[int]:
    """Release registers the robot has HP for again; returns their 1-based numbers."""
    freed = sorted(i for i in robot.fused if i < robot.hp - 1)
    for index in freed:
        del robot.fused[index]
    return [i + 1 for i in freed]


def destroy(ctx: Ctx, robot: Player, cause: str) -> None:
    """Off the floor at once; options and fused registers go with the robot."""
    robot.square = None
    ctx.roster = None  # one robot fewer on the floor
    robot.hp = 0
    robot.lives -= 1
    robot.mode = "destroyed" if robot.lives > 0 else "out"
    robot.options = 0
    robot.fused = {}
    robot.rebooting = robot.reboot_next = False
    left = f"{robot.lives} robot{'s' if robot.lives != 1 else ''} left"
    ctx.emit("destroyed", robot, f"destroyed ({cause}); {left}", cause=cause, lives=robot.lives)


def repair(ctx: Ctx, robot: Player, points: int, where: str) -> None:
    before = robot.hp
    robot.hp = min(MAX_HP, robot.hp + points)
    freed = unfuse(robot)
    words = f"repair +{robot.hp - before} HP ({where})"
    if freed:
        words += f", register{'s' if len(freed) > 1 else ''} {', '.join(map(str, freed))} released"
    ctx.emit("repair", robot, words, hp=robot.hp, gained=robot.hp - before, released=freed)
