"""Actions and their notation (docs/scenarios-botwars.md).

    p1 program FWD2:670 LF90:070 FWD1:490 RT90:080 UTRN:010 [reboot] [sacrifice@6]
    p1 repair | p1 option          (two-wrench station at the end of a turn)
    p1 face N                      (facing of a reinstated robot)

A program lists one card per free (unfused) register, in register order.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import perm
from typing import Iterator

from ..base import InvalidNotation
from ..lazy import LazyActions
from .cards import deck
from .state import State

VERBS = ("program", "repair", "option", "face")


@dataclass(frozen=True)
class Action:
    player: int  # 0-based; p1 is 0
    verb: str
    cards: tuple[int, ...] = ()
    reboot: bool = False
    threshold: int | None = None  # new option-sacrifice threshold, if declared
    facing: str = ""

    def __str__(self) -> str:
        head = f"p{self.player + 1} {self.verb}"
        if self.verb == "face":
            return f"{head} {self.facing}"
        if self.verb != "program":
            return head
        parts = [head, *(deck().name(c) for c in self.cards)]
        if self.reboot:
            parts.append("reboot")
        if self.threshold is not None:
            parts.append(f"sacrifice@{self.threshold}")
        return " ".join(parts)


def parse(text: str) -> Action:
    words = text.split()
    if len(words) < 2 or not words[0].lower().startswith("p") or not words[0][1:].isdigit():
        raise InvalidNotation(f"bad action {text!r}: expected 'pN VERB ...', e.g. 'p1 program FWD1:490 ...', "
                              "'p1 repair', 'p1 option' or 'p1 face N'")
    player, verb, rest = int(words[0][1:]) - 1, words[1].lower(), words[2:]
    if player < 0:
        raise InvalidNotation(f"bad player {words[0]!r}: players are p1, p2, ...")
    if verb not in VERBS:
        raise InvalidNotation(f"unknown verb {verb!r} in {text!r}; verbs: {', '.join(VERBS)}")
    if verb == "face":
        if len(rest) != 1 or rest[0].upper() not in ("N", "E", "S", "W"):
            raise InvalidNotation(f"bad action {text!r}: expected 'pN face N|E|S|W'")
        return Action(player, verb, facing=rest[0].upper())
    if verb != "program":
        if rest:
            raise InvalidNotation(f"bad action {text!r}: '{verb}' takes nothing after it")
        return Action(player, verb)
    return _parse_program(player, rest, text)


def _parse_program(player: int, words: list[str], text: str) -> Action:
    cards: list[int] = []
    reboot, threshold = False, None
    for word in words:
        low = word.lower()
        if low == "reboot":
            reboot = True
        elif low.startswith("sacrifice@"):
            value = low.partition("@")[2]
            if not value.isdigit() or not 0 <= int(value) <= 10:
                raise InvalidNotation(f"bad {word!r} in {text!r}: expected sacrifice@0 .. sacrifice@10")
            threshold = int(value)
        else:
            cards.append(deck().parse(word))
    return Action(player, "program", tuple(cards), reboot, threshold)


class ProgramChoices(LazyActions[Action]):
    """Every program a player may submit, as a lazy sequence (9 cards give 30,240 programs).

    Index order: card permutations, then reboot no/yes, then thresholds (only
    when the robot holds an option, since otherwise the threshold does nothing;
    declaring one without an option is still legal, just not listed).
    """

    def __init__(self, state: State, player: int) -> None:
        robot = state.players[player]
        self.player = player
        self.hand = tuple(robot.hand)
        self.slots = min(len(robot.free_registers()), len(self.hand)) if not robot.rebooting else 0
        self.thresholds: tuple[int | None, ...] = tuple(range(11)) if robot.options else (None,)
        self.programs = perm(len(self.hand), self.slots)

    def __len__(self) -> int:
        return self.programs * 2 * len(self.thresholds)

    def _at(self, index: int) -> Action:
        index, program = divmod(index, self.programs)
        threshold, reboot = divmod(index, 2)
        remaining = list(self.hand)
        cards = []
        for _ in range(self.slots):
            program, pick = divmod(program, len(remaining))
            cards.append(remaining.pop(pick))
        return Action(self.player, "program", tuple(cards), bool(reboot), self.thresholds[threshold])

    def __contains__(self, action: object) -> bool:
        return (isinstance(action, Action) and action.player == self.player
                and action.verb == "program" and len(action.cards) == self.slots
                and len(set(action.cards)) == self.slots and set(action.cards) <= set(self.hand)
                and (action.threshold is None or 0 <= action.threshold <= 10))

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]
