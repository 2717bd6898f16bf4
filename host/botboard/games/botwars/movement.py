"""Robot movement square by square: walls, the fence, pushing, and what a square does on entry.

Entry effects (switches, pits, raised drawbridges, teleporters) act at any
time, also in the middle of a card's movement and during conveyor or pusher
moves. Turning in place never triggers them.
"""

from __future__ import annotations

from typing import Any

from .board import FACINGS, OFF, Square, square_name
from .cards import CardKind
from .context import Ctx
from .damage import damage, destroy
from .state import Player

FENCE_DAMAGE = 2


def play_card(ctx: Ctx, robot: Player, card: int, kind: CardKind) -> None:
    """Carry out one program card (``card`` is its priority, the time index; ``kind`` what it does)."""
    if kind.turn:
        robot.facing = (robot.facing + kind.turn) % 4
        if ctx.events is not None:  # (a search steps without events: not even the call)
            ctx.record("turn", robot, _turned, robot.facing, card)
    elif kind.move or kind.side:
        if kind.move:
            way, squares = (robot.facing, kind.move) if kind.move > 0 else ((robot.facing + 2) % 4, -kind.move)
        else:
            way, squares = (robot.facing + kind.side) % 4, 1
        for _ in range(squares):
            if not step(ctx, robot, way, card):
                if robot.square is not None:
                    ctx.record("obstruction", robot, _obstructed, card)
                return
            if robot.square is None:
                return  # destroyed on the way
    else:
        ctx.emit("idle", robot, "stand still", time=card)


def step(ctx: Ctx, robot: Player, way: int, time: int | None, how: str = "move") -> bool:
    """Move ``robot`` one square towards ``way``, pushing a real robot in the way.

    ``how`` names the cause in the event ("move", "push", "pusher"). Returns
    whether the robot left its square. A chain of pushes fails as a whole when
    its front robot cannot move.
    """
    here = robot.square
    assert here is not None
    target = ctx.exits[here][way]
    if target is None:
        return False  # a wall
    if target is OFF:
        fence(ctx, robot)
        return False
    if ctx.bridges and target in ctx.bridges and ctx.bridge_raised(target) == (way + 2) % 4:
        return False  # the bridge itself acts as a wall from its own side
    other = ctx.blocker(target, robot)
    if other is not None and not step(ctx, other, way, time, "push"):
        if other.square is not None or not ctx.rules["pusher_enters_emptied_square"]:
            return False
    robot.square = target
    if ctx.events is not None:
        ctx.record(how, robot, _moved, how, target, time)
    if target in ctx.entry:  # most squares do nothing to a robot that enters
        enter(ctx, robot, target)
    return True


# -- the events' words and data (events.py), made when they are read ----------
def _turned(facing: int, time: int) -> tuple[str, dict[str, Any]]:
    return f"face {FACINGS[facing]}", {"facing": FACINGS[facing], "time": time}


def _obstructed(time: int) -> tuple[str, dict[str, Any]]:
    return "obstruction encountered", {"time": time}


def _moved(how: str, target: Square, time: int | None) -> tuple[str, dict[str, Any]]:
    """``how``: move, push (by a robot) or pusher (the board element)."""
    name = square_name(target)
    if how == "pusher":
        return f"pusher to {name}", {"square": name}
    by = {"square": name, "time": time} if time is not None else {"square": name}
    if how == "push":
        at = f" at {time}" if time is not None else ""
        return f"pushed{at} to {name}", by
    return f"move to {name}", by


def _fenced() -> tuple[str, dict[str, Any]]:
    return "electric fence", {"damage": FENCE_DAMAGE}


def fence(ctx: Ctx, robot: Player) -> None:
    ctx.record("fence", robot, _fenced)
    damage(ctx, robot, FENCE_DAMAGE, "electric fence")


def enter(ctx: Ctx, robot: Player, square: Square) -> None:
    """What the square does to a robot that has just moved into it."""
    cell = ctx.cells.get(square)
    if cell is None:
        return
    kind = cell["type"]
    if kind == "switch":
        flip(ctx, robot, square, cell["kind"])
    elif kind == "pit":
        destroy(ctx, robot, f"fell into the pit at {square_name(square)}")
    elif kind == "drawbridge" and ctx.bridge_raised(square) is not None:
        destroy(ctx, robot, f"fell off the raised drawbridge at {square_name(square)}")
    elif kind == "teleporter" and ctx.teleporter_active(cell):
        teleport(ctx, robot, square, cell["colour"])


def flip(ctx: Ctx, robot: Player, square: Square, kind: str) -> None:
    switches = ctx.state.switches
    if kind == "pressure":
        if square in switches:
            return  # a pressure switch stays on
        switches.add(square)
    elif square in switches:
        switches.remove(square)
    else:
        switches.add(square)
    state = "on" if square in switches else "off"
    ctx.emit("switch", robot, f"switch {square_name(square)} {state}", square=square_name(square),
             on=square in switches)


def teleport(ctx: Ctx, robot: Player, square: Square, colour: str) -> None:
    """On to the next active, unoccupied teleporter in alphabetical colour order, if any."""
    ring = sorted((cell["colour"], sq) for sq, cell in ctx.board.cells.items()
                  if cell["type"] == "teleporter")
    start = ring.index((colour, square))
    for offset in range(1, len(ring)):
        other_colour, other = ring[(start + offset) % len(ring)]
        cell = ctx.board.cells[other]
        if ctx.teleporter_active(cell) and ctx.blocker(other, robot) is None:
            robot.square = other
            ctx.emit("teleport", robot, f"teleport to {square_name(other)}",
                     square=square_name(other), colour=other_colour)
            return
