"""Random legal games with invariants checked after every action."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.state import BLOB, crystals_in_play, final_scores, points

from .helpers import check_invariants, random_game

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


# Independent of the engine's tables: the rules' crystal values and score targets.
_VALUES = {"blue": 2, "green": 3, "pink": 4}
_TARGETS = {2: 11, 3: 10, 4: 9, 5: 8, 6: 7}
_ALL_VARIANTS = {"mud": 3, "blobs": 2, "teleporters": 1, "rocks": 1}
COMPLETE_GAMES = [
    (2, _ALL_VARIANTS), (3, {"mud": 2, "blobs": 2, "teleporters": 2, "rocks": 2}),
    (5, {"mud": 3, "blobs": 1, "rocks": 2}), (6, {"teleporters": 3, "mud": 2}),
    (3, {**_ALL_VARIANTS, "score_victory": False}),
    (4, {"teams": True}), (6, {"teams": True}), (4, {"teams": True, **_ALL_VARIANTS}),
    (6, {"teams": True, "blobs": 2, "teleporters": 2}),
]


@pytest.mark.parametrize("players,options", COMPLETE_GAMES,
                         ids=[f"{p}p-{'-'.join(sorted(o))}" for p, o in COMPLETE_GAMES])
def test_complete_games_score_what_the_bases_hold(players, options):
    """Whole games with variants and in teams: invariants after every action, and the
    scores, final scores and winners recomputed from the deliveries the events report."""
    for seed in range(2):
        rng = random.Random(seed)
        state = GAME.new_game(players, options, seed)
        crystals, blobs = crystals_in_play(state), sum(1 for o in state.occ if o == BLOB)
        tally = [{"blue": 0, "green": 0, "pink": 0} for _ in range(players)]
        countdowns: list[int] = []
        for _ in range(100_000):
            if GAME.outcome(state) is not None:
                break
            legal = GAME.legal_actions(state)
            state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
            check_invariants(state, crystals, blobs)
            for event in events:
                data = event.to_json()
                if data["kind"] == "deliver":
                    tally[data["seat"]][data["crystal"]] += 1
                    assert data["score"] == sum(_VALUES[c] * n for c, n in tally[data["seat"]].items())
                elif data["kind"] == "countdown":
                    countdowns.append(data["counter"])
            assert [tuple(t.values()) for t in tally] == list(state.delivered)
        where = f"{players} players {options} seed {seed}"
        outcome = GAME.outcome(state)
        assert outcome is not None, f"{where}: no end"
        view = GAME.observe(state)
        colours = list(view["scores"])
        delivered = [sum(_VALUES[c] * n for c, n in t.items()) for t in tally]
        assert [view["scores"][c] for c in colours] == delivered, where
        final = list(delivered)
        for name, robot in view["robots"].items():
            if robot["carry"]:
                final[colours.index(name[:-1])] += _VALUES[robot["carry"]] - 1
        assert list(outcome.scores) == final == [view["final_scores"][c] for c in colours], where
        teams = options.get("teams", False)
        if outcome.reason.endswith("score victory"):
            assert not teams and options.get("score_victory", True)
            (winner,) = outcome.winners
            assert delivered[winner] >= _TARGETS[players] > max(
                d for s, d in enumerate(delivered) if s != winner), where
            continue
        assert outcome.reason == ("team crystal attrition" if teams else "crystal attrition")
        assert countdowns == [3, 2, 1], where
        groups = [[s for s in range(players) if s % 2 == t] for t in (0, 1)] if teams else [
            [s] for s in range(players)]

        def rank(seats):
            return (sum(final[s] for s in seats), sum(tally[s]["blue"] for s in seats),
                    sum(tally[s]["green"] for s in seats), sum(delivered[s] for s in seats))
        best = max(rank(g) for g in groups)
        assert list(outcome.winners) == sorted(s for g in groups if rank(g) == best for s in g), where
