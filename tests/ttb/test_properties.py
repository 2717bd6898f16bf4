"""Random legal games with invariants checked after every action."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.state import final_scores, points

from .helpers import random_game

OPTION_SETS = [{}, {"mud": 3, "blobs": 1, "teleporters": 1, "rocks": 1},
               {"teams": True}, {"score_victory": False, "track": 3}]


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("options", OPTION_SETS, ids=["plain", "variants", "teams", "short"])
def test_random_games_keep_the_invariants(players, options):
    if options.get("teams") and players % 2:
        options = {}
    for seed in range(10):
        random_game(players, seed, options, max_actions=300)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 6),
       variants=st.sampled_from(OPTION_SETS[:2]))
def test_hypothesis_random_games(seed, players, variants):
    random_game(players, seed, variants, max_actions=120)


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("options", OPTION_SETS[:2], ids=["plain", "variants"])
def test_games_end(players, options):
    """Whole random games end by themselves (attrition or score victory)."""
    for seed in range(4):
        state, actions = random_game(players, seed, options, max_actions=200_000, check=False)
        outcome = GAME.outcome(state)
        assert outcome is not None, f"{players} players, seed {seed}: no end after {actions}"
        assert GAME.legal_actions(state) == []
        assert outcome.scores == final_scores(state)
        if outcome.reason == "score victory":
            (winner,) = outcome.winners
            assert points(state.delivered[winner]) >= state.layout.score_target


@pytest.mark.parametrize("players", range(2, 7))
def test_short_track_games_end_by_attrition(players):
    """Hundreds of complete games (with invariants): no track, so the end phase starts at once."""
    for seed in range(300):
        state, _ = random_game(players, seed, {"track": 0, "score_victory": False},
                               max_actions=5000)
        assert GAME.outcome(state).reason == "crystal attrition"
        assert state.turns == 4 * players  # the first round, then three more


def test_undo_is_keeping_the_old_state():
    rng = random.Random(1)
    state = GAME.new_game(2, {}, 1)
    history = [state]
    for _ in range(50):
        legal = GAME.legal_actions(state)
        state, _ = GAME.apply(state, legal[rng.randrange(len(legal))])
        history.append(state)
    hashes = [GAME.state_hash(s) for s in history]
    assert hashes[0] == GAME.state_hash(GAME.new_game(2, {}, 1))  # earlier states untouched
    assert len(set(hashes)) > 40
