"""The round: Phase 2 activation and Phase 3 resolution, then the next round's
Phase 0 preparation, up to the next Phase 1 programming.

Phase 0: VP token draw; destroyed robots lose their damage and reboot on a
start space of their side (an occupant is pushed one space along the arrow,
without damage, never into a pit; modules are inactive, so mines move
without detonating, FAQ 1b); operators equip modules. Phase 3: first the
"beginning of Phase 3" effects (high voltage), then each robot in
starting-number order activates its space, damage first (FAQ 3g).
"""

from __future__ import annotations

from .activation import run_activation, unequip
from .arena import Start
from .ctx import Ctx
from .damage import damage, draw_module, finish, gain_vp, trigger_mines
from .grid import square_name, step
from .killbots import program_killbots
from .modules import module, param
from .monitor import free_slots
from .state import Robot

VP_IN_ARENA = 3  # a token is drawn while fewer than this many lie in the arena


def play_round(ctx: Ctx) -> None:
    """Everything from the end of programming to the next programming phase."""
    assign_killbot_numbers(ctx)
    run_activation(ctx)
    resolution(ctx)
    state = ctx.state
    state.round += 1
    if state.round > int(state.options["max_rounds"]):
        best = max(r.vp for r in state.robots)
        finish(ctx, [r.seat for r in state.robots if r.vp == best and best > 0],
               f"round limit {state.options['max_rounds']} reached (the project's cap, not a rule)")
    preparation(ctx)
    start_programming(ctx)
    if not any(r.alive for r in state.robots if not r.killbot):
        play_round(ctx)  # no operator can program this round: the KillBots play on


def assign_killbot_numbers(ctx: Ctx) -> None:
    """KillBots take the starting numbers after the operators (the project's choice)."""
    for robot in ctx.state.robots:
        if robot.killbot and not robot.destroyed:
            robot.start_number = ctx.state.next_start
            ctx.state.next_start += 1


# -- Phase 3 -------------------------------------------------------------------

def resolution(ctx: Ctx) -> None:
    ctx.phase = 3
    state, arena = ctx.state, ctx.arena
    ctx.emit("phase", None, "Phase 3: resolution", number=3)
    with ctx.damage_source():  # the beginning of Phase 3: high voltage, one source
        for robot in ctx.living():
            if robot.square in arena.high_voltage:
                damage(ctx, robot, 1, None, "high voltage")
        trigger_mines(ctx, [s for s in arena.high_voltage if s in state.mines])
    for robot in ctx.living():
        activate_space(ctx, robot)


def activate_space(ctx: Ctx, robot: Robot) -> None:
    if not robot.alive:
        return
    here = robot.square
    assert here is not None
    target = _reach(ctx, robot, here)
    if target != here:
        ctx.emit("reach", robot, f"TELESCOPIC ARM activates {square_name(target)}", square=square_name(target))
        key = next(k for k in range(8) if step(here, k) == target)
        if ctx.arena.barrier_cut(here, key):
            damage(ctx, robot, 1, None, "lightning barrier")
    if target in ctx.state.mines:
        trigger_mines(ctx, [target])
    if not robot.alive:
        return  # destroyed by the activation: collects nothing (FAQ 3g)
    if target in ctx.state.tokens:
        number = ctx.state.tokens.pop(target)
        ctx.emit("token", robot, f"takes the VP token from space {number}", square=square_name(target), number=number)
        gain_vp(ctx, robot, f"the VP token on space {number}")
    if target in ctx.arena.workshops:
        workshop(ctx, robot)


def _reach(ctx: Ctx, robot: Robot, here: tuple[int, int]) -> tuple[int, int]:
    """TELESCOPIC ARM: activate an adjacent space instead (any space, FAQ 3h; walls stop the arm)."""
    if not robot.has("telescopic-arm") or robot.preset("telescopic-arm") == "never":
        return here
    options = [step(here, k) for k in range(8) if ctx.arena.open_step(here, k)]
    if robot.preset("telescopic-arm") == "always" or robot.killbot:
        useful = [s for s in options if s in ctx.state.tokens or s in ctx.arena.workshops]
        return useful[0] if useful and here not in ctx.state.tokens else here
    answer = ctx.ask(robot, "reach", "TELESCOPIC ARM: which space do you activate?",
                     ["reach here"] + [f"reach {square_name(s)}" for s in options])
    if answer == "reach here":
        return here
    return next(s for s in options if square_name(s) == answer.split()[1])


def workshop(ctx: Ctx, robot: Robot) -> None:
    answer = ctx.ask(robot, "workshop", "workshop: repair, or draw a module instead?", ["repair", "draw"])
    if answer == "draw":
        draw_module(ctx, robot, "workshop")
        return
    amount = min(int(ctx.state.options["repair"]), robot.damage)
    robot.damage -= amount
    ctx.emit("repair", robot, f"workshop repairs {amount} damage ({robot.damage} left)",
             repaired=amount, damage=robot.damage)


# -- Phase 0 -------------------------------------------------------------------

def preparation(ctx: Ctx) -> None:
    ctx.phase = 0
    ctx.emit("phase", None, f"round {ctx.state.round}, Phase 0: preparation", number=0)
    draw_vp_token(ctx)
    for robot in ctx.state.robots:
        if robot.destroyed:
            reboot(ctx, robot)
    for robot in ctx.state.robots:
        if robot.inventory:
            (equip_killbot if robot.killbot else equip)(ctx, robot)


def draw_vp_token(ctx: Ctx) -> None:
    """One token, onto the VP space of its number (also under a robot, FAQ 1e).

    Option ``vp_draw``: "below-3" draws only while fewer than 3 tokens lie in the
    arena; "every-round" draws every round. A token whose space already holds
    one goes back and another is drawn.
    """
    state = ctx.state
    if state.options["vp_draw"] == "below-3" and len(state.tokens) >= VP_IN_ARENA:
        return
    free = [n for n in state.bag if ctx.arena.vp_spaces.get(n) not in state.tokens]
    if not free:
        ctx.emit("no-token", None, "no VP token can be placed")
        return
    number = free[ctx.rng().randrange(len(free))]
    state.bag.remove(number)
    square = ctx.arena.vp_spaces[number]
    state.tokens[square] = number
    under = ctx.robot_at(square)
    ctx.emit("vp-token", None, f"VP token {number} placed on {square_name(square)}"
             + (f" under {under.name}" if under else ""), number=number, square=square_name(square))


def reboot(ctx: Ctx, robot: Robot) -> None:
    """Damage comes off a destroyed robot, which returns on a start space of its side."""
    starts = [s for s in ctx.arena.starts_of(robot.side) if _reboot_room(ctx, s)]
    if not starts:
        robot.damage, robot.shield = 0, 0
        ctx.emit("no-reboot", robot, "no start space of its side can take it this round")
        return
    answer = ctx.ask(robot, "reboot", "reboot on which start space?",
                     [f"start {square_name(s.square)}" for s in starts])
    start = next(s for s in starts if square_name(s.square) == answer.split()[1])
    _shove(ctx, start)
    robot.damage, robot.shield = 0, 0
    robot.destroyed, robot.square = False, start.square
    ctx.emit("reboot", robot, f"reboots on {square_name(start.square)}", square=square_name(start.square))


def _line(ctx: Ctx, start: Start) -> list[tuple[int, int]]:
    """Occupied squares (robots or mines) from the start space along its arrow."""
    out, square = [], start.square
    while ctx.arena.on_arena(square) and (ctx.robot_at(square) is not None or square in ctx.state.mines):
        out.append(square)
        square = step(square, start.arrow)
    return out


def _reboot_room(ctx: Ctx, start: Start) -> bool:
    line = _line(ctx, start)
    if not line:
        return True
    ahead = step(line[-1], start.arrow)
    return all(ctx.arena.open_step(s, start.arrow) for s in line) and ahead not in ctx.arena.pits


def _shove(ctx: Ctx, start: Start) -> None:
    """Push the line on the start space one space along the arrow: no damage, no pits, no modules."""
    for square in reversed(_line(ctx, start)):
        ahead = step(square, start.arrow)
        robot = ctx.robot_at(square)
        if robot is not None:
            robot.square = ahead
            ctx.emit("pushed", robot, f"pushed off the start space to {square_name(ahead)}",
                     square=square_name(ahead), start=square_name(square), cause="reboot")
        if square in ctx.state.mines:
            ctx.state.mines[ahead] = ctx.state.mines.pop(square)
            ctx.emit("mine-moved", None, f"mine pushed from {square_name(square)} to {square_name(ahead)}",
                     square=square_name(ahead), start=square_name(square))


def equip(ctx: Ctx, robot: Robot) -> None:
    """Equip from the inventory into a slot the monitor allows, move an equipped module to
    another, or unequip; each module changes place at most once a phase (the project's
    choice: the question ends)."""
    monitor = ctx.state.monitor
    changed: set[str] = set()
    while True:
        choices = ["done"]
        for name in robot.inventory:
            if name not in changed:
                choices += [f"equip {name} {slot}" for slot in free_slots(monitor, robot.monitor, name)]
        for slot, name in sorted(robot.monitor.items()):
            if name not in changed:
                rest = {s: m for s, m in robot.monitor.items() if s != slot}
                choices += [f"move {name} {s}" for s in free_slots(monitor, rest, name) if s != slot]
        choices += [f"unequip {m}" for m in robot.modules if m not in changed]
        used = ", ".join(f"{s}: {module(m).name}" for s, m in sorted(robot.monitor.items())) or "empty"
        answer = ctx.ask(robot, "equip", f"Phase 0: equip modules (monitor {monitor.name}, "
                         f"{monitor.slots} slots; {used})", choices)
        if answer == "done":
            return
        verb, name, *where = answer.split()
        changed.add(name)
        if verb == "equip":
            put_in_slot(ctx, robot, name, int(where[0]))
        elif verb == "move":  # with what lies on the card (SHIELD's damage tokens, FAQ 5b)
            target = int(where[0])
            robot.monitor = {s: m for s, m in robot.monitor.items() if m != name}
            robot.monitor[target] = name
            ctx.emit("move-module", robot, f"moves {module(name).name} to slot {target}", module=name,
                     slot=target)
        else:
            unequip(ctx, robot, name)
            ctx.emit("unequip", robot, f"unequips {module(name).name}", module=name)


def equip_killbot(ctx: Ctx, robot: Robot) -> None:
    """A KillBot equips what it drew, each into the first slot the monitor allows (the project's choice)."""
    for name in list(robot.inventory):
        slots = free_slots(ctx.state.monitor, robot.monitor, name)
        if slots:
            put_in_slot(ctx, robot, name, slots[0])


def put_in_slot(ctx: Ctx, robot: Robot, name: str, slot: int) -> None:
    robot.inventory.remove(name)
    robot.monitor[slot] = name
    if name == "mines":
        robot.mines_held = int(param("mines", "tokens"))
    ctx.emit("equip", robot, f"equips {module(name).name} in slot {slot}", module=name, slot=slot)


# -- Phase 1 -------------------------------------------------------------------

def start_programming(ctx: Ctx) -> None:
    state = ctx.state
    ctx.phase = 1
    for robot in state.robots:
        robot.program, robot.submitted, robot.start_number = [], False, 0
    state.next_start = 1
    program_killbots(ctx)
    state.phase = "program"
    ctx.emit("phase", None, f"round {state.round}, Phase 1: programming", number=1)

