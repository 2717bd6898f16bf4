"""A combat round: tactics cards, secret controllers, reveal, squabble, dice, damage, checks.

Controller settings are relative to the robot: the steering dial names the
side that comes to the front (F none, R right, L left, B back: 0, 1, 1, 2
engines) and the targeting mechanism the side of the enemy attacked after it
turned (F front, R its right, L its left, B its rear: 0, 1, 1, 2 engines).
A setting that costs more engines than the robot has is a goof: every engine
is used, the robot does not turn and attacks the enemy's front. A robot that
does not turn overheats: one die fewer.
"""

from __future__ import annotations

from itertools import permutations

from ..base import IllegalAction
from .abilities import AFTER_ROLL, start_abilities
from .context import Ctx, pname
from .damage import resolve
from .state import Robot
from .tiles import BEFORE_ROLL, Box
from .yard import SIDE_NAMES

COMBAT_ROUNDS = 4
MAX_DICE = 5
RELATIVE = "FRBL"  # front, right, back (rear), left: quarter turns clockwise from the front
COST = (0, 1, 2, 1)


def engines(robot: Robot, box: Box) -> int:
    """The cockpit's engine plus every engine on the robot's tiles."""
    return 1 + sum(box.tiles[t].engines for t, _ in robot.yard.values())


def weapons(robot: Robot, box: Box) -> int:
    return sum(1 for t, _ in robot.yard.values() if box.tiles[t].type == "weapon")


def forward_arrows(robot: Robot, box: Box) -> int:
    return sum(box.tiles[t].arrows_on(robot.front, rot) for t, rot in robot.yard.values())


def start_combat_round(ctx: Ctx) -> None:
    state = ctx.state
    state.combat_round += 1
    state.faceup = state.tactics[:3]
    del state.tactics[:3]
    cards = "; ".join(f"{i + 1}: {'+'.join(ctx.box.tactics[c])}" for i, c in enumerate(state.faceup))
    ctx.emit("tactics", f"combat round {state.combat_round}: tactics cards {cards}",
             round=state.combat_round, cards=list(state.faceup))
    state.controls = [{}, {}]
    state.reveal, state.dice, state.hits = [], [], []
    state.queue = []
    for robot in state.robots:
        state.queue += [[robot.pilot, "pilot"], [robot.tactician, "tactic"]]


def set_pilot(ctx: Ctx, player: int, steer: int, target: int) -> None:
    team = ctx.state.team_of(player)
    ctx.state.controls[team].update(steer=steer, target=target)
    _next_control(ctx, player, "pilot")


def set_tactic(ctx: Ctx, player: int, slot: int) -> None:
    if not 1 <= slot <= len(ctx.state.faceup):
        raise IllegalAction(f"choose tactics card 1..{len(ctx.state.faceup)} (left, middle, right)")
    ctx.state.controls[ctx.state.team_of(player)]["card"] = slot
    _next_control(ctx, player, "tactic")


def _next_control(ctx: Ctx, player: int, kind: str) -> None:
    ctx.state.queue.pop(0)
    ctx.emit("controller", f"{pname(player)} sets the {kind} controller face down", player=pname(player))
    if not ctx.state.queue:
        reveal(ctx)


def reveal(ctx: Ctx) -> None:
    """Count engines, goof, turn the robots, aim, and settle the squabble over cards."""
    state, box = ctx.state, ctx.box
    state.reveal = []
    for team, robot in enumerate(state.robots):
        control = state.controls[team]
        have = engines(robot, box)
        cost = COST[control["steer"]] + COST[control["target"]]
        goof = cost > have
        steer, target = (0, 0) if goof else (control["steer"], control["target"])
        used = have if goof else cost
        robot.front = (robot.front + steer) % 4
        state.reveal.append({"engines": have, "used": used, "unused": have - used, "goof": goof,
                             "overheat": steer == 0, "steer": RELATIVE[steer], "target": RELATIVE[target],
                             "card": None, "abilities": [], "used_abilities": []})
        ctx.emit("reveal", f"team {'AB'[team]}: steers {RELATIVE[steer]}, targets {RELATIVE[target]}, "
                 f"{used} of {have} engines used" + (" (GOOF: everything used, no turn, front targeted)" if goof
                                                     else "") + (", overheats" if steer == 0 else ""),
                 team=team, used=used, unused=have - used, goof=goof, overheat=steer == 0,
                 front=SIDE_NAMES[robot.front])
    for team in (0, 1):
        enemy = state.robots[1 - team]
        side = (enemy.front + RELATIVE.index(state.reveal[team]["target"])) % 4
        state.reveal[team]["side"] = side
        ctx.emit("aim", f"team {'AB'[team]} attacks robot {'AB'[1 - team]} from its {SIDE_NAMES[side]} side "
                 "(yard side)", team=team, side=SIDE_NAMES[side])
    _squabble(ctx)
    start_abilities(ctx, BEFORE_ROLL, "before")


def _squabble(ctx: Ctx) -> None:
    state = ctx.state
    picks = [state.controls[t]["card"] for t in (0, 1)]
    unused = [state.reveal[t]["unused"] for t in (0, 1)]
    for team in (0, 1):
        pick = picks[team]
        lost = picks[0] == picks[1] and unused[team] < unused[1 - team]
        card = state.faceup[pick - 1]
        if lost:
            ctx.emit("squabble", f"team {'AB'[team]} loses tactics card {pick} to the team with more unused "
                     "engines", team=team, card=card, won=False)
            continue
        if picks[0] == picks[1]:
            ctx.emit("squabble", f"team {'AB'[team]} keeps tactics card {pick}"
                     + (" (tie on unused engines: both use it)" if unused[0] == unused[1] else ""),
                     team=team, card=card, won=True)
        state.reveal[team]["card"] = card
        state.reveal[team]["abilities"] = list(ctx.box.tactics[card])


def dice_count(ctx: Ctx, team: int) -> int:
    info = ctx.state.reveal[team]
    arrows = forward_arrows(ctx.robot(team), ctx.box)
    bonus = 1 if "sabotage" in info["used_abilities"] else 0
    return max(0, min(MAX_DICE, arrows + bonus) - (1 if info["overheat"] else 0))


def roll(ctx: Ctx) -> None:
    """Both tacticians roll at once; then the after-roll abilities."""
    state = ctx.state
    state.dice = []
    for team in (0, 1):
        count = dice_count(ctx, team)
        dice = [ctx.roll() for _ in range(count)]
        state.dice.append(dice)
        state.reveal[team]["rolled"] = count
        ctx.emit("roll", f"team {'AB'[team]} rolls {count} dice: {show(dice) or 'nothing'}",
                 team=team, dice=list(dice))
    start_abilities(ctx, AFTER_ROLL, "after")


def show(dice: list[int]) -> str:
    return " ".join(str(d) if d else "-" for d in dice)


def order_choices(dice: list[int]) -> list[tuple[int, ...]]:
    return sorted(set(permutations(dice)), reverse=True)


def start_ordering(ctx: Ctx) -> None:
    state = ctx.state
    state.hits = [[], []]
    state.queue = [[state.robots[t].tactician, "order"] for t in (0, 1)
                   if len(order_choices(state.dice[t])) > 1]
    for team in (0, 1):
        if len(order_choices(state.dice[team])) <= 1:
            set_order(ctx, team, tuple(state.dice[team]), decided=False)
    if not state.queue:
        fight(ctx)


def set_order(ctx: Ctx, team: int, order: tuple[int, ...], decided: bool = True) -> None:
    state = ctx.state
    if sorted(order) != sorted(state.dice[team]):
        raise IllegalAction(f"order the dice rolled ({show(state.dice[team])}), blanks as '-'")
    hits = list(order)
    if "dynamite" in state.reveal[team]["used_abilities"]:
        first = next((i for i, d in enumerate(hits) if d), None)
        if first is not None:  # the first hit counts as two dice on the same line
            hits.insert(first, hits[first])
    state.hits[team] = hits
    if decided:
        state.queue.pop(0)
        ctx.emit("order", f"team {'AB'[team]} orders its dice: {show(hits)}", team=team, dice=list(hits))
        if not state.queue:
            fight(ctx)


def fight(ctx: Ctx) -> None:
    """Resolve both attacks (they are simultaneous); check robots once both are done."""
    if resolve(ctx):
        check_robots(ctx)


def check_robots(ctx: Ctx) -> None:
    from .scoring import end_of_combat
    state, box = ctx.state, ctx.box
    for team, robot in enumerate(state.robots):
        why = "no goblins in the cockpit" if not robot.goblins else (
            "no weapon tiles" if not weapons(robot, box) else "")
        if why:
            state.disabled[team] = True
            ctx.emit("disabled", f"robot {'AB'[team]} is disabled: {why}", team=team, why=why)
    if any(state.disabled) or state.combat_round >= COMBAT_ROUNDS:
        end_of_combat(ctx)
        return
    for robot in state.robots:
        robot.pilot, robot.tactician = robot.tactician, robot.pilot
    start_combat_round(ctx)
