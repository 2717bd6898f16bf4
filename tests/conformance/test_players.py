"""Every game's computer players: the game declares an evaluation that tells positions apart,
and greedy and search choose legal moves for every seat without falling back."""

from __future__ import annotations

import random

import pytest

from botboard import games
from botboard.players import Situation, make

from .helpers import player_counts, positions


@pytest.mark.parametrize("name", games.names())
def test_the_evaluation_scores_each_seat_and_tells_positions_apart(name: str) -> None:
    evaluation = games.evaluation(name)
    assert evaluation.scale > 0
    players = player_counts(name)[0]
    seen = set()
    for state in positions(name, players, 8):
        standing = evaluation.standing(state)
        assert len(standing) == players and all(isinstance(s, float) for s in standing)
        seen.add(tuple(round(s, 6) for s in standing))
    assert len(seen) > 1, f"{name}: the evaluation gives every position the same standing"


@pytest.mark.parametrize("level", ["greedy", "search"])
@pytest.mark.parametrize("name", games.names())
def test_greedy_and_search_choose_legal_moves_without_falling_back(name: str, level: str) -> None:
    """Raising would be the table's fallback (a legal move, logged as a failure). A state the game
    cannot sample for the seat (a VOLT round being resolved) is answered from the public choices:
    there the player looks at no position, anywhere else it must."""
    game, looked = games.get(name), 0
    for players in player_counts(name):
        for state in positions(name, players, 3):
            seat = game.current_player(state)
            situation = Situation.of(game, state, seat)
            choice = make(level, seed=1, budget_s=5.0, iterations=24).choose(situation)
            legal = {game.action_to_str(state, a) for a in situation.legal}
            assert choice.action in legal
            if len(legal) > 1 and situation.sample(random.Random(0)) is not None:
                assert choice.nodes > 0, f"{level} looked at no position: it did not really choose"
                looked += 1
    assert looked, f"{name}: no position where {level} had a real choice to make"
