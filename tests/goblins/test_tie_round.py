"""The rules' option for a tied competition: play one more round, or leave it tied."""

from __future__ import annotations

import copy
from typing import Any

from botboard.games.goblins.game import GAME


def _last_action_of_a_game(options: dict[str, Any]) -> tuple[Any, Any]:
    """The state just before a whole 2-player game ends, and the action that ends it."""
    state = GAME.new_game(2, options, 4)
    while True:
        action = GAME.legal_actions(state)[0]
        after, _ = GAME.apply(state, action)
        if GAME.outcome(after) is not None:
            return state, action
        state = after


def _tied_before_the_end(options: dict[str, Any]) -> tuple[Any, Any, int]:
    """That state with the scores so set that the last round's points make a tie."""
    before, action = _last_action_of_a_game(options)
    final = GAME.outcome(GAME.apply(before, action)[0])
    assert final is not None
    gained = [final.scores[i] - before.players[i].score for i in range(2)]
    tied = copy.deepcopy(before)
    tied.players[0].score, tied.players[1].score = gained[1], gained[0]
    return tied, action, gained[0] + gained[1]


def test_a_tie_is_left_tied_by_default() -> None:
    state, action, total = _tied_before_the_end({})
    after, _ = GAME.apply(state, action)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == () and outcome.scores == (total, total)
    assert "nephew" in outcome.reason


def test_with_the_option_a_tie_plays_one_more_round() -> None:
    state, action, total = _tied_before_the_end({"tie_round": True})
    after, events = GAME.apply(state, action)
    assert GAME.outcome(after) is None  # the game goes on
    assert [e.data["round"] for e in events if e.kind == "tie-round"] == [3]
    assert after.rounds == 3 and after.round == 3
    assert [p.score for p in after.players] == [total, total]
    assert GAME.legal_actions(after)  # someone has a decision to make in the new round


def test_the_option_is_checked() -> None:
    import pytest

    from botboard.games.base import GameError

    with pytest.raises(GameError, match="tie_round"):
        GAME.new_game(2, {"tie_round": "yes"}, 0)
