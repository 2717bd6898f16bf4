"""The plugin hooks around decisions: who acts, what counts as a turn, the registry."""

import pytest

from botboard import games
from botboard.games.base import IllegalAction
from botboard.games.twintinbots.game import GAME

ENTRY = {"robots": {"redA": {"at": "-2,0", "facing": 3, "carry": "blue"}},
         "crystals": {"0,0": "green"}, "programs": {"redA": ["UL", "-", "-"]},
         "track": ["pink", "blue"]}


def test_registry_and_alias():
    assert games.get("twin-tin-bots") is GAME is games.get("ttb")
    assert GAME.info.hidden_information and GAME.info.max_players == 6


def test_a_decision_belongs_to_the_player_it_names():
    state = GAME.scenario_start(2, {}, 0, ENTRY)
    assert GAME.is_turn(state, GAME.action_from_str(state, "pass"))
    state, _ = GAME.apply_str(state, "pass")
    decision = GAME.pending(state)
    assert decision.player == 1 == GAME.current_player(state)  # blue, during red's turn
    assert state.player == 0
    assert decision.kind == "crystal-entry" and "blue" in decision.prompt
    action = GAME.action_from_str(state, "enter 1,-1")
    assert not GAME.is_turn(state, action)
    with pytest.raises(IllegalAction, match="must choose one of"):
        GAME.action_from_str(state, "enter 3,-3")
    with pytest.raises(IllegalAction, match="must choose"):
        GAME.apply_str(state, "pass")
    state, events = GAME.apply(state, action)
    assert GAME.pending(state) is None and GAME.current_player(state) == 1 == state.player
    assert events[-1].text == "A pink crystal enters at (1,-1)"


def test_paused_states_round_trip():
    state = GAME.scenario_start(2, {}, 0, ENTRY)
    state, _ = GAME.apply_str(state, "pass")
    assert GAME.state_from_json(GAME.state_to_json(state)) == state
    assert GAME.from_text(GAME.to_text(state)) == state
    assert "exec=entry:blue:pink@0.0.1/0" in GAME.to_text(state)


def test_game_over_refuses_actions():
    state = GAME.scenario_start(2, {}, 0, {"countdown": 0, "turn": "blue"})
    state, _ = GAME.apply_str(state, "pass")
    assert GAME.outcome(state).reason == "crystal attrition"
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply_str(state, "pass")
