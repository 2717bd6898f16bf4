"""The plugin hooks: dealing, legality, observation, JSON, hashing, errors."""

from __future__ import annotations

import json

import pytest

from botboard.games import get
from botboard.games.base import GameError, IllegalAction, InvalidNotation, ScenarioError
from botboard.games.botwars.actions import ProgramChoices, parse
from botboard.games.botwars.cards import deck
from botboard.games.botwars.game import GAME

from .helpers import FILLER, play, position


def test_registered() -> None:
    assert get("botwars") is GAME
    assert GAME.info.hidden_information and GAME.info.has_chance


def test_deal_gives_hp_minus_one_cards_from_one_deck() -> None:
    state = position({"p1": {"square": "r1c1", "hp": 7, "mode": "real"},
                      "p2": {"square": "r1c2", "hp": 4, "mode": "real",
                             "fused": {"4": "FWD1:490", "5": "FWD1:500"}}})
    p1, p2 = state.players
    assert len(p1.hand) == 6 and len(p2.hand) == 3
    assert not set(p1.hand) & set(p2.hand)
    assert not {490, 500} & set(p1.hand + p2.hand)  # fused cards stay in their registers


def test_v1_deals_no_upgrade_cards_even_with_stations() -> None:
    cards = deck()
    for seed in range(20):
        state = GAME.new_game(8, {"ruleset": "v1"}, seed)
        for player in state.players:
            player.stations = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)]
        assert not any(c in cards.upgrade for p in state.players for c in p.hand)


def test_upgraded_robots_can_be_dealt_upgrade_cards() -> None:
    stations = ["r1c1", "r1c2", "r1c3", "r1c4", "r1c5", "r1c6"]
    seen = set()
    for seed in range(30):
        state = GAME.scenario_start(1, {}, seed, {"robots": {"p1": {"square": "r2c2", "stations": stations}}})
        seen |= {deck().kind_of[c] for c in state.players[0].hand}
    assert {"RVS2", "SLF1", "IDLE"} <= seen


def test_same_seed_same_game_different_seed_different_deal() -> None:
    a, b, c = GAME.new_game(2, {}, 5), GAME.new_game(2, {}, 5), GAME.new_game(2, {}, 6)
    assert GAME.state_hash(a) == GAME.state_hash(b) != GAME.state_hash(c)


def test_programs_are_secret_until_played() -> None:
    state = GAME.new_game(2, {}, 1)
    hand = state.players[0].hand
    state, events = play(state, f"p1 program {' '.join(str(c) for c in hand[:5])} reboot")
    mine, theirs = GAME.observe(state, 0)["robots"], GAME.observe(state, 1)["robots"]
    assert mine["p1"]["program"] == [deck().name(c) for c in hand[:5]] and mine["p1"]["reboot_next"]
    assert theirs["p1"]["program"] == "hidden" and theirs["p1"]["hand"] == 9
    assert theirs["p1"]["reboot_next"] == "hidden" and mine["p2"]["hand"] == 9
    assert len(theirs["p2"]["hand"]) == 9
    assert [e.kind for e in events] == ["program"] and "FWD" not in events[0].text
    assert GAME.current_player(state) == 1


def test_program_choices_are_a_lazy_exact_list() -> None:
    state = GAME.new_game(2, {}, 3)
    choices = GAME.legal_actions(state)
    assert isinstance(choices, ProgramChoices)
    assert len(choices) == 9 * 8 * 7 * 6 * 5 * 2
    picks = {str(choices[i]) for i in (0, 1, len(choices) // 2, len(choices) - 1)}
    assert len(picks) == 4
    for text in picks:
        action = GAME.action_from_str(state, text)
        assert action in choices and GAME.action_to_str(state, action) == text


def test_illegal_programs_say_why() -> None:
    state = GAME.new_game(2, {}, 3)
    hand = [deck().name(c) for c in state.players[0].hand]
    other = next(deck().name(c) for c in deck().base if c not in state.players[0].hand)
    with pytest.raises(IllegalAction, match="must program 5 card"):
        GAME.action_from_str(state, "p1 program " + " ".join(hand[:4]))
    with pytest.raises(IllegalAction, match="not in p1's hand"):
        GAME.action_from_str(state, "p1 program " + " ".join(hand[:4] + [other]))
    with pytest.raises(IllegalAction, match="a card can fill only one register"):
        GAME.action_from_str(state, "p1 program " + " ".join(hand[:4] + hand[:1]))
    with pytest.raises(IllegalAction, match="it is p1's turn"):
        GAME.action_from_str(state, "p2 program " + " ".join(hand[:5]))
    with pytest.raises(IllegalAction, match="no decision is pending"):
        GAME.action_from_str(state, "p1 repair")
    with pytest.raises(IllegalAction, match="no p3"):
        GAME.action_from_str(state, "p3 program")


def test_bad_notation_says_what_is_expected() -> None:
    with pytest.raises(InvalidNotation, match="expected 'pN VERB"):
        parse("program FWD1:490")
    with pytest.raises(InvalidNotation, match="unknown verb 'jump'"):
        parse("p1 jump")
    with pytest.raises(InvalidNotation, match="sacrifice@0 .. sacrifice@10"):
        parse("p1 program 490 sacrifice@11")
    with pytest.raises(InvalidNotation, match="face N\\|E\\|S\\|W"):
        parse("p1 face up")
    assert str(parse("p2 program 490 070 reboot sacrifice@4")) == "p2 program FWD1:490 LF90:070 reboot sacrifice@4"


def test_json_round_trip_mid_game() -> None:
    state = position({"p1": {"square": "r1c2", "facing": "N", "mode": "real", "hp": 4,
                             "fused": {"4": "LF90:090", "5": "RT90:100"},
                             "hand": ["FWD1:490", "LF90:070", "RT90:080"]}},
                     {"name": "x", "size": [4, 4], "start": "r1c1", "flags": ["r4c4"],
                      "squares": {"r2c2": {"type": "repair", "wrenches": 2}}})
    state, _ = play(state, "p1 program FWD1:490 LF90:070 RT90:080")
    assert GAME.pending(state) is not None
    doc = json.loads(json.dumps(GAME.state_to_json(state)))
    again = GAME.state_from_json(doc)
    assert GAME.state_to_json(again) == GAME.state_to_json(state)
    assert GAME.state_hash(again) == GAME.state_hash(state)
    assert GAME.scenario_start(1, {}, 0, doc).turn == state.turn  # a whole state is a position too


def test_states_are_never_modified() -> None:
    state = GAME.new_game(2, {}, 2)
    before = GAME.state_hash(state)
    choices = GAME.legal_actions(state)
    GAME.apply(state, choices[0])
    assert GAME.state_hash(state) == before


def test_options_and_positions_are_checked() -> None:
    with pytest.raises(GameError, match="unknown BotWars option 'speed'"):
        GAME.new_game(2, {"speed": 2})
    with pytest.raises(GameError, match="unknown ruleset"):
        GAME.new_game(2, {"ruleset": "v9"})
    with pytest.raises(GameError, match="takes 1..8 players"):
        GAME.new_game(9)
    with pytest.raises(GameError, match="option colours: expected a list of different colour names"):
        GAME.new_game(2, {"colours": ["red", "Red"]})
    with pytest.raises(GameError, match="option colours: 1 colour.s. for 2 players"):
        GAME.new_game(2, {"colours": ["red"]})
    with pytest.raises(ScenarioError, match="robots.p1.colour: expected a colour name"):
        position({"p1": {"colour": 7}})
    assert position({"p1": {"colour": "silver"}}).players[0].colour == "silver"
    with pytest.raises(ScenarioError, match="registers 5 are fused"):
        position({"p1": {"square": "r1c1", "hp": 5}})
    with pytest.raises(ScenarioError, match="share a square"):
        position({"p1": {"square": "r1c1", "mode": "real"}, "p2": {"square": "r1c1", "mode": "real"}})
    with pytest.raises(ScenarioError, match="given to both p1 and p2"):
        position({"p1": {"square": "r1c1", "hand": ["FWD1:490"]}, "p2": {"square": "r1c2", "hand": ["FWD1:490"]}})
    with pytest.raises(ScenarioError, match="robots.p1.speed: unknown robot field"):
        position({"p1": {"speed": 3}})
    with pytest.raises(ScenarioError, match="'p3' is not a player"):
        position({"p1": {}, "p3": {}})


def test_turn_limit_ends_the_game_with_most_flags_winning() -> None:
    state = GAME.scenario_start(2, {"max_turns": 1}, 0, {
        "board": {"name": "x", "size": [4, 4], "start": "r1c1", "flags": ["r2c1", "r4c4"]},
        "robots": {"p1": {"square": "r1c1", "mode": "real", "hand": ["FWD1:490"] + FILLER[:4]},
                   "p2": {"square": "r1c4", "mode": "real", "facing": "E", "hand": FILLER[4:] + ["LF90:110", "RT90:120", "LF90:130", "RT90:140"]}}})
    state, _ = play(state, "p1 program FWD1:490 LF90:070 RT90:080 LF90:090 RT90:100",
                    "p2 program UTRN:010 LF90:110 RT90:120 LF90:130 RT90:140")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (1, 0)
    assert "turn limit" in outcome.reason and GAME.legal_actions(state) == []
