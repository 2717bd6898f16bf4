"""Random legal games on both boards and both rulesets, checking invariants after every action.

Invariants: real robots never share a square; HP stays within 0..10; flags
are touched one at a time in order; lives only go down, by one per
destruction; fused registers match HP; the game ends by itself or at the
declared turn limit; JSON round-trips and hashes agree along the way.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from botboard.games.base import Event
from botboard.games.botwars.game import GAME
from botboard.games.botwars.state import State

GAMES = 2000  # across the four parametrisations: about 15 s on one core


def _check(before: State, after: State, events: list[Event]) -> None:
    real = Counter(p.square for p in after.players if p.mode == "real" and p.square is not None)
    assert all(n == 1 for n in real.values()), f"real robots share a square: {real}"
    destroyed = Counter(e.data["robot"] for e in events if e.kind == "destroyed")
    for old, new in zip(before.players, after.players):
        assert 0 <= new.hp <= 10
        assert new.lives == old.lives - destroyed[new.name]
        assert 0 <= new.flags <= len(after.board.flags)
        if new.on_board:
            assert new.square is not None and after.board.on_board(new.square)
            assert set(new.fused) == set(range(max(new.hp - 1, 0), 5)), (new.hp, new.fused)
        else:
            assert new.square is None and new.fused == {}
        assert (new.mode == "out") == (new.lives == 0)
    touched = {p.name: p.flags for p in before.players}
    for event in events:
        if event.kind == "flag":  # the next flag in order, never another one
            assert event.data["flag"] == touched[event.data["robot"]] + 1
            touched[event.data["robot"]] += 1
    assert touched == {p.name: p.flags for p in after.players}


def _play(seed: int, board: str, ruleset: str, seen: Counter[str]) -> State:
    rng = random.Random(seed)
    players = rng.randint(1, 6)
    max_turns = rng.randint(2, 6)
    state = GAME.new_game(players, {"board": board, "ruleset": ruleset, "max_turns": max_turns}, seed)
    for step in range(2000):
        if GAME.is_terminal(state):
            break
        actions = GAME.legal_actions(state)
        assert len(actions) > 0
        action = actions[rng.randrange(len(actions))]
        if rng.random() < 0.9:  # reboots are rare at a real table
            action = actions[rng.randrange(len(actions) // 2)] if len(actions) > 1 else action
        text = GAME.action_to_str(state, action)
        after, events = GAME.apply(state, GAME.action_from_str(state, text))
        _check(state, after, events)
        seen.update(e.kind for e in events)
        if step % 7 == 0:
            assert GAME.state_hash(GAME.state_from_json(GAME.state_to_json(after))) == GAME.state_hash(after)
        state = after
    assert GAME.is_terminal(state), "a game must end by itself or at its turn limit"
    assert state.turn <= max_turns + 1
    return state


@pytest.mark.parametrize("ruleset", ["v2.1", "v1"])
@pytest.mark.parametrize("board", ["factory", "test"])
def test_random_games_keep_the_invariants(board: str, ruleset: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES // 4):
        _play(seed, board, ruleset, seen)
    # the games really exercised the rules, not just turned in place
    assert seen["push"] and seen["destroyed"] and seen["fence"] and seen["laser"] and seen["reinstate"]
    if board == "factory":
        assert seen["conveyor"] and seen["pusher"] and seen["gear"]
        assert bool(seen["teleport"]) == (ruleset == "v2.1")
    print(board, ruleset, dict(seen))
