"""What a computer player is given when its seat must act, and the simplest player.

A player never holds the game's true state. It gets a ``Situation``: its seat,
its legal actions, and ``sample(rng)``, which deals every part of the state
the seat cannot see again at random (``Game.determinize``): other players'
hands, hidden programs, deck orders, dice to come. Two true states that differ
only in what the seat cannot see give the same samples for the same ``rng``,
so the player's decision cannot depend on them (tests/players/).

When a state cannot be sampled (VOLT while a round is being resolved),
``sample`` returns None and the player chooses from its legal actions alone.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..games.base import Game, GameError

SEATS_BEFORE = 16  # moves of the seats the engine takes first, at most, before this seat's


@dataclass
class Situation:
    game: Game[Any, Any]
    seat: int
    legal: Sequence[Any]  # the seat's legal actions (a lazy sequence for big program sets)
    _state: Any = field(repr=False)  # never read by players: only ``sample`` deals from it

    @classmethod
    def of(cls, game: Game[Any, Any], state: Any, seat: int) -> Situation:
        return cls(game, seat, game.legal_actions_of(state, seat), state)

    def sample(self, rng: random.Random) -> Any | None:
        """A full state as the seat may believe it, its hidden parts dealt with ``rng``, played
        on at random to the seat's own move (in games where every seat programs at once, the
        engine takes the programs in order: the seats before this one program at random)."""
        try:
            state = self.game.determinize(self._state, self.seat, rng)
        except GameError:
            return None
        for _ in range(SEATS_BEFORE):
            player = self.game.current_player(state)
            if player is None or player == self.seat:
                return state
            legal = self.game.legal_actions(state)
            state = self.game.advance(state, legal[rng.randrange(len(legal))])
        return None

    def notation(self, action: Any) -> str:
        return self.game.action_to_str(self._state, action)


@dataclass
class Choice:
    """A player's decision and what it took."""

    action: str
    seconds: float
    nodes: int  # positions looked at (playouts for search)
    move: Any = None  # the engine's own action (saves parsing ``action`` again)


class Player:
    """A computer player of one level; ``seed`` makes its choices reproducible."""

    level = "random"

    def __init__(self, seed: int = 0, budget_s: float = 2.0, iterations: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.budget_s = budget_s
        self.iterations = iterations  # a fixed amount of work instead of a time budget (tests)

    def out_of_time(self, deadline: float, done: int) -> bool:
        if self.iterations is not None:
            return done >= self.iterations
        return time.perf_counter() > deadline

    def choose(self, situation: Situation) -> Choice:
        start = time.perf_counter()
        action = situation.legal[self.rng.randrange(len(situation.legal))]
        return Choice(situation.notation(action), time.perf_counter() - start, 1, action)


def candidates(legal: Sequence[Any], rng: random.Random, most: int) -> list[Any]:
    """All legal actions, or ``most`` of them at random when there are more (BotWars deals
    programs by the ten thousand)."""
    if len(legal) <= most:
        return list(legal)
    return [legal[i] for i in sorted(rng.sample(range(len(legal)), most))]
