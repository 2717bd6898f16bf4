"""The API contract every game's engine must keep (OpenSpiel-style random simulation).

For a few seeds and player counts it plays random legal actions and checks: the current
player and the pending decision agree; every listed action prints to notation that parses
back to an equal action; states survive a JSON round trip with the same hash, and hash the
same twice; applying never changes the old state; ``advance`` gives the state ``apply``
gives; a finished game has an outcome and no legal actions; an action the engine did not
list is refused.
"""

from __future__ import annotations

import json
import random

import pytest

from botboard import games
from botboard.games.base import GameError

from ..play import every_player_count

ACTIONS_PER_GAME = 250


def _players(name: str) -> list[tuple[str, int]]:
    return [(f"-{p}p", p) for p in every_player_count(name)]


@pytest.mark.botboard_cases("players", _players)
def test_random_play_keeps_the_contract(botboard_game: str, players: int) -> None:
    game = games.get(botboard_game)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(players, {}, seed)
        for step in range(ACTIONS_PER_GAME):
            where = f"{botboard_game}, {players} players, seed {seed}, action {step}"
            if game.outcome(state) is not None:
                _check_the_end(game, state, players, where)
                break
            legal = game.legal_actions(state)
            assert len(legal) > 0, f"{where}: the game is not over but legal_actions is empty"
            _check_whose_turn(game, state, legal, players, where)
            action = legal[rng.randrange(len(legal))]
            _check_notation(game, state, action, where)
            state = _check_apply(game, state, action, where)


def _check_the_end(game, state, players: int, where: str) -> None:
    outcome = game.outcome(state)
    assert game.is_terminal(state), f"{where}: outcome is set but is_terminal says the game goes on"
    assert list(game.legal_actions(state)) == [], f"{where}: the game is over but legal_actions lists actions"
    assert game.current_player(state) is None, f"{where}: the game is over but current_player names a seat"
    assert set(outcome.winners) <= set(range(players)), f"{where}: the outcome's winners {outcome.winners} are no seats"


def _check_whose_turn(game, state, legal, players: int, where: str) -> None:
    player = game.current_player(state)
    assert player is not None and 0 <= player < players, \
        f"{where}: current_player is {player!r} in a live game; it must be a seat 0..{players - 1}"
    decision = game.pending(state)
    if decision is not None:
        assert decision.player == player, f"{where}: pending() asks seat {decision.player}, current_player is {player}"
        listed = sorted(game.action_to_str(state, a) for a in legal)
        assert sorted(decision.choices) == listed, f"{where}: pending().choices differ from legal_actions"


def _check_notation(game, state, action, where: str) -> None:
    text = game.action_to_str(state, action)
    assert game.action_from_str(state, text) == action, \
        f"{where}: action_from_str({text!r}) is not the action that printed it: look at action_to_str/from_str"


def _check_apply(game, state, action, where: str):
    before = game.state_to_json(state)
    doc = json.loads(json.dumps(before))
    assert game.state_hash(state) == game.state_hash(state), f"{where}: state_hash differs for one state"
    assert game.state_to_json(game.state_from_json(doc)) == before, \
        f"{where}: state_from_json(state_to_json(state)) is another state: look at state_from_json"
    assert game.state_hash(game.state_from_json(doc)) == game.state_hash(state), \
        f"{where}: the state hashes differently after a JSON round trip: look at state_to_json/state_from_json"
    new_state, events = game.apply(state, action)
    assert game.state_to_json(state) == before, f"{where}: apply changed the old state; engines are pure: copy it"
    assert all(e.text for e in events), f"{where}: an event without words: give every Event its text"
    assert game.state_hash(game.advance(state, action)) == game.state_hash(new_state), \
        f"{where}: advance and apply give different states, or apply is not deterministic"
    return new_state


REFUSAL_STEPS = 80  # actions of a random game over which earlier actions are tried again


def test_an_action_not_listed_is_refused_and_garbage_in_words(botboard_game: str) -> None:
    """The table and remote play take notation from people: an action no seat may take now (one
    that was legal a move ago, or after the end) must raise GameError, never be played."""
    game = games.get(botboard_game)
    with pytest.raises(GameError) as err:
        game.action_from_str(game.new_game(game.info.min_players, {}, 0), "no such action ###")
    assert str(err.value), f"{botboard_game}: a GameError without words for a garbage action"
    refused = 0
    for players in every_player_count(botboard_game):
        rng, state = random.Random(players), game.new_game(players, {}, players)
        for step in range(REFUSAL_STEPS):
            seat, legal = game.current_player(state), game.legal_actions(state)
            if seat is None:
                break
            earlier = [game.action_to_str(state, legal[rng.randrange(len(legal))]) for _ in range(2)]
            state = game.advance(state, legal[rng.randrange(len(legal))])
            for text in earlier:
                refused += _refused_unless_legal(game, state, seat, players, text,
                                                 f"{botboard_game}, {players} players, action {step + 1}")
    assert refused, f"{botboard_game}: no action was ever legal one move and not the next: the check tried nothing"


def _refused_unless_legal(game, state, seat: int, players: int, text: str, where: str) -> bool:
    """Whether ``text`` (legal for ``seat`` a move ago) is refused now; fails if it is played while
    no seat may take it."""
    try:
        action = game.action_from_str(state, text)
        game.apply(state, action)
    except GameError:
        return True
    if action in game.legal_actions(state) or any(action in game.legal_actions_of(state, s) for s in range(players)):
        return False  # legal again: nothing to refuse
    pytest.fail(f"{where}: {text!r} was played though no seat may take it now (it was legal a move ago): "
                "action_from_str or apply must refuse what legal_actions and legal_actions_of do not list")
