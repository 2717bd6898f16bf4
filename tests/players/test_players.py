"""Computer players: seats that program at once are offered their programs, and greedy is
stronger than chance (what every game's players must keep: tests/conformance/test_players.py)."""

from __future__ import annotations

import pytest

from botboard import games
from botboard.bench.ai import match, wilson


def test_the_seats_own_programs_are_offered_before_the_engine_reaches_it() -> None:
    game = games.get("botwars")
    state = game.new_game(2, {}, 1)
    assert game.current_player(state) == 0
    second = game.legal_actions_of(state, 1)
    assert len(second) > 0 and str(second[0]).startswith("p2 program")
    assert len(games.get("goblins").legal_actions_of(games.get("goblins").new_game(2, {}, 1), 1)) == 0


def test_greedy_beats_random_and_the_bench_says_so_with_its_interval() -> None:
    # four one-round games (Goblins' short game: building, agendas and combat, half the
    # standard length); the bench plays the standard game
    figures = match("goblins", ["greedy", "random"], 4, 0.01, 2, {"rounds": 1}, 3000, iterations=96)
    assert figures["greedy"]["wins"] + figures["random"]["wins"] + figures["draws"] == 4
    assert figures["greedy"]["wins"] >= 3  # a one-move lookahead beats chance (4 of 4 measured)
    low, high = figures["greedy"]["ci95"]
    assert low <= figures["greedy"]["win_rate"] <= high
    assert wilson(9, 10) == pytest.approx((0.596, 0.982), abs=0.002)
