"""Programming (Phase 1): which dice programs are legal, and all of them as a lazy sequence.

One die per control unit, three of the operator's four dice (2 red, 2 blue),
each set to any face. A red die may lie on any of the 8 keys, a blue die on
the 4 orthogonal keys, or on a diagonal one with STEERING NOZZLE and a number
in its range. RAM EXPANSION (the project's reading) lets the fourth die join a
unit on another key of it.
"""

from __future__ import annotations

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


class ProgramChoices(LazyActions[Action]):
    """Every listed program of one operator, in index order: colour pattern, then each die's
    (key, number) as digits. With RAM EXPANSION the programs that add the fourth die are
    listed when that die is red (on another key of any unit); a blue fourth die is legal
    but not listed."""

    def __init__(self, robot: Robot) -> None:
        self.player = robot.seat
        self.options = {c: [(k, n) for n in range(1, 7) for k in legal_keys(robot, c, n)] for c in DICE}
        self.sizes = [self._size(p) for p in PATTERNS]
        self.base = sum(self.sizes)
        self.ram = robot.has("ram-expansion")
        self.red_extra = [p for p in PATTERNS if p.count("red") == 1]
        self.extra_size = sum(self._size(p) for p in self.red_extra) * 3 * 7 * 6 if self.ram else 0

    def _size(self, pattern: tuple[str, ...]) -> int:
        size = 1
        for colour in pattern:
            size *= len(self.options[colour])
        return size

    def __len__(self) -> int:
        return self.base + self.extra_size

    def _at(self, index: int) -> Action:
        if index < self.base:
            for pattern, size in zip(PATTERNS, self.sizes):
                if index < size:
                    return Action(self.player, "program", self._dice(pattern, index))
                index -= size
        index -= self.base
        index, unit = divmod(index, 3)
        index, offset = divmod(index, 7)
        index, number = divmod(index, 6)
        for pattern in self.red_extra:
            size = self._size(pattern)
            if index < size:
                dice = self._dice(pattern, index)
                main_key = dice[unit][2]
                extra = (unit + 1, "red", (main_key + offset + 1) % 8, number + 1)
                return Action(self.player, "program", dice + (extra,))
            index -= size
        raise IndexError(index)

    def _dice(self, pattern: tuple[str, ...], index: int) -> tuple[tuple[int, str, int, int], ...]:
        dice = []
        for unit, colour in enumerate(pattern, start=1):
            index, pick = divmod(index, len(self.options[colour]))
            key, number = self.options[colour][pick]
            dice.append((unit, colour, key, number))
        return tuple(dice)

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]
