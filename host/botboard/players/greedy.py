"""Greedy: one move ahead. Each candidate is played on sampled states, the others' replies
(and the rest of a simultaneous turn) filled in at random until the seat is to act again,
and the position scored with the game's evaluation (evaluate.py); the best average wins."""

from __future__ import annotations

import time
from typing import Any

from ..games.base import GameError
from .base import Choice, Player, Situation, candidates
from .evaluate import value

CANDIDATES = 48  # actions considered when there are more
SAMPLES = 2  # sampled states per candidate
REPLY_STEPS = 40  # random actions of the others at most before scoring


def play_out(game: Any, state: Any, seat: int, rng: Any, steps: int) -> Any:
    """Random actions until ``seat`` is to act again (or the game ends, or ``steps`` run out)."""
    for _ in range(steps):
        player = game.current_player(state)
        if player is None or player == seat:
            break
        legal = game.legal_actions(state)
        state = game.advance(state, legal[rng.randrange(len(legal))])
    return state


class Greedy(Player):
    level = "greedy"

    def choose(self, situation: Situation) -> Choice:
        start = time.perf_counter()
        deadline = start + self.budget_s
        game, seat = situation.game, situation.seat
        options = candidates(situation.legal, self.rng, CANDIDATES)
        if len(options) == 1 or situation.sample(self.rng) is None:
            pick = options[self.rng.randrange(len(options))]
            return Choice(situation.notation(pick), time.perf_counter() - start, 0, pick)
        best, best_score, nodes = options[0], -1.0, 0
        for action in options:
            total = 0.0
            for _ in range(SAMPLES):
                sample = situation.sample(self.rng)
                if sample is None:
                    continue
                try:
                    after = game.advance(sample, action)
                except GameError:  # not legal in this sample (one's own moves always are)
                    continue
                total += value(game, play_out(game, after, seat, self.rng, REPLY_STEPS), seat)
                nodes += 1
            if total > best_score:
                best, best_score = action, total
            if self.out_of_time(deadline, nodes):
                break
        return Choice(situation.notation(best), time.perf_counter() - start, nodes, best)
