"""The red die: the laser and the modules that fire differently or instead of firing.

The line of fire runs from the robot's square along the key and stops at the
first robot or mine (which it hits) or in front of an energy wall (also a
bend, FAQ 1a) or the arena wall. It passes over pits and through lightning
barriers. Range: option ``laser_range`` (0 = unlimited, the default).
"""

from __future__ import annotations

from .ctx import Ctx
from .damage import damage, detonation, trigger_mines
from .grid import DIAGONAL, KEYS, ORTHOGONAL, Square, square_name, step
from .modules import param
from .movement import push
from .state import Robot


def line_of_fire(ctx: Ctx, origin: Square, key: int) -> tuple[str, Square] | None:
    """What the line of fire meets first: ("robot" | "mine", square), or None."""
    limit = int(ctx.state.options["laser_range"]) or 10_000
    here = origin
    for _ in range(limit):
        if not ctx.arena.open_step(here, key):
            return None
        here = step(here, key)
        if ctx.robot_at(here) is not None:
            return "robot", here
        if here in ctx.state.mines:
            return "mine", here
    return None


def fire(ctx: Ctx, robot: Robot, key: int, number: int) -> None:
    """The basic laser: 1 damage to the robot hit, or set off the mine hit; then POWER BEAM."""
    assert robot.square is not None
    hit = line_of_fire(ctx, robot.square, key)
    ctx.emit("fire", robot, f"fires {KEYS[key]}" + (f", hits the {hit[0]} on {square_name(hit[1])}" if hit else ""),
             key=KEYS[key], hit=square_name(hit[1]) if hit else None)
    if hit is None:
        return
    if hit[0] == "mine":
        trigger_mines(ctx, [hit[1]])
        return
    target = ctx.robot_at(hit[1])
    assert target is not None
    damage(ctx, target, 1, robot.seat, "laser")
    if target.alive and ctx.can_use(robot, "power-beam", ("red",), number) \
            and ctx.use(robot, "power-beam", f"push {target.name}"):
        push(ctx, target, key, int(param("power-beam", "push")), robot, "power beam")


def crossfire(ctx: Ctx, robot: Robot, key: int) -> None:
    """Four lines: orthogonal from a blue key, diagonal otherwise; all robot damage first (FAQ 4a)."""
    assert robot.square is not None
    keys = ORTHOGONAL if key in ORTHOGONAL else DIAGONAL
    hits = [(k, line_of_fire(ctx, robot.square, k)) for k in keys]
    ctx.emit("crossfire", robot, "CROSSFIRE " + " ".join(KEYS[k] for k in keys),
             hits=[square_name(h[1]) for _, h in hits if h])
    with ctx.damage_source():
        for _, hit in hits:
            if hit and hit[0] == "robot":
                target = ctx.robot_at(hit[1])
                if target is not None:
                    damage(ctx, target, 1, robot.seat, "crossfire")
        trigger_mines(ctx, [h[1] for _, h in hits if h and h[0] == "mine"])


def grenade(ctx: Ctx, robot: Robot, key: int, distance: int) -> None:
    """A grenade flies ``distance`` squares over everything; the arena wall stops it short."""
    here = robot.square
    assert here is not None
    for _ in range(distance):
        if not ctx.arena.on_arena(step(here, key)):
            break
        here = step(here, key)
    if here == robot.square:
        ctx.emit("grenade", robot, "GRENADES: thrown against the arena wall, lands at its feet",
                 square=square_name(here))
    if here in ctx.arena.pits:
        ctx.emit("grenade", robot, f"GRENADES: lands in the pit {square_name(here)}, no effect",
                 square=square_name(here), effect=False)
        return
    ctx.emit("grenade", robot, f"GRENADES: lands on {square_name(here)}", square=square_name(here), effect=True)
    detonation(ctx, here, 1, robot.seat, "grenade")


def water_cannon(ctx: Ctx, robot: Robot, key: int) -> None:
    """The jet sets off every mine on its way and pushes the first robot it reaches (FAQ 6d, 6e)."""
    here = robot.square
    assert here is not None
    ctx.emit("water-cannon", robot, f"WATER CANNON {KEYS[key]}", key=KEYS[key])
    while ctx.arena.open_step(here, key):
        here = step(here, key)
        if here in ctx.state.mines:
            trigger_mines(ctx, [here])
            continue
        target = ctx.robot_at(here)
        if target is not None:
            push(ctx, target, key, int(param("water-cannon", "push")), robot, "water cannon")
            return
