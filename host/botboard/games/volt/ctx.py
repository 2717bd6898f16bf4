"""The working context of one resolution: the state being changed, events, questions.

``ask`` is how rules code asks an operator something: during a replay it
returns the recorded answer; past the last answer it raises ``NeedDecision``,
which the game turns into a pending Decision. KillBots never get asked: they
take the first choice (callers put the KillBot's choice first).
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from ..base import Event
from .arena import Arena
from .grid import Square
from .modules import module
from .state import Die, Robot, State


class NeedDecision(Exception):
    def __init__(self, player: int, kind: str, prompt: str, choices: Sequence[str]) -> None:
        super().__init__(prompt)
        self.player, self.kind, self.prompt, self.choices = player, kind, prompt, tuple(choices)


class GameOver(Exception):
    """Unwinds the resolution once an operator takes the winning VP."""


class Ctx:
    def __init__(self, state: State, answers: Sequence[str] = ()) -> None:
        self.state = state
        self.arena: Arena = state.arena
        self.answers = list(answers)
        self.asked = 0
        self.events: list[Event] = []
        self.phase = 0
        self.unit = 0  # the control unit being activated (0 outside Phase 2)
        self.active: tuple[Robot, Die] | None = None  # the die being activated
        self.spent: set[tuple[int, str]] = set()  # (seat, module) used with a die in this unit
        # per open damage source: what its damage set off, (owner's order, arrival, fire)
        self._set_off: list[list[tuple[tuple[int, int], int, Callable[[], None]]]] = []

    # -- events and questions -------------------------------------------------
    def emit(self, kind: str, robot: Robot | None, words: str, **data: Any) -> None:
        text = f"{robot.name}: {words}" if robot else words
        full = {"round": self.state.round, "phase": self.phase, "robot": robot.name if robot else None, **data}
        self.events.append(Event(kind, full, text))

    def ask(self, robot: Robot, kind: str, prompt: str, choices: Sequence[str]) -> str:
        if not choices:
            raise AssertionError(f"no choices for {kind}")
        if len(choices) == 1 or robot.killbot:
            return choices[0]
        if self.asked < len(self.answers):
            answer = self.answers[self.asked]
            self.asked += 1
            if answer not in choices:
                raise AssertionError(f"recorded answer {answer!r} is not among {choices}")
            return answer
        raise NeedDecision(robot.seat, kind, f"{robot.name}: {prompt}", choices)

    def use(self, robot: Robot, module_id: str, why: str) -> bool:
        """An optional module: the preset decides, or the operator is asked."""
        if not robot.has(module_id) or (robot.seat, module_id) in self.spent:
            return False
        preset = robot.preset(module_id)
        if preset != "ask" or robot.killbot:
            used = preset != "never"
        else:
            name = module(module_id).id
            used = self.ask(robot, "use-module", f"use {name.upper()}? ({why})",
                            [f"use {name}", f"skip {name}"]) == f"use {name}"
        if used:
            self.spend(robot, module_id)
        return used

    def can_use(self, robot: Robot, module_id: str, colours: Sequence[str], number: int) -> bool:
        """Equipped, the activated die fits the card (colour and range), and not yet used with a
        die in this control unit (a module is used with a die once per unit)."""
        return (robot.has(module_id) and (robot.seat, module_id) not in self.spent
                and any(module(module_id).fits(colour, number) for colour in colours))

    def spend(self, robot: Robot, module_id: str) -> None:
        if module(module_id).die is not None and self.unit:
            self.spent.add((robot.seat, module_id))

    def rng(self) -> random.Random:
        """A fresh generator for the next chance draw, from the seed and the draw count."""
        self.state.draws += 1
        return random.Random(f"{self.state.seed}:{self.state.draws}")

    # -- damage sources (FAQ 4a) ----------------------------------------------------
    @contextmanager
    def damage_source(self) -> Iterator[None]:
        """One damage source hitting several things at once (CROSSFIRE, a detonation, a
        discharge, high voltage): all of its damage is dealt first; what that damage sets
        off (a BOMB, a mine) goes off after it, each a source of its own, in the starting
        order of their owners (FAQ 4a, 4d)."""
        self._set_off.append([])
        try:
            yield
        except BaseException:
            self._set_off.pop()
            raise
        for _, _, fire in sorted(self._set_off.pop(), key=lambda entry: entry[:2]):
            fire()

    def set_off(self, owner: int, fire: Callable[[], None]) -> None:
        """A detonation the current source set off: after the source, or now outside one."""
        if not self._set_off:
            fire()
            return
        waiting = self._set_off[-1]
        waiting.append((self.seat_order(owner), len(waiting), fire))

    # -- who stands where -----------------------------------------------------
    def robot_at(self, square: Square) -> Robot | None:
        return self.state.robot_at(square)

    def living(self) -> list[Robot]:
        return [r for r in self.state.in_start_order() if r.alive]

    def seat_order(self, seat: int) -> tuple[int, int]:
        robot = self.state.robots[seat]
        return (robot.start_number or 99, seat)
