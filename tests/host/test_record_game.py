"""games/record.py and the new_game checks of games/base.py, on every registered game that uses them."""

from __future__ import annotations

import json

import pytest

from botboard import games
from botboard.games.base import GameError, IllegalAction, ScenarioError
from botboard.games.record import RecordGame

NAMES = [n for n in games.names() if isinstance(games.get(n), RecordGame)]


@pytest.mark.parametrize("name", NAMES)
def test_an_unknown_option_is_named_with_the_game_and_its_options(name: str) -> None:
    game = games.get(name)
    with pytest.raises(GameError) as err:
        game.new_game(game.info.min_players, {"nope": 1})
    assert f"unknown {game.info.title} option 'nope'" in str(err.value)
    assert ", ".join(game.info.options) in str(err.value)


@pytest.mark.parametrize("name", NAMES)
def test_a_player_count_outside_the_declared_range_is_refused(name: str) -> None:
    game = games.get(name)
    low, high = game.info.min_players, game.info.max_players
    for players in (low - 1, high + 1):
        with pytest.raises(GameError, match=rf"takes {low}\.\.{high} \w+, not {players}"):
            game.new_game(players)


@pytest.mark.parametrize("name", NAMES)
def test_a_state_round_trips_and_a_broken_one_says_what_is_wrong(name: str) -> None:
    game = games.get(name)
    state = game.new_game(game.info.min_players, seed=5)
    doc = json.loads(json.dumps(game.state_to_json(state)))
    assert game.state_hash(game.state_from_json(doc)) == game.state_hash(state)
    assert game.state_hash(game.scenario_start(game.info.min_players, {}, 0, doc)) == game.state_hash(state)
    with pytest.raises(ScenarioError, match="state: expected an object"):
        game.state_from_json([])  # type: ignore[arg-type]
    with pytest.raises(ScenarioError, match=r"state: missing field 'robots'|state: missing field 'players'"):
        game.state_from_json({k: v for k, v in doc.items() if k not in ("robots", "players")})


@pytest.mark.parametrize("name", NAMES)
def test_a_compact_position_with_an_unknown_field_names_the_known_ones(name: str) -> None:
    game = games.get(name)
    with pytest.raises(ScenarioError, match=r"position: unknown field\(s\) nope; known: \w+"):
        game.scenario_start(game.info.min_players, {}, 0, {"nope": 1})
    with pytest.raises(ScenarioError, match="position: expected an object"):
        game.scenario_start(game.info.min_players, {}, 0, "r1c1")


@pytest.mark.parametrize("name", NAMES)
def test_an_action_of_a_player_not_in_the_game_is_refused_by_name(name: str) -> None:
    game = games.get(name)
    state = game.new_game(game.info.min_players, seed=1)
    text = game.action_to_str(state, game.legal_actions(state)[0])
    seat = game.info.min_players + 1
    stranger = f"p{seat}" + text[text.index(" "):]
    with pytest.raises(IllegalAction, match=f"p{seat}"):
        game.action_from_str(state, stranger)
    assert game.outcome(state) is None
