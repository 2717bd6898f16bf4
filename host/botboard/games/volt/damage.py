"""Damage, destruction, VP for destroying, module draws, detonations and mines.

Credit: every damage source names an ``author`` (the seat whose robot or
module caused it, None for the arena). Destroying another operator's robot
gives the author 1 VP; destroying your own robot gives nothing, except that a
robot destroying itself with a die moved by REMOTE CONTROL gives the VP to the
remote controller (module text; FAQ 4j, 4k). Only one operator scores per
destruction.
"""

from __future__ import annotations

from functools import partial

from .ctx import Ctx, GameOver
from .grid import Square, adjacent, square_name
from .modules import DECKS, module, param
from .state import Robot

MAX_DAMAGE = 3  # the third damage destroys


def damage(ctx: Ctx, robot: Robot, amount: int, author: int | None, cause: str) -> None:
    """Deal ``amount`` damage; a SHIELD may take tokens first; the third destroys."""
    if not robot.alive:
        return
    for _ in range(amount):
        capacity = int(param("shield", "capacity"))
        if robot.has("shield") and robot.shield < capacity and ctx.use(robot, "shield", f"{cause} hits"):
            robot.shield += 1
            ctx.emit("shield", robot, f"SHIELD takes the damage from {cause} ({robot.shield}/{capacity})",
                     shield=robot.shield, cause=cause)
            continue
        robot.damage += 1
        ctx.emit("damage", robot, f"1 damage from {cause} ({robot.damage} in all)",
                 damage=robot.damage, cause=cause, author=_name(ctx, author))
        if robot.damage >= MAX_DAMAGE:
            destroy(ctx, robot, author, cause)
            return


def destroy(ctx: Ctx, robot: Robot, author: int | None, cause: str) -> None:
    """Off the arena; VP to the destroyer; mines home; a module draw; the BOMB."""
    if not robot.alive:
        return
    square = robot.square
    assert square is not None
    robot.destroyed, robot.square = True, None
    ctx.emit("destroyed", robot, f"destroyed ({cause}) on {square_name(square)}",
             square=square_name(square), cause=cause, author=_name(ctx, author))
    scorer = _scorer(ctx, robot, author)
    if scorer is not None:
        gain_vp(ctx, ctx.state.robots[scorer], f"destroying {robot.name}")
    recall_mines(ctx, robot)  # FAQ 5d: the mines leave before the bomb explodes
    if scorer is not None and (not robot.killbot or ctx.state.options["killbot_draws"]):
        draw_module(ctx, robot, "destroyed by an opponent")
    if robot.has("bomb"):  # a second source: after the one that destroyed it (FAQ 4a)
        ctx.set_off(robot.seat, partial(_bomb, ctx, robot, square))


def _bomb(ctx: Ctx, robot: Robot, square: Square) -> None:
    if ctx.use(robot, "bomb", "your robot was destroyed"):
        ctx.emit("bomb", robot, f"BOMB explodes on {square_name(square)}", square=square_name(square))
        detonation(ctx, square, int(param("bomb", "damage")), robot.seat, "bomb", include_centre=False)


def _scorer(ctx: Ctx, robot: Robot, author: int | None) -> int | None:
    if author is not None and author != robot.seat:
        return author
    if ctx.active is not None and ctx.active[0] is robot and ctx.active[1].remote_by is not None:
        if ctx.active[1].remote_by != robot.seat:
            return ctx.active[1].remote_by  # destroyed itself with a remote-controlled die
    return None


def _name(ctx: Ctx, seat: int | None) -> str | None:
    return ctx.state.robots[seat].name if seat is not None else None


def gain_vp(ctx: Ctx, robot: Robot, why: str) -> None:
    robot.vp += 1
    ctx.emit("vp", robot, f"gains 1 VP for {why} ({robot.vp} VP)", vp=robot.vp, why=why)
    goal = int(ctx.state.options["goal"])
    if robot.vp >= goal:
        finish(ctx, [robot.seat], f"{robot.name} took VP number {goal}")
    squad_goal = int(ctx.state.options["killbot_squad_goal"])
    squad = sum(r.vp for r in ctx.state.robots if r.killbot)
    if robot.killbot and squad_goal and squad >= squad_goal:
        finish(ctx, [r.seat for r in ctx.state.robots if r.killbot], f"the KillBot squad reached {squad} VP")


def finish(ctx: Ctx, seats: list[int], reason: str) -> None:
    state = ctx.state
    humans = [s for s in seats if s < state.humans]
    state.outcome = {"winners": humans, "reason": reason,
                     "scores": [r.vp for r in state.robots[:state.humans]],
                     "robots": {r.name: r.vp for r in state.robots}}
    heir = championship_heir(ctx, seats)
    if heir is not None:
        state.outcome["champion_modules_from"] = state.options["champion"]
        state.outcome["champion_modules_to"] = heir
    state.phase = "over"
    ctx.emit("game-over", None, f"game over: {reason}", winners=[state.robots[s].name for s in seats])
    raise GameOver


def championship_heir(ctx: Ctx, seats: list[int]) -> str | None:
    """RFL championship (FAQ 7d): who receives the losing arena champion's modules.

    Only the champion robot (option ``champion``) gives its champion modules
    away; a winning KillBot squad passes them to its KillBot with the most VP,
    ties to the lower starting number.
    """
    champion = ctx.state.options.get("champion")
    if not champion or not seats:
        return None
    winners = [ctx.state.robots[s] for s in seats]
    if any(r.name == champion for r in winners):
        return None
    best = min(winners, key=lambda r: (-r.vp, r.start_number or 99, r.seat))
    return best.name


def draw_module(ctx: Ctx, robot: Robot, why: str) -> None:
    """Draw from a deck of the operator's choice; a module already owned goes to the bottom."""
    decks = [d for d in DECKS if ctx.state.decks.get(d)]
    if not decks:
        ctx.emit("no-module", robot, "every module deck is empty")
        return
    answer = ctx.ask(robot, "deck", f"draw a module ({why}): from which deck?", [f"deck {d}" for d in decks])
    deck = ctx.state.decks[answer.split()[1]]
    owned = set(robot.modules) | set(robot.inventory)
    for _ in range(len(deck)):
        card = deck.pop(0)
        if card not in owned:
            robot.inventory.append(card)
            ctx.emit("draw", robot, f"draws {module(card).name} into the inventory", module=card,
                     deck=answer.split()[1])
            return
        deck.append(card)
    ctx.emit("no-module", robot, f"owns every module of the {answer.split()[1]} deck")


# -- detonations and mines --------------------------------------------------

def area(ctx: Ctx, square: Square, include_centre: bool = True) -> list[Square]:
    diagonals = ctx.state.options["detonation_diagonals"]
    around = [s for s in adjacent(square, bool(diagonals)) if ctx.arena.on_arena(s)]
    return ([square] if include_centre else []) + around


def detonation(ctx: Ctx, square: Square, amount: int, author: int | None, cause: str,
               include_centre: bool = True) -> None:
    """Detonation [amount]: the space and its neighbours; mines hit detonate afterwards.

    All damage of this detonation comes first (FAQ 4a), then the mines it hit
    go off in their owners' starting-number order (FAQ 1c, 4d).
    """
    ctx.emit("detonation", None, f"detonation on {square_name(square)} ({cause})",
             square=square_name(square), cause=cause)
    hit_mines = [target for target in area(ctx, square, include_centre) if target in ctx.state.mines]
    with ctx.damage_source():
        for target in sorted(area(ctx, square, include_centre), key=lambda s: _robot_order(ctx, s)):
            robot = ctx.robot_at(target)
            if robot is not None:
                damage(ctx, robot, amount, author, cause)
        trigger_mines(ctx, hit_mines)


def _robot_order(ctx: Ctx, square: Square) -> tuple[int, int]:
    robot = ctx.robot_at(square)
    return ctx.seat_order(robot.seat) if robot else (100, 0)


def trigger_mines(ctx: Ctx, squares: list[Square]) -> None:
    """Mines pushed or damaged: each detonates on its own space and goes home, in their
    owners' starting order (FAQ 4d); hit by a damage source, after all of its damage."""
    # owners read before any fires: outside a damage source a mine detonates at once and may
    # set off (and remove) the next one in this list, which _mine then skips
    owners = {s: ctx.state.mines[s] for s in squares if s in ctx.state.mines}
    for square in sorted(owners, key=lambda s: ctx.seat_order(owners[s])):
        ctx.set_off(owners[square], partial(_mine, ctx, square))


def _mine(ctx: Ctx, square: Square) -> None:
    if square not in ctx.state.mines:
        return  # already gone: set off by an earlier mine, or home with its destroyed owner (FAQ 5d)
    owner = ctx.state.mines.pop(square)
    ctx.state.robots[owner].mines_held += 1
    ctx.emit("mine", ctx.state.robots[owner], f"mine on {square_name(square)} detonates",
             square=square_name(square))
    detonation(ctx, square, 1, owner, "mine")


def recall_mines(ctx: Ctx, robot: Robot) -> None:
    mine_squares = [s for s, o in ctx.state.mines.items() if o == robot.seat]
    for square in mine_squares:
        del ctx.state.mines[square]
    if mine_squares:
        robot.mines_held += len(mine_squares)
        ctx.emit("mines-home", robot, f"{len(mine_squares)} mine(s) leave the arena",
                 squares=[square_name(s) for s in sorted(mine_squares)])
