"""Random legal games in every variant and player count, checking invariants after every action.

Invariants: every construction tile is in exactly one place (supply, a hand,
a yard, a scrapyard); defense tokens never exceed the box's supply; goblins
only leave cockpits; a player's score is the sum of their rounds and each
round is win points plus agenda points; win points are at most 6; the game
ends by itself after the variant's number of rounds.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from botboard.games.base import Event
from botboard.games.goblins.defense import supply_left
from botboard.games.goblins.game import GAME
from botboard.games.goblins.state import State
from botboard.games.goblins.tiles import load_box

GAMES = 12  # per parametrisation: about 15 s in all on one core


def _check(state: State, events: list[Event]) -> None:
    box = load_box(state.box)
    places: Counter[int] = Counter(state.supply)
    for player in state.players:
        places.update(player.hand)
    for robot in state.robots:
        places.update(t for t, _ in robot.yard.values())
        places.update(robot.scrap)
        assert set(robot.loose) <= set(robot.scrap)
        assert len(robot.goblins) + len(robot.scrap_goblins) == 2 * len(robot.members) or not robot.goblins and \
            not robot.scrap_goblins
        assert all(len(cover) in (1, 2) for cover in robot.tokens)
        assert all(s in robot.yard for cover in robot.tokens for s in cover), "a token on an empty square"
    assert places == Counter(list(box.tiles)), "a tile was lost or duplicated"
    assert 0 <= supply_left(state, box) <= box.defense_tokens
    for player in state.players:
        assert player.score == sum(r["total"] for r in player.history)
        for line in player.history:
            assert line["total"] == line["win"] + sum(line["agendas"].values())
            assert 0 <= line["win"] <= 6
    for event in events:
        assert event.text


def _play(seed: int, players: int, variant: str, seen: Counter[str]) -> State:
    rng = random.Random(seed)
    state = GAME.new_game(players, {"variant": variant}, seed)
    for step in range(3000):
        if GAME.is_terminal(state):
            break
        legal = GAME.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, events = GAME.apply(state, GAME.action_from_str(state, GAME.action_to_str(state, action)))
        _check(state, events)
        seen.update(e.kind for e in events)
        if step % 50 == 0:
            assert GAME.state_hash(GAME.state_from_json(GAME.state_to_json(state))) == GAME.state_hash(state)
    assert GAME.is_terminal(state), "a game ends by itself"
    assert state.round == state.rounds == {"standard": 2, "full": 3, "party": 3}[variant]
    outcome = GAME.outcome(state)
    assert outcome is not None and list(outcome.scores) == [p.score for p in state.players]
    if outcome.winners:
        assert all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
    return state


@pytest.mark.parametrize("variant", ["standard", "full", "party"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_invariants(players: int, variant: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        _play(seed, players, variant, seen)
    assert seen["place"] and seen["destroyed"] and seen["reveal"] and seen["score"]
    if variant != "party":
        assert seen["agendas-kept"]


def test_random_games_use_every_ability() -> None:
    seen: Counter[str] = Counter()
    for seed in range(30):
        _play(100 + seed, 2 + seed % 3, "standard", seen)
    for kind in ("sabotage", "duct-tape", "crane", "nitro", "homing", "dynamite", "token-lost", "goblin-out",
                 "squabble", "wait"):
        assert seen[kind], f"no {kind} in 30 random games"


def test_a_placement_is_accepted_exactly_when_it_is_listed() -> None:
    """check_action's direct look at a placement (a held tile, a free square, a facing) agrees
    with the listed legal actions, for placements listed and many that are not."""
    from botboard.games.base import IllegalAction
    from botboard.games.goblins.actions import Action

    rng, looked = random.Random(5), 0
    for seed in range(3):
        state = GAME.new_game(2 + seed, {"rounds": 1}, seed)
        while GAME.current_player(state) is not None:
            legal = list(GAME.legal_actions(state))
            if state.queue[0][1] == "place":
                player = state.queue[0][0]
                listed = set(legal)
                tiles = [f"t{t}" for t in rng.sample(range(1, 90), 3)] + [a.args[0] for a in legal[:3]]
                squares = ["r3c3", "r1c1", "r5c5", "r2c4", *(a.args[1] for a in legal[:3])]
                for tile in tiles:
                    for square in squares:
                        for facing in ("N", "W", "X"):
                            action = Action(player, "place", (tile, square, facing))
                            try:
                                GAME.check_action(state, action)
                                accepted = True
                            except IllegalAction:
                                accepted = False
                            assert accepted == (action in listed), action
                            looked += 1
            state, _ = GAME.apply(state, rng.choice(legal))
    assert looked > 1000
