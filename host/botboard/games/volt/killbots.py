"""KillBots: computer-controlled robots in empty seats. The algorithm is the project's
choice built on what the FAQ states (docs/volt.md, "KillBots"):

- A KillBot looks straight along the four orthogonal directions for VP tokens;
  sight stops at an energy wall, the arena wall and another KillBot (a friendly
  KillBot hides its own space and everything behind it, FAQ 7c). Operators'
  robots and mines do not block sight.
- It faces the nearest token it sees (ties: ahead, right, left, behind); with
  none in sight it keeps its facing.
- Program: unit I a blue die ahead, the distance to the token (at most 6; 1
  if none is seen); units II and III a red die ahead, 3 and 4.
- Moving, a KillBot that would enter a pit turns as the pit's caution-line
  arrow says (movement.py); REMOTE CONTROL turns its miniature instead of
  moving a die.
"""

from __future__ import annotations

from .ctx import Ctx
from .grid import FACINGS, step
from .state import Die, Robot


def sight(ctx: Ctx, robot: Robot, facing: int) -> int | None:
    """Distance to the first VP token seen towards ``facing``, or None."""
    here = robot.square
    assert here is not None
    distance = 0
    while ctx.arena.open_step(here, 2 * facing):
        here = step(here, 2 * facing)
        distance += 1
        other = ctx.robot_at(here)
        if other is not None and other.killbot:
            return None
        if here in ctx.state.tokens:
            return distance
    return None


def choose_facing(ctx: Ctx, robot: Robot) -> tuple[int, int | None]:
    seen = []
    for turn, rank in ((0, 0), (1, 1), (3, 2), (2, 3)):  # ahead, right, left, behind
        facing = (robot.facing + turn) % 4
        distance = sight(ctx, robot, facing)
        if distance is not None:
            seen.append((distance, rank, facing))
    if not seen:
        return robot.facing, None
    distance, _, facing = min(seen)
    return facing, distance


def program_killbots(ctx: Ctx) -> None:
    for robot in ctx.state.robots:
        if not robot.killbot or not robot.alive or robot.submitted:
            continue
        facing, distance = choose_facing(ctx, robot)
        if facing != robot.facing:
            robot.facing = facing
            ctx.emit("killbot-turn", robot, f"spots a VP token and turns {FACINGS[facing]}", facing=FACINGS[facing])
        robot.program = [Die(1, "blue", 0, min(distance or 1, 6)), Die(2, "red", 0, 3), Die(3, "red", 0, 4)]
        robot.submitted = True
