"""Movement: a robot's own move, pushing lines of robots, mines in the way, barriers, pits;
the JETPACK jump, TELEPORT, REPULSION BLAST and the discharge of red module B.

Order inside one step, damage first: mines in the way detonate (a pushed
mine never moves, FAQ 4c); a mover crossing a lightning barrier takes its
damage and, if destroyed, pushes nothing (FAQ 1f); CONDUCTOR and SAW BLADE
damage; pushed robots crossing barriers; then everybody moves one square and
pits destroy. Pushed robots stop in front of energy walls (FAQ 6f) and a
mover whose line cannot move does not move either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .ctx import Ctx
from .damage import damage, destroy, trigger_mines
from .grid import FACINGS, KEYS, Square, adjacent, square_name, step
from .modules import param
from .state import Robot


@dataclass
class PushOp:
    """One push operation (a movement or one module's push): ANCHOR limits live here (FAQ 5a)."""

    author: int | None  # who is credited with what the push destroys
    budget: dict[int, int] = field(default_factory=dict)  # seat -> pushes an ANCHOR still allows
    conducted: set[int] = field(default_factory=set)  # CONDUCTOR carriers that already struck


def move(ctx: Ctx, robot: Robot, key: int, spaces: int,
         on_leave: Callable[[Square], None] | None = None) -> int:
    """The robot's own move of ``spaces`` squares; returns the squares actually moved.

    ``on_leave`` is called with the starting square once the robot has left it
    (MINES lays its mine there).
    """
    op = PushOp(robot.seat)
    moved = 0
    for i in range(spaces):
        if not robot.alive:
            break
        if robot.killbot:
            key = _caution(ctx, robot, key)
        start = robot.square
        if advance(ctx, robot, key, op, spaces - i, own=True):
            if i == 0 and on_leave is not None and start is not None:
                on_leave(start)
        else:
            if robot.alive and robot.square is not None:
                where = square_name(robot.square)
                ctx.emit("blocked", robot, f"cannot move {KEYS[key]} from {where}", square=where, key=KEYS[key])
            break
        moved += 1
    return moved


def _caution(ctx: Ctx, robot: Robot, key: int) -> int:
    """A KillBot meeting a pit turns as the pit's caution-line arrow says (clockwise if none)."""
    assert robot.square is not None
    ahead = step(robot.square, key)
    if ahead not in ctx.arena.pits:
        return key
    facing = key // 2
    new = ctx.arena.pits[ahead].get(facing, (facing + 1) % 4)
    robot.facing = new
    ctx.emit("caution", robot, f"caution line at {square_name(ahead)}: turns {FACINGS[new]}",
             facing=FACINGS[new], pit=square_name(ahead))
    return 2 * new


def line_ahead(ctx: Ctx, lead: Robot, key: int) -> list[Robot]:
    """``lead`` and the robots standing one after another in front of it."""
    line = [lead]
    square = step(lead.square, key)  # type: ignore[arg-type]
    while (other := ctx.robot_at(square)) is not None:
        line.append(other)
        square = step(square, key)
    return line


def _can_be_pushed(ctx: Ctx, robot: Robot, key: int, op: PushOp, left: int) -> bool:
    here = robot.square
    assert here is not None
    if not ctx.arena.open_step(here, key):  # pushed robots stop in front of walls
        return False
    if robot.has("anchor"):
        if robot.seat not in op.budget:
            op.budget[robot.seat] = _anchor(ctx, robot, left)
        return op.budget[robot.seat] > 0
    return True


def _anchor(ctx: Ctx, robot: Robot, left: int) -> int:
    """How far an ANCHOR lets this push operation move the robot (0 = not at all)."""
    preset = robot.preset("anchor")
    if preset == "never":
        return left
    if preset == "always":
        return 0  # brake as much as possible
    answer = ctx.ask(robot, "anchor", f"ANCHOR: be pushed how many spaces (0-{left})?",
                     [f"anchor {n}" for n in range(left + 1)])
    return int(answer.split()[1])


def advance(ctx: Ctx, lead: Robot, key: int, op: PushOp, left: int, own: bool) -> bool:
    """Move ``lead`` one square towards ``key`` with the line ahead of it.

    ``own``: the lead moves under its own power (its barrier and pit damage is
    nobody's credit; WALL CONTROL may let it through an energy wall). Otherwise
    the lead itself is being pushed by ``op``.
    """
    arena = ctx.arena
    while True:
        here = lead.square
        assert here is not None
        target = step(here, key)
        if not arena.on_arena(target):
            return False
        if arena.wall_cut(here, key) and not (own and _wall_control(ctx, lead)):
            return False
        line = line_ahead(ctx, lead, key)
        pushed = line[1:] if own else line
        if not all(_can_be_pushed(ctx, r, key, op, left) for r in pushed):
            return False
        ahead = [step(r.square, key) for r in line if r.square is not None]
        mines = [s for s in ahead if s in ctx.state.mines]
        if not mines:
            break
        trigger_mines(ctx, mines)  # the mines go off where they lie, before anything moves
        if not lead.alive:
            return False
    if own and arena.barrier_cut(here, key):
        damage(ctx, lead, 1, None, "lightning barrier")
        if not lead.alive:
            return False  # destroyed while moving: pushes nothing more (FAQ 1f)
    if own and len(line) > 1:
        first = line[1]
        if (first.has("conductor") and first.seat not in op.conducted
                and ctx.use(first, "conductor", f"{lead.name} pushes you")):
            op.conducted.add(first.seat)
            damage(ctx, lead, int(_param("conductor", "damage")), first.seat, "conductor")
            if not lead.alive:
                return False
        if lead.has("saw-blade") and ctx.use(lead, "saw-blade", f"pushing {first.name}"):
            damage(ctx, first, int(_param("saw-blade", "damage")), lead.seat, "saw blade")
    for robot in pushed:
        if robot.alive and robot.square is not None and arena.barrier_cut(robot.square, key):
            damage(ctx, robot, 1, op.author, "lightning barrier")
    for robot in reversed(line):
        if robot.alive and robot.square is not None:
            start = robot.square
            robot.square = step(start, key)
            if robot is not lead or not own:
                op.budget[robot.seat] = op.budget.get(robot.seat, 99) - 1
            kind = "move" if (robot is lead and own) else "pushed"
            ctx.emit(kind, robot, f"{'moves' if kind == 'move' else 'pushed'} {KEYS[key]} to "
                     f"{square_name(robot.square)}", square=square_name(robot.square),
                     start=square_name(start), key=KEYS[key])
    for robot in line:
        if robot.alive and robot.square in arena.pits:
            destroy(ctx, robot, None if (robot is lead and own) else op.author, "pit")
    return True


def _param(module_id: str, key: str) -> int:
    return int(param(module_id, key))


def _wall_control(ctx: Ctx, robot: Robot) -> bool:
    return robot.has("wall-control") and ctx.use(robot, "wall-control", "an energy wall is in the way")


def push(ctx: Ctx, victim: Robot, key: int, spaces: int, source: Robot | None, cause: str) -> int:
    """A module's push; it completes even if ``source`` is destroyed meanwhile (FAQ 1f, 4c)."""
    op = PushOp(source.seat if source else None)
    if source is not None and source is not victim and victim.has("conductor") \
            and ctx.use(victim, "conductor", f"{source.name} pushes you ({cause})"):
        op.conducted.add(victim.seat)
        damage(ctx, source, int(_param("conductor", "damage")), victim.seat, "conductor")
    moved = 0
    for i in range(spaces):
        if not victim.alive or not advance(ctx, victim, key, op, spaces - i, own=False):
            break
        moved += 1
    return moved


# -- module movements ---------------------------------------------------------

def jump(ctx: Ctx, robot: Robot, key: int, spaces: int) -> None:
    """JETPACK: one jump over robots, mines, pits and barriers, stopped by walls (FAQ 6a, 6c)."""
    start = robot.square
    assert start is not None
    through = False
    land = start
    for _ in range(spaces):
        if not ctx.arena.on_arena(step(land, key)):
            break
        if ctx.arena.wall_cut(land, key):
            through = through or _wall_control(ctx, robot)
            if not through:
                break
        land = step(land, key)
    if land == start:
        ctx.emit("jump", robot, "JETPACK: no room to jump", square=square_name(start))
        return
    ctx.emit("jump", robot, f"JETPACK jump {KEYS[key]} towards {square_name(land)}", square=square_name(land))
    if land in ctx.state.mines:
        trigger_mines(ctx, [land])
    occupant = ctx.robot_at(land)
    if occupant is not None and robot.alive:
        if push(ctx, occupant, key, 1, robot, "jetpack landing") == 0 and occupant.alive:
            destroy(ctx, occupant, robot.seat, "jetpack landing")  # cannot make room
    if not robot.alive or ctx.robot_at(land) is not None:
        return
    robot.square = land
    ctx.emit("move", robot, f"lands on {square_name(land)}", square=square_name(land), start=square_name(start),
             key=KEYS[key])
    if land in ctx.arena.pits:
        destroy(ctx, robot, None, "pit")


def teleport_target(ctx: Ctx, robot: Robot, key: int, spaces: int) -> Square | None:
    """TELEPORT lands ``spaces`` squares along the line of fire, which must not cross an energy
    wall (FAQ 3f); robots and mines on the way are passed; the landing square must be empty."""
    here = robot.square
    assert here is not None
    for _ in range(spaces):
        if not ctx.arena.open_step(here, key):
            return None
        here = step(here, key)
    if ctx.robot_at(here) is not None or here in ctx.state.mines:
        return None
    return here


def teleport(ctx: Ctx, robot: Robot, target: Square) -> None:
    start = robot.square
    robot.square = target
    ctx.emit("teleport", robot, f"TELEPORT to {square_name(target)}", square=square_name(target),
             start=square_name(start) if start else None)
    if target in ctx.arena.pits:
        destroy(ctx, robot, None, "pit")


def repulsion_blast(ctx: Ctx, robot: Robot) -> None:
    """Push every adjacent robot 1 space away; adjacent mines detonate first (FAQ 4c, 6a)."""
    centre = robot.square
    assert centre is not None
    ctx.emit("repulsion", robot, f"REPULSION BLAST from {square_name(centre)}", square=square_name(centre))
    around = [s for s in adjacent(centre) if ctx.arena.on_arena(s)]
    trigger_mines(ctx, [s for s in around if s in ctx.state.mines])
    for key in range(8):
        target = step(centre, key)
        victim = ctx.robot_at(target)
        if victim is not None and victim is not robot:
            push(ctx, victim, key, 1, robot, "repulsion blast")


def discharge(ctx: Ctx, robot: Robot) -> None:
    """Red module B: 1 damage to every robot and mine in the adjacent spaces."""
    centre = robot.square
    assert centre is not None
    ctx.emit("discharge", robot, f"discharge around {square_name(centre)}", square=square_name(centre))
    around = [s for s in adjacent(centre) if ctx.arena.on_arena(s)]
    mines = [s for s in around if s in ctx.state.mines]
    with ctx.damage_source():
        for square in around:
            victim = ctx.robot_at(square)
            if victim is not None:
                damage(ctx, victim, 1, robot.seat, "discharge")
        trigger_mines(ctx, mines)
