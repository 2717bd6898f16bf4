"""From a station's five register slots to a BotWars program, or a refusal in words.

A station's slots are registers 1..5, left to right. Cards lie face down:
what a register holds is its owner's secret until every robot has
confirmed, so every word here goes to that seat's view alone. A program is
refused, naming the registers, when a card is not in the seat's dealt hand
(another seat's card, or one not dealt this turn), a fused register does not
hold its fused card, a free register is empty, or one card's tag lies in two
registers.
"""

from __future__ import annotations

from typing import Any

from ....session.mapping import StationReading, TileError, Verdict
from ...base import GameError
from ..actions import ProgramChoices
from ..cards import deck
from ..state import REGISTERS, Player, State

Registers = tuple[int | None, ...]  # the card (priority) in each register, None if empty


def register_name(pos: int) -> str:
    return f"register {pos + 1}"


def card_name(card: int) -> str:
    return deck().name(card)


def read_station(tiles: list[Any], slots: list[int]) -> StationReading:
    """``tiles``: per register, None, a card's priority, or a TileError."""
    cards: list[int | None] = [None] * REGISTERS
    problems: dict[int, str] = {}
    first: dict[int, int] = {}
    for pos, (slot, tile) in enumerate(zip(slots, tiles)):
        if tile is None:
            continue
        if isinstance(tile, TileError):
            problems[slot] = f"{register_name(pos)}: {tile}"  # a TileError says what to do
        elif tile in first:
            problems[slot] = (f"{register_name(pos)} holds a second tag of {card_name(tile)} (also in "
                              f"{register_name(first[tile])}): keep one")
        else:
            first[tile] = pos
            cards[pos] = tile
    return StationReading(tuple(cards), problems)




def fused_problems(robot: Player, cards: Registers, slots: list[int]) -> dict[int, str]:
    """Fused registers keep their card (or stay empty) until repaired."""
    out = {}
    for index, card in sorted(robot.fused.items()):
        if cards[index] == card:
            continue
        where = register_name(index)
        if card is None:
            out[slots[index]] = f"{where} is fused empty: take {card_name(cards[index])} out"  # type: ignore[arg-type]
        elif cards[index] is None:
            out[slots[index]] = f"{where} is fused: put {card_name(card)} back in it"
        else:
            out[slots[index]] = (f"{where} is fused with {card_name(card)}: put it back in place of "
                                 f"{card_name(cards[index])}")  # type: ignore[arg-type]
    return out


def hand_problems(state: State, robot: Player, cards: Registers, slots: list[int]) -> dict[int, str]:
    out = {}
    for index in robot.free_registers():
        card = cards[index]
        if card is not None and card not in robot.hand:
            out[slots[index]] = f"{register_name(index)}: {card_name(card)} is not in your hand: put it back where it came from"
    return out


def program_text(seat: int, robot: Player, cards: Registers, settings: dict[str, Any]) -> str:
    chosen = [cards[i] for i in robot.free_registers() if cards[i] is not None]
    parts = [f"p{seat + 1} program", *(card_name(c) for c in chosen)]  # type: ignore[arg-type]
    if settings.get("reboot"):
        parts.append("reboot")
    if "threshold" in settings and robot.options:
        parts.append(f"sacrifice@{settings['threshold']}")
    return " ".join(parts)


def judge(game: Any, state: State, seat: int, reading: StationReading, slots: list[int],
          settings: dict[str, Any]) -> Verdict:
    """A reading without problems (SimultaneousTable refuses those first) as a program or a refusal."""
    robot = state.players[seat]
    cards: Registers = reading.held
    problems = {**fused_problems(robot, cards, slots), **hand_problems(state, robot, cards, slots)}
    if problems:
        return Verdict.refused(problems)
    need = ProgramChoices(state, seat).slots
    free = robot.free_registers()
    filled = [i for i in free if cards[i] is not None]
    if robot.rebooting and filled:
        return Verdict(None, "your robot reboots this turn and runs no program: take the cards "
                       "out", tuple(slots[i] for i in filled))
    if len(filled) < need:
        empty = [i for i in free if cards[i] is None]
        return Verdict(None, "every free register needs a card: fill "
                       + ", ".join(register_name(i) for i in empty), tuple(slots[i] for i in empty))
    text = program_text(seat, robot, cards, settings)
    try:
        game.program_from_str(state, text)
    except GameError as err:
        return Verdict(None, str(err), tuple(slots[i] for i in filled))
    words = ", ".join(f"{register_name(i)} {card_name(cards[i])}" for i in range(REGISTERS)  # type: ignore[arg-type]
                      if cards[i] is not None)
    return Verdict(text, f"program: {words or 'none'}" + (" (reboot next turn)" if settings.get("reboot") else ""))


def expected_registers(robot: Player) -> Registers:
    """What a station that is not programming must hold: the submitted program, or the
    fused cards (free registers may be empty or not, as players clear them)."""
    if robot.program is not None:
        return tuple(robot.program)
    return tuple(robot.fused.get(i) for i in range(REGISTERS))


def check_station(state: State, seat: int, reading: StationReading,
                  slots: list[int]) -> tuple[list[int], list[str]]:
    robot = state.players[seat]
    cards: Registers = reading.held
    if robot.program is None:
        problems = fused_problems(robot, cards, slots)
        return list(problems), list(problems.values())
    wrong, fixes = [], []
    for index, want in enumerate(robot.program):
        if cards[index] != want:
            wrong.append(slots[index])
            fixes.append(f"put {card_name(want)} back in {register_name(index)}" if want is not None
                         else f"take {card_name(cards[index])} out of {register_name(index)}")  # type: ignore[arg-type]
    return wrong, fixes
