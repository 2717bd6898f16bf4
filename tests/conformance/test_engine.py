"""The API contract every registered game must keep (OpenSpiel-style random simulation).

Parametrised over the registry, so a new game gets it by registering. For a
few seeds and player counts it plays random legal actions and checks: the
current player and the pending decision agree; every listed action prints to
notation that parses back to an equal action; states survive a JSON round
trip with the same hash; applying never mutates the old state; ``advance`` gives
the state ``apply`` gives; a finished game has an outcome and no legal actions.
"""

from __future__ import annotations

import json
import random

import pytest

from botboard import games
from botboard.games.base import GameError

ACTIONS_PER_GAME = 250


def _player_counts(game) -> list[int]:
    low, high = game.info.min_players, game.info.max_players
    return sorted({low, high, min(high, low + 1)})


CASES = [(name, players) for name in games.names()
         for players in _player_counts(games.get(name))]


@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_random_play_keeps_the_contract(name, players):
    game = games.get(name)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(players, {}, seed)
        for _ in range(ACTIONS_PER_GAME):
            outcome = game.outcome(state)
            if outcome is not None:
                assert game.is_terminal(state)
                assert list(game.legal_actions(state)) == []
                assert game.current_player(state) is None
                assert set(outcome.winners) <= set(range(players))
                break
            legal = game.legal_actions(state)
            assert len(legal) > 0, "a live game always has a legal action"
            player = game.current_player(state)
            assert player is not None and 0 <= player < players
            decision = game.pending(state)
            if decision is not None:
                assert decision.player == player
                assert sorted(decision.choices) == sorted(
                    game.action_to_str(state, a) for a in legal)
            action = legal[rng.randrange(len(legal))]
            text = game.action_to_str(state, action)
            assert game.action_from_str(state, text) == action, text
            before = game.state_to_json(state)
            doc = json.loads(json.dumps(before))
            assert game.state_hash(game.state_from_json(doc)) == game.state_hash(state)
            new_state, events = game.apply(state, action)
            assert game.state_to_json(state) == before, "apply must not change the old state"
            assert all(e.text for e in events)
            assert game.state_hash(game.advance(state, action)) == game.state_hash(new_state)
            state = new_state


@pytest.mark.parametrize("name", games.names())
def test_garbage_actions_are_refused_clearly(name):
    game = games.get(name)
    state = game.new_game(game.info.min_players, {}, 0)
    with pytest.raises(GameError) as err:
        game.action_from_str(state, "no such action ###")
    assert str(err.value)
