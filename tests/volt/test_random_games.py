"""Random legal games on both arenas, 2-4 operators, with and without KillBots, checking
invariants after every action: one robot per space and none on a mine, monitors keep FAQ 2a, damage 0-2 on
robots in the arena, VP only ever grows and each gain is an event, the arena's VP tokens
stay on their numbered spaces, and every game ends (by VP or at the round cap)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from botboard.games.base import Event
from botboard.games.volt.game import GAME
from botboard.games.volt.monitor import check as check_monitor
from botboard.games.volt.state import State

GAMES = 60  # per parametrisation; about 10 s in all on one core


def _check(before: State, after: State, events: list[Event]) -> None:
    arena = after.arena
    squares = Counter(r.square for r in after.robots if r.alive)
    assert all(n == 1 for n in squares.values()), f"robots share a space: {squares}"
    assert not set(squares) & set(after.mines), "a robot stands on a mine"
    gains = Counter(e.data["robot"] for e in events if e.kind == "vp")
    for old, new in zip(before.robots, after.robots):
        check_monitor(after.monitor, new.monitor)  # FAQ 2a holds after every equip
        if new.alive:
            assert 0 <= new.damage <= 2 and arena.on_arena(new.square)  # type: ignore[arg-type]
            assert new.square not in arena.pits
        assert new.vp == old.vp + gains[new.name], (old.vp, new.vp, gains)
        assert new.vp >= 0
    for square, number in after.tokens.items():
        assert arena.vp_spaces[number] == square
    assert len(after.tokens) + len(after.bag) <= sum(arena.vp_tokens.values())


def _play(seed: int, arena: str, seen: Counter[str]) -> State:
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    killbots = rng.randint(0, 4 - players)
    options = {"arena": arena, "killbots": killbots, "max_rounds": rng.randint(3, 12),
               "mode": rng.choice(["full", "training"]), "killbot_draws": rng.random() < 0.5,
               "monitor": rng.choice(["row-4", "square-4", "open-4"])}
    state = GAME.new_game(players, options, seed)
    for step in range(3000):
        if GAME.is_terminal(state):
            break
        actions = GAME.legal_actions(state)
        assert len(actions) > 0
        action = actions[rng.randrange(len(actions))]
        text = GAME.action_to_str(state, action)
        after, events = GAME.apply(state, GAME.action_from_str(state, text))
        _check(state, after, events)
        seen.update(e.kind for e in events)
        if step % 11 == 0:
            assert GAME.state_hash(GAME.state_from_json(GAME.state_to_json(after))) == GAME.state_hash(after)
        state = after
    assert GAME.is_terminal(state), "every game ends, by VP or at the round cap"
    outcome = GAME.outcome(state)
    assert outcome is not None and set(outcome.winners) <= set(range(players))
    goal = 5 if options["mode"] == "full" else 3
    if not outcome.reason.startswith("round limit"):
        assert max(r.vp for r in state.robots) >= goal or "squad" in outcome.reason
    return state


@pytest.mark.parametrize("arena", ["training", "foundry"])
def test_random_games_keep_the_invariants(arena: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        _play(seed, arena, seen)
    for kind in ("move", "pushed", "fire", "damage", "destroyed", "reboot", "vp-token", "vp", "draw", "equip"):
        assert seen[kind], f"random games never produced a {kind!r} event"
