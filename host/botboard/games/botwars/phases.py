"""The turn: deal, programs, five stages, then the end-of-turn table and its decisions.

Stage order: cards reveal; robots act by descending priority; conveyor,
pusher, gear, crusher, board laser; robot lasers; then checkpoints, flags,
upgrades and virtual robots turning real.
"""

from __future__ import annotations

import random
from operator import attrgetter, itemgetter
from typing import Any

from .board import FACINGS, Square, square_name
from .cards import deck
from .context import Ctx
from .damage import repair
from .elements import conveyors, crushers, gears, pushers
from .lasers import fire
from .movement import play_card
from .state import MAX_HP, REGISTERS, Player


def card_sets(upgrades: bool, robot: Player) -> int:
    """Card sets unlocked: one per two different upgrade stations visited."""
    return len(robot.stations) // 2 if upgrades else 0


def deal(ctx: Ctx, reserved: set[int] | None = None) -> None:
    """Shuffle with the state's seed and turn, then deal HP - 1 usable cards to each robot.

    Cards in fused registers (and ``reserved`` ones, for scenario positions) stay out.
    """
    state, cards = ctx.state, deck()
    upgrades = bool(ctx.rules["upgrades"])
    held = {c for p in state.players for c in p.fused.values() if c is not None} | (reserved or set())
    pile = [c for c in cards.base + (cards.upgrade if upgrades else ()) if c not in held]
    random.Random(f"{state.seed}:{state.turn}").shuffle(pile)
    for player in state.players:
        player.hand, player.program = [], None
        if not player.on_board or player.rebooting:
            continue
        sets = card_sets(upgrades, player)
        usable = [c for c in pile if cards.usable(c, sets)]
        if ctx.rules["reboot_refills_fused"]:
            for index in sorted(i for i, c in player.fused.items() if c is None):
                card = usable.pop(0)
                player.fused[index] = card
                ctx.emit("refill", player, f"register {index + 1} filled with {cards.name(card)}",
                         register=index + 1, card=cards.name(card))
        player.hand = usable[:max(player.hp - 1, 0)]
        taken = set(player.hand) | set(player.fused.values())
        pile = [c for c in pile if c not in taken]
    ctx.emit("deal", None, f"turn {state.turn}: cards dealt",
             hands={p.name: len(p.hand) for p in state.players if p.on_board})


def submit(ctx: Ctx, player: Player, cards_in_order: tuple[int, ...], reboot: bool,
           threshold: int | None) -> None:
    """Store a program; the last one submitted starts the five stages."""
    program: list[int | None] = [None] * REGISTERS
    for index, card in player.fused.items():
        program[index] = card
    for index, card in zip(player.free_registers(), cards_in_order):
        program[index] = card
    player.program = program
    player.reboot_next = reboot
    if threshold is not None:
        player.threshold = threshold
    ctx.emit("program", player, "program submitted")
    if all(p.program is not None for p in ctx.state.players if p.on_board):
        run_turn(ctx)


def run_turn(ctx: Ctx) -> None:
    for stage in range(1, REGISTERS + 1):
        run_stage(ctx, stage)
        if ctx.state.outcome is not None:
            return
    end_of_turn(ctx)


def run_stage(ctx: Ctx, stage: int) -> None:
    state, cards = ctx.state, deck()
    ctx.stage, ctx.step = stage, "move"
    ctx.roster, ctx.keep_roster = None, True
    register = stage - 1
    acting = [(card, p) for p in ctx.robots()
              if p.program is not None and not p.rebooting and (card := p.program[register]) is not None]
    if ctx.events is not None:
        ctx.record("stage", None, _staged, state.turn, stage, tuple((p.name, _mode(p)) for p in state.players),
                   tuple((p.name, c) for c, p in acting))
    kinds = cards.by_priority
    for card, robot in sorted(acting, key=itemgetter(0), reverse=True):
        if robot.square is not None:
            play_card(ctx, robot, card, kinds[card])
    ctx.step = "board"
    conveyors(ctx)
    pushers(ctx)
    gears(ctx)
    crushers(ctx)
    fire(ctx)
    ctx.step = "check"
    checkpoints(ctx)
    state.stages += 1
    if ctx.events is not None:
        ctx.record("stage-end", None, _stage_ended, stage,
                   tuple((p.name, p.hp, p.square, p.facing) for p in state.players))
    check_winner(ctx)
    ctx.stage = 0
    ctx.roster, ctx.keep_roster = None, False


def _staged(turn: int, stage: int, modes: tuple[tuple[str, str], ...],
            acting: tuple[tuple[str, int], ...]) -> tuple[str, dict[str, Any]]:
    name = deck().name
    return f"turn {turn} stage {stage}", {"modes": dict(modes), "cards": {p: name(c) for p, c in acting}}


def _stage_ended(stage: int, robots: tuple[tuple[str, int, Square | None, int], ...]) -> tuple[str, dict[str, Any]]:
    return f"end of stage {stage}", {
        "hp": {name: hp for name, hp, _, _ in robots},
        "squares": {name: square_name(square) if square else None for name, _, square, _ in robots},
        "facings": {name: FACINGS[facing] for name, _, _, facing in robots}}


_mode_of, _flags_of = attrgetter("mode"), attrgetter("flags")


def _mode(player: Player) -> str:
    return "rebooting" if player.rebooting and player.on_board else player.mode


def checkpoints(ctx: Ctx) -> None:
    """End of stage: checkpoints, flags in order, upgrade stations, virtual -> real."""
    state, marks = ctx.state, ctx.floor.marks
    for robot in ctx.robots():
        mark = marks.get(robot.square)  # type: ignore[arg-type]
        if mark is None or robot.rebooting:  # most squares mark nothing
            continue
        square = robot.square
        assert square is not None
        flag, is_repair, is_upgrade = mark
        if (flag or is_repair) and robot.checkpoint != square:
            robot.checkpoint = square
            ctx.emit("checkpoint", robot, f"checkpoint {square_name(square)}", square=square_name(square))
        if flag == robot.flags + 1:
            robot.flags = flag
            ctx.emit("flag", robot, f"flag {flag} touched", flag=flag)
        if is_upgrade and square not in robot.stations:
            robot.stations.append(square)
            words = f"upgrade station {square_name(square)}"
            if len(robot.stations) % 2 == 0 and len(robot.stations) // 2 <= len(deck().sets):
                words += f", card set {deck().sets[len(robot.stations) // 2 - 1][0]} unlocked"
            ctx.emit("upgrade", robot, words, square=square_name(square))
    if "virtual" not in map(_mode_of, ctx.robots()):
        return  # only virtual robots turn real
    for robot in ctx.robots():
        if (robot.mode == "virtual" and (state.turn, ctx.stage) >= (robot.virtual_turn, REGISTERS)
                and ctx.alone(robot)):
            robot.mode = "real"
            ctx.emit("real", robot, "becomes real")


def check_winner(ctx: Ctx) -> None:
    state = ctx.state
    goal = len(ctx.board.flags)
    winners = [i for i, p in enumerate(state.players) if p.flags >= goal] \
        if max(map(_flags_of, state.players), default=0) >= goal else []
    if winners:
        finish(ctx, winners, f"touched all {goal} flags")
    elif all(p.mode == "out" for p in state.players):
        finish(ctx, [], "every robot destroyed")


def finish(ctx: Ctx, winners: list[int], reason: str) -> None:
    state = ctx.state
    state.outcome = {"winners": winners, "reason": reason, "scores": [p.flags for p in state.players]}
    state.phase = "over"
    ctx.emit("game-over", None, f"game over: {reason}; winners "
             + (", ".join(state.players[i].name for i in winners) or "none"), winners=winners)


# -- end of turn -----------------------------------------------------------

def end_of_turn(ctx: Ctx) -> None:
    """Repairs, then queue the choices players must make before the next deal."""
    state, board = ctx.state, ctx.board
    ctx.stage, ctx.step = 0, "end"
    for index, robot in enumerate(state.players):
        if robot.on_board and not robot.rebooting:
            cell = ctx.element(robot.square)  # type: ignore[arg-type]
            wrenches = int(cell["wrenches"]) if cell is not None and cell["type"] == "repair" else 0
            if wrenches >= 2:
                state.decisions.append((index, "repair-or-option"))
            elif wrenches == 1 or board.flag_number(robot.square):  # type: ignore[arg-type]
                repair(ctx, robot, 1, "flag" if not wrenches else "repair station")
        if robot.mode == "destroyed":
            state.decisions.append((index, "reinstate"))
    advance(ctx)


def advance(ctx: Ctx) -> None:
    """Start the next turn once no end-of-turn decision is left."""
    state = ctx.state
    if state.decisions:
        state.phase = "decide"
        return
    ctx.stage, ctx.step = 0, "end"
    for robot in state.players:
        if robot.rebooting:
            robot.rebooting = False
            ctx.emit("online", robot, "back online")
        if robot.reboot_next and robot.on_board:
            robot.rebooting, robot.reboot_next = True, False
            robot.hp = MAX_HP
            robot.fused = {}
            ctx.emit("reboot", robot, "reboots this turn: HP restored", hp=robot.hp)
    state.turn += 1
    if state.turn > state.max_turns:
        best = max(p.flags for p in state.players)
        winners = [i for i, p in enumerate(state.players) if best and p.flags == best]
        finish(ctx, winners, f"turn limit {state.max_turns} reached")
        return
    state.phase = "program"
    ctx.step = "program"
    deal(ctx)


def decide(ctx: Ctx, player_index: int, kind: str, choice: str) -> None:
    """Apply the first queued decision (already checked to be ``kind`` for this player)."""
    state = ctx.state
    robot = state.players[player_index]
    state.decisions.pop(0)
    ctx.stage, ctx.step = 0, "end"
    if kind == "repair-or-option":
        if choice == "option":
            robot.options += 1
            ctx.emit("option", robot, f"takes an option ({robot.options} held)", options=robot.options)
        else:
            repair(ctx, robot, 2, "repair station")
    else:
        robot.square, robot.facing = robot.checkpoint, FACINGS.index(choice)
        robot.mode, robot.hp, robot.virtual_turn = "virtual", MAX_HP, state.turn + 1
        ctx.emit("reinstate", robot, f"reinstated at {square_name(robot.checkpoint)} facing {choice}",
                 square=square_name(robot.checkpoint), facing=choice)
    advance(ctx)
