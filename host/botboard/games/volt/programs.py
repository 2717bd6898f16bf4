"""Programming (Phase 1): which dice programs are legal, and all of them as a lazy sequence.

One die per control unit, three of the operator's four dice (2 red, 2 blue),
each set to any face. A red die may lie on any of the 8 keys, a blue die on
the 4 orthogonal keys, or on a diagonal one with STEERING NOZZLE and a number
in its range. RAM EXPANSION (the project's reading) lets the fourth die join a
unit on another key of it.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Iterator

from ..base import IllegalAction
from ..lazy import LazyActions
from .actions import Action
from .activation import legal_keys
from .grid import KEYS, UNITS
from .state import Robot

DICE = {"red": 2, "blue": 2}
PATTERNS = sorted(set(permutations(("red", "red", "blue", "blue"), 3)))


def check_program(robot: Robot, dice: tuple[tuple[int, str, int, int], ...]) -> None:
    """IllegalAction naming the problem, or nothing."""
    extra = 1 if robot.has("ram-expansion") else 0
    if not 3 <= len(dice) <= 3 + extra:
        raise IllegalAction(f"{robot.name} programs one die per control unit (3 dice"
                            + (", or 4 with RAM EXPANSION" if extra else "") + f"), got {len(dice)}")
    if sorted(u for u, *_ in dice[:3]) != [1, 2, 3]:
        raise IllegalAction("the first three dice go on units I, II and III")
    for colour, count in DICE.items():
        if sum(1 for d in dice if d[1] == colour) > count:
            raise IllegalAction(f"{robot.name} has only {count} {colour} dice")
    seen = set()
    for unit, colour, key, number in dice:
        if key not in legal_keys(robot, colour, number):
            raise IllegalAction(f"a blue die showing {number} cannot lie on the diagonal key {KEYS[key]}"
                                + (" (STEERING NOZZLE range)" if robot.has("steering-nozzle") else
                                   " (blue dice take the 4 orthogonal keys)"))
        if (unit, key) in seen:
            raise IllegalAction(f"two dice on key {KEYS[key]} of unit {UNITS[unit - 1]}")
        seen.add((unit, key))


Die = tuple[int, str, int, int]  # unit, colour, key, number
Block = tuple[list[Die], ...]  # one pick from each list makes a program


class ProgramChoices(LazyActions[Action]):
    """Every legal program of one operator, in index order. The programs are
    split into blocks whose dice are chosen independently, so an index decodes
    as mixed-radix digits (the first die the least significant): each colour
    pattern of three dice, then, with RAM EXPANSION, each (pattern, unit, key
    of that unit's die) with the fourth die on another key of that unit."""

    def __init__(self, robot: Robot) -> None:
        self.player = robot.seat
        options = tuple(tuple((k, n) for n in range(1, 7) for k in legal_keys(robot, c, n)) for c in DICE)
        self.blocks, self.sizes = _blocks(options, robot.has("ram-expansion"))
        self.total = sum(self.sizes)

    def __len__(self) -> int:
        return self.total

    def _at(self, index: int) -> Action:
        for block, size in zip(self.blocks, self.sizes):
            if index < size:
                dice = []
                for factor in block:
                    index, pick = divmod(index, len(factor))
                    dice.append(factor[pick])
                return Action(self.player, "program", tuple(dice))
            index -= size
        raise IndexError(index)

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]


def _block_size(block: Block) -> int:
    size = 1
    for factor in block:
        size *= len(factor)
    return size


Options = tuple[tuple[tuple[int, int], ...], ...]  # per colour of DICE: the (key, number) it may take


@lru_cache(maxsize=16)
def _blocks(options: Options, ram: bool) -> tuple[tuple[Block, ...], tuple[int, ...]]:
    """The blocks and their sizes: built once per set of legal keys, shared by every list."""
    by_colour = dict(zip(DICE, options))

    def factor(unit: int, colour: str, key: int | None = None) -> list[Die]:
        return [(unit, colour, k, n) for k, n in by_colour[colour] if key is None or k == key]

    def base(pattern: tuple[str, ...]) -> Block:
        return tuple(factor(u, c) for u, c in enumerate(pattern, start=1))

    def with_fourth_die(pattern: tuple[str, ...], unit: int, key: int) -> list[Block]:
        """The programs whose unit-``unit`` die lies on ``key``, with the fourth die beside it."""
        fourth = "red" if pattern.count("red") == 1 else "blue"
        block = list(base(pattern))
        block[unit - 1] = factor(unit, pattern[unit - 1], key)
        extra = [d for d in factor(unit, fourth) if d[2] != key]
        return [tuple(block) + (extra,)] if block[unit - 1] and extra else []

    blocks = [base(p) for p in PATTERNS]
    if ram:
        blocks += [b for p in PATTERNS for u in (1, 2, 3) for k in range(8) for b in with_fourth_die(p, u, k)]
    return tuple(blocks), tuple(_block_size(b) for b in blocks)
