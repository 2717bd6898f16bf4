"""Tactics abilities: Sabotage, Duct Tape and Crane before the roll; Nitro, Emergency,
Homing and Dynamite after it.

Each ability is optional and used at most once; a card with two abilities
allows both, in either order. A tactician with an ability that can do
something gets a decision that repeats until they say ``done`` or nothing is
left. The waiting rule: when both teams can act, the team with fewer unused
engines acts first and the other sees what it did; a die breaks a tie.
"""

from __future__ import annotations

from typing import Sequence

from .context import Ctx, pname
from .defense import covering, supply_left
from .state import Robot
from .tiles import Box
from .yard import COCKPIT, connected, free_squares, joined, loose

AFTER_ROLL = ("nitro", "emergency", "homing", "dynamite")
Use = tuple[str, ...]  # ("tape", "r2c3"), ("nitro", "all"), ("homing", "2", "5") ...


def start_abilities(ctx: Ctx, kinds: Sequence[str], phase: str) -> None:
    state = ctx.state
    able = [t for t in (0, 1) if can_act(ctx, t, phase)]
    if len(able) == 2:
        unused = [state.reveal[t]["unused"] for t in (0, 1)]
        if unused[0] == unused[1]:
            first = state.rng().randrange(2)
            ctx.emit("wait", f"equal unused engines: a die says team {'AB'[first]} uses its card first",
                     first=first, phase=phase)
        else:
            first = 0 if unused[0] < unused[1] else 1
            ctx.emit("wait", f"team {'AB'[1 - first]} has more unused engines and waits to see what "
                     f"team {'AB'[first]} does", first=first, phase=phase)
        able = [first, 1 - first]
    state.queue = [[state.robots[t].tactician, phase] for t in able]
    advance(ctx, phase)


def advance(ctx: Ctx, phase: str) -> None:
    """Skip tacticians with nothing left to do; move on when nobody is left."""
    from .combat import roll, start_ordering
    state = ctx.state
    while state.queue and not can_act(ctx, state.team_of(state.queue[0][0]), phase):
        state.queue.pop(0)
    if not state.queue:
        roll(ctx) if phase == "before" else start_ordering(ctx)


def _left(ctx: Ctx, team: int) -> list[str]:
    info = ctx.state.reveal[team]
    return [a for a in info["abilities"] if a not in info["used_abilities"]]


def can_act(ctx: Ctx, team: int, phase: str) -> bool:
    """Whether ``team`` has any ability use open (cheaper than listing them)."""
    left = _left(ctx, team)
    if phase == "before" and "crane" in left and ctx.robot(team).yard:
        if uses(ctx, team, phase, crane=False):
            return True
        return bool(crane_moves(ctx, ctx.robot(team)))
    return bool(uses(ctx, team, phase))


def uses(ctx: Ctx, team: int, phase: str, crane: bool = True) -> list[Use]:
    """Every ability use open to ``team`` now (``done`` not included)."""
    left = _left(ctx, team)
    robot = ctx.robot(team)
    out: list[Use] = []
    if phase == "before":
        if "sabotage" in left:
            out.append(("sabotage",))
        if "duct-tape" in left and supply_left(ctx.state, ctx.box) > 0:
            out += [("tape", s) for s in sorted(robot.yard)
                    if ctx.box.tiles[robot.yard[s][0]].type != "armor"]
        if "crane" in left and crane:
            out += [("crane", *move) for move in crane_moves(ctx, robot)]
        return out
    dice = ctx.state.dice[team]
    if not dice:
        return out
    if "nitro" in left:
        out += [("nitro", "all")] + [("nitro", str(i + 1)) for i in range(len(dice))]
    if "emergency" in left and 0 in dice:
        out.append(("emergency",))
    if "homing" in left:
        out += [("homing", str(i + 1), str(v)) for i, d in enumerate(dice) if d for v in range(1, 6) if v != d]
    if "dynamite" in left and ctx.state.reveal[team]["rolled"] < 5:
        out.append(("dynamite",))
    return out


def crane_moves(ctx: Ctx, robot: Robot) -> list[tuple[str, str, str]]:
    """(from, to, facing) moves of one untokened tile that leave nothing loose."""
    box = ctx.box
    out = []
    targets = free_squares(robot.yard, [])
    for square in sorted(robot.yard):
        if covering(robot, square):
            continue
        tile = robot.yard.pop(square)
        rest = connected(robot.yard, box)
        whole = len(rest) == len(robot.yard)  # the others hold on without it
        for dest in [square] + targets:
            for rot in range(4):
                if dest == square and rot == tile[1]:
                    continue
                robot.yard[dest] = [tile[0], rot]
                if _holds(robot, box, dest, rest) if whole else not loose(robot.yard, box):
                    out.append((square, dest, "NESW"[rot]))
                del robot.yard[dest]
        robot.yard[square] = tile
    return out


def _holds(robot: Robot, box: Box, dest: str, attached: set[str]) -> bool:
    """Whether the tile on ``dest`` joins the cockpit or a tile joined to it."""
    for side in range(4):
        other = joined(robot.yard, box, dest, side)
        if other is not None and (other == COCKPIT or other in attached):
            return True
    return False


def use(ctx: Ctx, player: int, phase: str, what: Use) -> None:
    """Apply one ability use (already checked to be in ``uses``)."""
    state = ctx.state
    team = state.team_of(player)
    info = state.reveal[team]
    robot = ctx.robot(team)
    ability = {"tape": "duct-tape"}.get(what[0], what[0])
    info["used_abilities"].append(ability)
    who = f"{pname(player)} (team {'AB'[team]})"
    if what[0] == "sabotage":
        ctx.emit("sabotage", f"{who} uses Sabotage: one more forward arrow", team=team)
    elif what[0] == "tape":
        robot.tokens.append([what[1]])
        ctx.emit("duct-tape", f"{who} duct-tapes a defense token onto {what[1]}", team=team, square=what[1])
    elif what[0] == "crane":
        tile = robot.yard.pop(what[1])
        robot.yard[what[2]] = [tile[0], "NESW".index(what[3])]
        ctx.emit("crane", f"{who} cranes t{tile[0]} from {what[1]} to {what[2]} facing {what[3]}",
                 team=team, tile=tile[0], frm=what[1], to=what[2], rot=what[3])
    else:
        _after(ctx, team, who, what)


def _after(ctx: Ctx, team: int, who: str, what: Use) -> None:
    from .combat import show
    dice = ctx.state.dice[team]
    before = show(dice)
    if what[0] == "nitro":
        indices = range(len(dice)) if what[1] == "all" else [int(what[1]) - 1]
        for i in indices:
            dice[i] = ctx.roll()
    elif what[0] == "emergency":
        while 0 in dice:  # blanks are rolled again until none is left
            dice[:] = [d if d else ctx.roll() for d in dice]
    elif what[0] == "homing":
        dice[int(what[1]) - 1] = int(what[2])
    ctx.emit(what[0], f"{who} uses {what[0].capitalize()}: {before} -> {show(dice)}"
             if what[0] != "dynamite" else f"{who} uses Dynamite: the first hit counts twice",
             team=team, dice=list(dice))
