"""Phase 2: activation. Unit I of every robot, then II, then III; within a unit the
lowest number first, ties blue before red, then the lower starting number.

A die is looked up again before each activation, so a die moved by REMOTE
CONTROL activates where it now lies. A die of a destroyed robot does nothing.
"""

from __future__ import annotations

from .ctx import Ctx
from .damage import recall_mines
from .grid import DIAGONAL, KEYS, ORTHOGONAL, UNITS, Square, adjacent, square_name
from .lasers import crossfire, fire, grenade, line_of_fire, water_cannon
from .modules import module, param
from .movement import discharge, jump, move, repulsion_blast, teleport, teleport_target
from .state import Die, Robot


def order_key(robot: Robot, die: Die) -> tuple[int, int, int, int]:
    return (die.number, 0 if die.colour == "blue" else 1, robot.start_number or 99, robot.seat)


def next_die(ctx: Ctx, unit: int) -> tuple[Robot, Die] | None:
    waiting = [(order_key(r, d), r, d) for r in ctx.living() for d in r.program
               if d.unit == unit and not d.done]
    if not waiting:
        return None
    _, robot, die = min(waiting, key=lambda w: w[0])
    return robot, die


def run_activation(ctx: Ctx) -> None:
    ctx.phase = 2
    for unit in (1, 2, 3):
        ctx.unit = unit
        ctx.spent = set()
        ctx.emit("unit", None, f"control unit {UNITS[unit - 1]}", unit=UNITS[unit - 1])
        while (found := next_die(ctx, unit)) is not None:
            robot, die = found
            die.done = True
            ctx.active = (robot, die)
            activate(ctx, robot, die)
            ctx.active = None
    ctx.unit = 0


def direction(robot: Robot, die: Die) -> int:
    """A KillBot's keys are relative to where its miniature faces."""
    return (2 * robot.facing + die.key) % 8 if robot.killbot else die.key


def fits(robot: Robot, module_id: str, colour: str, number: int) -> bool:
    return robot.has(module_id) and module(module_id).fits(colour, number)


def activate(ctx: Ctx, robot: Robot, die: Die) -> None:
    key = direction(robot, die)
    ctx.emit("activate", robot, f"activates {die.name()}", die=die.name(), number=die.number,
             colour=die.colour, key=KEYS[key])
    key = _turn_die(ctx, robot, die, key)
    if die.colour == "blue":
        blue_action(ctx, robot, ("blue",), die.number, key)
    else:
        red_action(ctx, robot, die, key)


def blue_action(ctx: Ctx, robot: Robot, colours: tuple[str, ...], number: int, key: int) -> None:
    """Move, or JETPACK instead; MINES as the move starts; REPULSION BLAST and module B after.
    ``colours``: the dice the move counts as for modules (a MOBILITY move: red and blue)."""
    if ctx.can_use(robot, "jetpack", colours, number) and ctx.use(robot, "jetpack", f"jump {number} {KEYS[key]}"):
        jump(ctx, robot, key, number)
    else:
        mine = robot.has("mines") and ctx.use(robot, "mines", "lay a mine on the space you leave")
        move(ctx, robot, key, number, (lambda square: lay_mine(ctx, robot, square)) if mine else None)
    if robot.alive and ctx.can_use(robot, "repulsion-blast", colours, number) and _neighbours(ctx, robot) \
            and ctx.use(robot, "repulsion-blast", "push the adjacent robots away"):
        repulsion_blast(ctx, robot)
    if robot.alive and ctx.can_use(robot, "red-module-b", colours, number) and _neighbours(ctx, robot) \
            and ctx.use(robot, "red-module-b", "1 damage to everything adjacent"):
        discharge(ctx, robot)


def _neighbours(ctx: Ctx, robot: Robot) -> bool:
    """A robot or mine adjacent: only then is an area module worth asking about."""
    assert robot.square is not None
    return any(ctx.robot_at(s) is not None or s in ctx.state.mines for s in adjacent(robot.square))


def lay_mine(ctx: Ctx, robot: Robot, square: Square) -> None:
    """A mine on the square just left; with none left on the card, one comes back from the arena."""
    if not robot.alive or square in ctx.state.mines or ctx.robot_at(square) is not None:
        return
    if robot.mines_held == 0:
        own = sorted(s for s, o in ctx.state.mines.items() if o == robot.seat)
        if not own:
            return
        del ctx.state.mines[own[0]]  # the oldest-placed is not tracked: the first square in order
        robot.mines_held += 1
        ctx.emit("mine-taken", robot, f"takes its mine from {square_name(own[0])}", square=square_name(own[0]))
    robot.mines_held -= 1
    ctx.state.mines[square] = robot.seat
    ctx.emit("mine-laid", robot, f"lays a mine on {square_name(square)}", square=square_name(square))


# -- the red die -------------------------------------------------------------

def red_action(ctx: Ctx, robot: Robot, die: Die, key: int) -> None:
    choice = _how_to_fire(ctx, robot, die, key)
    if choice == "crossfire":
        crossfire(ctx, robot, key)
    elif choice == "grenades":
        grenade(ctx, robot, key, die.number)
    elif choice == "remote-control":
        remote_control(ctx, robot, key)
    elif choice == "teleport":
        target = teleport_target(ctx, robot, key, die.number)
        assert target is not None
        teleport(ctx, robot, target)
    elif choice == "water-cannon":
        water_cannon(ctx, robot, key)
    elif choice == "mobility":
        ctx.emit("mobility", robot, "MOBILITY: the red die moves the robot")
        blue_action(ctx, robot, ("blue", "red"), die.number, key)  # a red die used as a blue one (FAQ 3a)
    else:
        fire(ctx, robot, key, die.number)


def _turn_die(ctx: Ctx, robot: Robot, die: Die, key: int) -> int:
    """Red module A: turn the die (of the card's colour, data) up to 2 keys either way before it
    activates."""
    if not ctx.can_use(robot, "red-module-a", (die.colour,), die.number) \
            or robot.preset("red-module-a") == "never":
        return key
    reach = int(param("red-module-a", "turn"))
    turns = [0] + [t for n in range(1, reach + 1) for t in (n, -n)]
    answer = ctx.ask(robot, "turn-die", f"turn the red die {die.name()} before it fires?",
                     [f"turn {t:+d}" if t else "turn 0" for t in turns])
    turn = int(answer.split()[1])
    if turn:
        ctx.spend(robot, "red-module-a")
        key = (key + turn) % 8
        if not robot.killbot:
            die.key = key
        ctx.emit("turn-die", robot, f"turns the die to {KEYS[key]}", key=KEYS[key])
    return key


_INSTEAD = ("crossfire", "grenades", "remote-control", "teleport", "water-cannon", "mobility")


def _how_to_fire(ctx: Ctx, robot: Robot, die: Die, key: int) -> str:
    options = [m for m in _INSTEAD if ctx.can_use(robot, m, ("red",), die.number)
               and robot.preset(m) != "never" and _possible(ctx, robot, m, die, key)]
    always = [m for m in options if robot.preset(m) == "always"]
    if always or not options:
        choice = always[0] if always else "fire"
    else:
        choice = ctx.ask(robot, "red-die", f"{die.name()}: fire, or a module instead?",
                         ["fire"] + [f"use {m}" for m in options]).split()[-1]
    if choice != "fire":
        ctx.spend(robot, choice)
    return choice


def _possible(ctx: Ctx, robot: Robot, module_id: str, die: Die, key: int) -> bool:
    if module_id == "teleport":
        return teleport_target(ctx, robot, key, die.number) is not None
    if module_id == "mobility":
        return key in ORTHOGONAL  # a red die on a blue key may act as a blue die (FAQ 3a)
    if module_id == "remote-control":
        return bool(remote_choices(ctx, robot, key))
    return True


# -- REMOTE CONTROL ------------------------------------------------------------

def remote_choices(ctx: Ctx, robot: Robot, key: int) -> list[str]:
    """Ways to remote-control the first robot in the line of fire (a mine in front blocks, FAQ 4f)."""
    assert robot.square is not None
    hit = line_of_fire(ctx, robot.square, key)
    if hit is None or hit[0] != "robot":
        return []
    target = ctx.robot_at(hit[1])
    assert target is not None
    if target.killbot:
        return [f"face {f}" for f in "NESW"]
    out = []
    for die in target.program:
        if die.done:
            continue
        units = {die.unit} | ({u for u in (1, 2, 3) if u > ctx.unit} if target.has("ram-expansion") else set())
        for unit in sorted(units):
            taken = {d.key for d in target.program if d.unit == unit and d is not die}
            for new in legal_keys(target, die.colour, die.number):
                if new not in taken and (unit, new) != (die.unit, die.key):
                    out.append(f"remote {UNITS[die.unit - 1]}:{KEYS[die.key]} {UNITS[unit - 1]}:{KEYS[new]}")
    return out


def legal_keys(robot: Robot, colour: str, number: int) -> list[int]:
    """Keys a die may lie on: red any; blue the orthogonal ones, diagonal too with STEERING NOZZLE."""
    if colour == "red":
        return list(range(8))
    keys = list(ORTHOGONAL)
    if fits(robot, "steering-nozzle", "blue", number):
        keys += list(DIAGONAL)
    return sorted(keys)


def remote_control(ctx: Ctx, robot: Robot, key: int) -> None:
    assert robot.square is not None
    choices = remote_choices(ctx, robot, key)
    hit = line_of_fire(ctx, robot.square, key)
    assert hit is not None
    target = ctx.robot_at(hit[1])
    assert target is not None
    answer = ctx.ask(robot, "remote-control", f"REMOTE CONTROL {target.name}: which die to which key?", choices)
    if answer.startswith("face "):
        target.facing = "NESW".index(answer.split()[1])
        ctx.emit("remote-control", robot, f"REMOTE CONTROL turns {target.name} to face {answer.split()[1]}",
                 target=target.name, facing=answer.split()[1])
        return
    _, source, dest = answer.split()
    die = next(d for d in target.program if not d.done and d.unit == UNITS.index(source.split(":")[0]) + 1
               and d.key == KEYS.index(source.split(":")[1]))
    die.unit = UNITS.index(dest.split(":")[0]) + 1
    die.key = KEYS.index(dest.split(":")[1])
    die.remote_by = robot.seat
    ctx.emit("remote-control", robot, f"REMOTE CONTROL moves {target.name}'s die {source} to {dest}",
             target=target.name, die=die.name())


def unequip(ctx: Ctx, robot: Robot, module_id: str) -> None:
    del robot.monitor[next(s for s, m in robot.monitor.items() if m == module_id)]
    robot.inventory.append(module_id)
    if module_id == "mines":
        recall_mines(ctx, robot)
