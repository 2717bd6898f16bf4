"""Every game's computer players: the game declares an evaluation that tells positions apart,
and greedy and search choose legal moves for every seat without falling back."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from botboard import games
from botboard.players import Situation, make

from .helpers import player_counts, positions


@pytest.mark.parametrize("name", games.names())
def test_the_evaluation_scores_each_seat_and_tells_positions_apart(name: str) -> None:
    evaluation = games.evaluation(name)
    assert evaluation.scale > 0
    players = player_counts(name)[-1]
    seen = set()
    for state in positions(name, players, 10, stride=9, options=dict(games.declaration(name).match_options)):
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


HIDDEN = [name for name in games.names() if games.get(name).info.hidden_information]


def _seen(game: Any, state: Any, seat: int) -> str:
    view = game.observe(state, seat)
    view.pop("seed", None)  # the game's seed is a setting, not a secret (and samples draw a new one)
    return json.dumps(view, sort_keys=True, default=str)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_sample_keeps_what_the_seat_sees_and_forgets_what_it_cannot(name: str) -> None:
    game = games.get(name)
    changed = 0
    for state in positions(name, player_counts(name)[-1], 12, seed=4, stride=7):
        seat = game.current_player(state)
        try:
            sample = game.determinize(state, seat, random.Random(5))
        except games.GameError:
            continue  # VOLT mid-resolution: the players choose from public choices there
        assert _seen(game, sample, seat) == _seen(game, state, seat)
        other = game.determinize(state, seat, random.Random(99))  # differs only where seat cannot see
        assert game.state_hash(game.determinize(other, seat, random.Random(5))) == game.state_hash(sample)
        changed += game.state_hash(other) != game.state_hash(state)
    assert changed, "the samples never differed from the true state: nothing was hidden?"


@pytest.mark.parametrize("level", ["greedy", "search"])
@pytest.mark.parametrize("name", HIDDEN)
def test_two_states_differing_only_in_hidden_cards_give_the_same_decision(name: str, level: str) -> None:
    game = games.get(name)
    for state in positions(name, player_counts(name)[-1], 3, seed=4, stride=7):
        seat = game.current_player(state)
        try:
            hidden_elsewhere = game.determinize(state, seat, random.Random(31))
        except games.GameError:
            continue
        assert _seen(game, hidden_elsewhere, seat) == _seen(game, state, seat)
        picks = [make(level, seed=7, iterations=12).choose(Situation.of(game, s, seat)).action
                 for s in (state, hidden_elsewhere)]
        assert picks[0] == picks[1]
        assert game.action_from_str(state, picks[0]) is not None  # a legal move of that seat
