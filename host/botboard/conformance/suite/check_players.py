"""Every game's computer players: the evaluation scores each seat, tells positions apart and
points the right way; greedy and search choose legal moves for every seat without falling back;
a sample of what a seat cannot see keeps what it sees, and does not change its decision."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest

from botboard import games
from botboard.players import Situation, make

from .. import direction
from ..play import player_counts, positions


def test_the_evaluation_scores_each_seat_and_tells_positions_apart(botboard_game: str) -> None:
    name = botboard_game
    evaluation = games.evaluation(name)
    assert evaluation.scale > 0, f"{name}: the evaluation's scale must be above 0 (a clear lead)"
    players = player_counts(name)[-1]
    seen = set()
    for state in positions(name, players, 10, stride=9, options=dict(games.declaration(name).match_options)):
        standing = evaluation.standing(state)
        assert len(standing) == players and all(isinstance(s, float) for s in standing), \
            f"{name}: the evaluation's standing must be one float per seat ({players}), got {standing!r}"
        seen.add(tuple(round(s, 6) for s in standing))
    assert len(seen) > 1, f"{name}: the evaluation gives every position the same standing"


def test_the_evaluation_rises_for_the_seat_that_wins(botboard_game: str) -> None:
    found = direction.count(botboard_game)
    assert found.ends, (f"{botboard_game}: no scenario and no random game ended with a winner, so the "
                        "evaluation's direction cannot be checked: ship a scenario that plays to a win")
    assert found.votes > 0, (
        f"{botboard_game}: the evaluation points the wrong way: winning gained the winners less standing "
        f"than the others in {len(found.against)} of {found.ends} ends ({found.against[0] if found.against else ''}); "
        "look at the evaluation's standing: bigger must be better for that seat")


@pytest.mark.parametrize("level", ["greedy", "search"])
def test_greedy_and_search_choose_legal_moves_without_falling_back(botboard_game: str, level: str) -> None:
    """Raising would be the table's fallback (a legal move, logged as a failure). A state the game
    cannot sample for the seat is answered from the public choices: there the player looks at no
    position, anywhere else it must."""
    name = botboard_game
    game, looked = games.get(name), 0
    for players in player_counts(name):
        for state in positions(name, players, 3):
            seat = game.current_player(state)
            assert seat is not None  # positions() gives states with a seat to act
            situation = Situation.of(game, state, seat)
            choice = make(level, seed=1, budget_s=5.0, iterations=24).choose(situation)
            legal = {game.action_to_str(state, a) for a in situation.legal}
            assert choice.action in legal, f"{name}: {level} chose {choice.action!r}, not a legal action"
            if len(legal) > 1 and situation.sample(random.Random(0)) is not None:
                assert choice.nodes > 0, f"{name}: {level} looked at no position: it did not really choose"
                looked += 1
    assert looked, f"{name}: no position where {level} had a real choice to make"


def _seen(game: Any, state: Any, seat: int) -> str:
    view = game.observe(state, seat)
    view.pop("seed", None)  # the game's seed is a setting, not a secret (and samples draw a new one)
    return json.dumps(view, sort_keys=True, default=str)


def _sampled(name: str, count: int, rng_seed: int) -> Iterator[tuple[Any, int, Any]]:
    """(state, the seat to act, a sample of it for that seat) over positions of the most players;
    a state the game cannot sample is left out (the players choose from public choices there)."""
    game = games.get(name)
    for state in positions(name, player_counts(name)[-1], count, seed=4, stride=7):
        seat = game.current_player(state)
        assert seat is not None  # positions() gives states with a seat to act
        try:
            sample = game.determinize(state, seat, random.Random(rng_seed))
        except games.GameError:
            continue
        yield state, seat, sample


def test_a_sample_keeps_what_the_seat_sees_and_depends_only_on_it(botboard_game: str) -> None:
    name = botboard_game
    game = games.get(name)
    for state, seat, sample in _sampled(name, 12, 5):
        assert _seen(game, sample, seat) == _seen(game, state, seat), \
            f"{name}: determinize changed what seat {seat} can see: look at the engine's determinize"
        other = game.determinize(state, seat, random.Random(99))  # differs only where seat cannot see
        assert game.state_hash(game.determinize(other, seat, random.Random(5))) == game.state_hash(sample), \
            (f"{name}: two states differing only in what seat {seat} cannot see give different samples for one "
             "rng: determinize must not depend on the hidden parts it deals again")


@pytest.mark.parametrize("level", ["greedy", "search"])
def test_two_states_differing_only_in_what_a_seat_cannot_see_give_the_same_decision(
        botboard_game: str, level: str) -> None:
    name = botboard_game
    game = games.get(name)
    for state, seat, hidden_elsewhere in _sampled(name, 3, 31):
        picks = [make(level, seed=7, iterations=12).choose(Situation.of(game, s, seat)).action
                 for s in (state, hidden_elsewhere)]
        assert picks[0] == picks[1], (f"{name}: {level} chose differently in two states seat {seat} cannot tell "
                                      "apart: the player reads what the seat cannot see")
        assert game.action_from_str(state, picks[0]) is not None
