"""The rules' option for a tied competition: play one more round, or leave it tied."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from botboard.games.goblins.game import GAME
from botboard.games.goblins.scoring import VARIANTS


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
    from botboard.games.base import GameError

    with pytest.raises(GameError, match="tie_round"):
        GAME.new_game(2, {"tie_round": "yes"}, 0)


def _play_out(state: Any, rng: random.Random, limit: int = 3000) -> tuple[Any, list[str]]:
    """Random legal actions to the end; every pending decision must offer a choice."""
    kinds = []
    for _ in range(limit):
        if GAME.outcome(state) is not None:
            return state, kinds
        decision = GAME.pending(state)
        assert decision is not None and decision.choices, f"a decision with no choice: {decision}"
        legal = GAME.legal_actions(state)
        state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
        kinds += [e.kind for e in events]
    raise AssertionError("the game did not end")


def test_the_full_games_tie_round_reshuffles_the_used_agendas_and_ends() -> None:
    # 3 rounds of 7 agendas use up each player's 21 cards: round 4 deals from the reshuffled cards
    state, action, total = _tied_before_the_end({"variant": "full", "tie_round": True})
    after, events = GAME.apply(state, action)
    assert [e.data["round"] for e in events if e.kind == "tie-round"] == [4]
    assert sorted(e.data["player"] for e in events if e.kind == "agendas-reshuffled") == ["p1", "p2"]
    for player in after.players:
        assert len(player.agenda_hand) == 7 and len(player.agenda_deck) == 14
        assert len(set(player.agenda_hand + player.agenda_deck)) == 21  # every agenda once again
    end, kinds = _play_out(after, random.Random(4))
    assert end.round == end.rounds == 4 and "agendas-kept" in kinds
    outcome = GAME.outcome(end)
    assert outcome is not None and list(outcome.scores) == [p.score for p in end.players]
    assert all(len(p.history) == 4 for p in end.players)


@pytest.mark.parametrize("variant", ["standard", "full", "party"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_tie_rounds_always_offer_a_choice(players: int, variant: str) -> None:
    """Random games forced into a tie at the end play the extra round to the end."""
    for seed in range(2):
        rng = random.Random(seed)
        state = GAME.new_game(players, {"variant": variant, "tie_round": True}, seed)
        while True:  # to the last action of the game
            legal = GAME.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            after, _ = GAME.apply(state, action)
            if GAME.outcome(after) is not None:
                break
            state = after
        final = GAME.outcome(after)
        assert final is not None
        if after.rounds > VARIANTS[variant]:  # a tie by chance already played its extra round
            continue
        gained = [final.scores[i] - state.players[i].score for i in range(players)]
        tied = copy.deepcopy(state)
        top = max(gained)
        for i, player in enumerate(tied.players):
            player.score = top - gained[i] + 10  # everyone ends on top + 10
            player.history = [{"round": 0, "win": 0, "agendas": {}, "total": player.score}]
        after, events = GAME.apply(tied, action)
        assert any(e.kind == "tie-round" for e in events) and GAME.outcome(after) is None
        end, _ = _play_out(after, rng)
        assert end.round == end.rounds == VARIANTS[variant] + 1
