"""Computer players think in worker processes (session/thinking.py): the same seed gives the
same moves as at home, the player's seed goes on from move to move, and a computer seat at a
running table moves through them."""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path
from typing import Any

import pytest

from botboard import games
from botboard.players import Situation, make
from botboard.session.thinking import NICE, ThinkingPool

from ..patience import until
from .helpers import Table


def _positions(game: Any, count: int) -> list[Any]:
    """States along a random two-player game, each with a seat to act."""
    rng, state, out = random.Random(4), game.new_game(2, {}, 3), []
    while len(out) < count and game.current_player(state) is not None:
        if rng.random() < 0.3:
            out.append(state)
        legal = game.legal_actions(state)
        state = game.advance(state, legal[rng.randrange(len(legal))])
    return out


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling classes")
def test_a_worker_runs_only_when_the_table_does_not_need_the_cpu() -> None:
    async def in_worker() -> tuple[int, int]:
        pool = ThinkingPool(1)
        try:
            policy = await pool.run(os.sched_getscheduler, 0)
            niceness = await pool.run(os.getpriority, os.PRIO_PROCESS, 0)
        finally:
            pool.close()
        return policy, niceness

    policy, niceness = asyncio.run(in_worker())
    assert policy == os.SCHED_IDLE  # preempted at once when the event loop wakes
    assert niceness >= os.getpriority(os.PRIO_PROCESS, 0) + NICE


@pytest.mark.parametrize("name", games.table_names())
def test_a_player_in_a_worker_moves_as_it_would_at_home_and_its_seed_goes_on(name: str) -> None:
    game = games.get(name)
    positions = _positions(game, 3)
    at_home = make("search", seed=7, iterations=10)
    expected = [at_home.choose(Situation.of(game, s, game.current_player(s))).action for s in positions]

    async def in_workers() -> list[str]:
        pool, player, moves = ThinkingPool(1), make("search", seed=7, iterations=10), []
        try:
            for state in positions:
                choice, player = await pool.think(player, game, state, game.current_player(state))
                moves.append(choice.action)
        finally:
            pool.close()
        return moves

    assert asyncio.run(in_workers()) == expected
    assert len(set(expected)) > 1 or len(positions) < 2  # the positions ask different moves


def test_a_computer_seat_at_a_running_table_moves_through_its_worker(tmp_path: Path) -> None:
    table = Table(tmp_path)
    session = table.session
    said: list[dict[str, Any]] = []
    session._publish = said.append  # noqa: SLF001  what the consoles would receive
    session.new_game(2, {"track": 0}, 1)

    async def play() -> int:
        session.set_computers({1: "greedy"}, 0.05)
        table.place(0, "A1", "F1/red")
        table.place(0, "B1", "L/red")
        table.press(0, "confirm")
        done = len(session.journal.actions(session.game_id))
        await until(lambda: not session._thinking  # noqa: SLF001
                    and len(session.journal.actions(session.game_id)) > done, 30, "blue's program")
        session.stop_thinking()
        return len(session.journal.actions(session.game_id)) - done

    assert asyncio.run(play()) >= 1  # blue's program, thought in the worker
    announced = [e["text"] for e in said if e.get("event") == "message" and not e.get("private")]
    assert any(text.startswith("blue (computer) plays: ") for text in announced)
