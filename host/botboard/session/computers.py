"""Computer seats at the table: a part of ``GameSession`` (session.py) with one job.

A seat given to the computer (``botboard run --computer 2=search``) needs no
tiles: when the game waits for it (a program to confirm, a decision), its
player (botboard.players) thinks within its budget in a worker process, apart
from the event loop (thinking.py), and its move is taken as a confirmed
program or a decision would be, then announced
("blue plays: ..."): the LEDs and the console show it as any move. Its
station is not checked for tiles. A player sees only what its seat may see.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import TYPE_CHECKING, Any

from ..players import Choice, Player, Situation, make
from .thinking import ThinkingPool

if TYPE_CHECKING:
    from ..games.base import Game
    from .hints import TableHints
    from .mapping import TableMapping
    from .picker import Picker

log = logging.getLogger("botboard.session")
DEFAULT_BUDGET_S = 2.0  # thinking time a move: the most humans wait for the computer


class ComputerSeats:
    if TYPE_CHECKING:  # what it reads of the session (session.py sets them)
        state: Any
        engine: Game[Any, Any]
        mapping: TableMapping[Any]
        mode: str
        picker: Picker | None
        game_id: int | None
        submitted: set[int]
        confirmed: dict[int, tuple[str, list[bytes | None]]]

        def acting(self) -> list[int]: ...
        def seat_name(self, seat: int) -> str: ...
        def say(self, text: str, seat: int | None = None) -> None: ...
        def decide(self, choice: str, seat: int | None = None) -> None: ...
        def _submit(self, seat: int, text: str) -> None: ...
        def _publish_view(self) -> None: ...

    computers: dict[int, Player]  # seat -> its player
    levels: dict[int, str]  # seat -> its level (random, greedy, search)
    think_s: float  # thinking time a move
    _thinking: set[int]
    _pool: ThinkingPool | None
    hints: TableHints

    def set_computers(self, levels: dict[int, str], budget_s: float = DEFAULT_BUDGET_S) -> None:
        """Seats played by the computer from now on (``{seat: level}``; {} for none)."""
        self.levels, self.think_s = dict(levels), budget_s
        self.computers = {seat: make(level, seed=seat + 1, budget_s=budget_s) for seat, level in levels.items()}
        self._close_pool()
        self._thinking = set()
        if self.computers:  # workers start when the first move is thought
            self._pool = ThinkingPool(min(len(self.computers), os.cpu_count() or 1))
        if self.state is not None:
            self._publish_view()  # every console says who plays each seat
        self._computers_move()

    def stop_thinking(self) -> None:
        """Stop the thinking workers, the computers' and the hints' (the session is closing)."""
        self.hints.close()
        self._close_pool()

    def _close_pool(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def is_computer(self, seat: int) -> bool:
        return seat in self.computers

    def _computers_move(self) -> None:
        """Whatever the game waits for from a computer seat, it starts thinking about."""
        if not self.computers or self.state is None:
            return
        for seat in self._due():
            if seat not in self._thinking:
                self._think(seat)

    def computers_now(self, most: int = 1000) -> int:
        """Without an event loop (tests): play every computer move due, one after another;
        how many were played."""
        played = 0
        while played < most:
            seat = next(iter(self._due()), None)
            if seat is None:
                return played
            situation = Situation.of(self.engine, self.state, seat)
            self._play(seat, self.state, self.mode, self.computers[seat].choose(situation).action)
            played += 1
        return played

    def _due(self) -> list[int]:
        if self.mode == "decide" and self.picker is not None:
            waiting = [self.picker.decision.player]
        elif self.mode == "program":
            waiting = [s for s in self.acting() if s not in self.submitted]
        else:
            waiting = []
        return [s for s in waiting if s in self.computers]

    def _think(self, seat: int) -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (unit tests): computers_now() plays it
        assert self._pool is not None
        state, mode = self.state, self.mode
        self._thinking.add(seat)
        future = self._pool.think(self.computers[seat], self.engine, state, seat)
        future.add_done_callback(lambda done: self._thought(seat, state, mode, done))

    def _thought(self, seat: int, state: Any, mode: str, done: asyncio.Future[tuple[Choice, Player]]) -> None:
        if done.cancelled():  # the workers were stopped
            self._thinking.discard(seat)
            return
        try:
            choice, player = done.result()
            if seat in self.computers:
                self.computers[seat] = player  # as it is after thinking: its seed goes on
            action = choice.action
        except Exception as err:  # a player's bug must not stall the table: a legal move instead
            log.exception("computer player failed: %s", err)
            situation = Situation.of(self.engine, state, seat)
            action = situation.notation(situation.legal[0])
        self._play(seat, state, mode, action)

    def _play(self, seat: int, state: Any, mode: str, action: str) -> None:
        self._thinking.discard(seat)
        if self.state is not state or self.mode != mode:
            self._computers_move()  # the game moved on meanwhile (an undo, a new game): look again
            return
        self.say(f"{self.seat_name(seat)} (computer) plays: {self.mapping.public_action(state, action)}")
        if mode == "decide":
            self.decide(action, seat)
        else:
            self._submit(seat, action)
