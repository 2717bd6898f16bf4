"""Computer players: they see only what their seat may see, play legal moves, and are stronger
than chance. Samples of a hidden state keep the seat's own view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from botboard import games
from botboard.bench.ai import match, wilson
from botboard.players import Situation, make

GAMES = [("twin-tin-bots", 2, {"track": 6}), ("botwars", 3, {}), ("volt", 3, {}), ("goblins", 4, {})]


def _positions(name: str, players: int, options: dict[str, Any], count: int) -> list[Any]:
    """States along a random game, each with a player to act."""
    game, rng = games.get(name), random.Random(4)
    state, out = game.new_game(players, options, 3), []
    for _ in range(count * 7):
        if game.current_player(state) is None:
            break
        out.append(state)
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    return out[::7][:count]


def _seen(game: Any, state: Any, seat: int) -> str:
    view = game.observe(state, seat)
    view.pop("seed", None)  # the game's seed is a setting, not a secret (and samples draw a new one)
    return json.dumps(view, sort_keys=True, default=str)


@pytest.mark.parametrize("name,players,options", GAMES)
def test_a_sample_keeps_what_the_seat_sees_and_forgets_what_it_cannot(name: str, players: int,
                                                                      options: dict[str, Any]) -> None:
    game = games.get(name)
    changed = 0
    for state in _positions(name, players, options, 12):
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
@pytest.mark.parametrize("name,players,options", GAMES)
def test_two_states_differing_only_in_hidden_cards_give_the_same_decision(
        name: str, players: int, options: dict[str, Any], level: str) -> None:
    game = games.get(name)
    for state in _positions(name, players, options, 3):
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


def test_the_seats_own_programs_are_offered_before_the_engine_reaches_it() -> None:
    game = games.get("botwars")
    state = game.new_game(2, {}, 1)
    assert game.current_player(state) == 0
    second = game.legal_actions_of(state, 1)
    assert len(second) > 0 and str(second[0]).startswith("p2 program")
    assert len(games.get("goblins").legal_actions_of(games.get("goblins").new_game(2, {}, 1), 1)) == 0


def test_greedy_beats_random_and_the_bench_says_so_with_its_interval() -> None:
    figures = match("goblins", ["greedy", "random"], 4, 0.01, 2, {}, 3000, iterations=96)  # all 48, twice
    assert figures["greedy"]["wins"] + figures["random"]["wins"] + figures["draws"] == 4
    assert figures["greedy"]["wins"] >= 3  # a one-move lookahead beats chance (4 of 4 measured)
    low, high = figures["greedy"]["ci95"]
    assert low <= figures["greedy"]["win_rate"] <= high
    assert wilson(9, 10) == pytest.approx((0.596, 0.982), abs=0.002)
