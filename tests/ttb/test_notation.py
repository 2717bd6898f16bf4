import json

import pytest

from botboard.games.base import ScenarioError
from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.notation import fen_to_doc

from .helpers import random_game


@pytest.mark.parametrize("players,options", [(2, {}), (3, {"mud": 2, "blobs": 1}),
                                             (4, {"teams": True, "rocks": 1}),
                                             (6, {"teleporters": 2, "mud": 1})])
def test_round_trips(players, options):
    for seed in range(4):
        state, _ = random_game(players, seed, options, max_actions=150, check=False)
        doc = json.loads(json.dumps(GAME.state_to_json(state)))
        assert GAME.state_from_json(doc) == state
        text = GAME.to_text(state)
        assert GAME.from_text(text) == state
        assert GAME.state_hash(GAME.state_from_json(doc)) == GAME.state_hash(state)


def test_text_position_of_a_new_game():
    text = GAME.to_text(GAME.new_game(2, {}, 1))
    assert text.startswith("players=2 arena=4 turn=red turns=0 robots=4,-3:2;0,4:4;-4,3:5;0,-4:1 ")
    assert "crystals=-1,1:b;-2,4:b;0,0:g;1,-1:b;2,-4:b" in text


def test_hidden_specials():
    state = GAME.new_game(3, {}, 5)
    referee = GAME.observe(state)
    assert all(len(h) == 1 and h[0] != "?" for h in referee["hands"].values())
    mine = GAME.observe(state, 1)
    assert mine["hands"]["blue"] == referee["hands"]["blue"]
    assert mine["hands"]["red"] == ["?"] == mine["hands"]["green"]
    assert "position" not in mine and isinstance(mine["deck"], int)


def test_scenario_positions_can_be_partial_or_text():
    base = GAME.scenario_start(2, {}, 0, {"robots": {"redA": {"at": "1,0", "facing": "W"}},
                                          "crystals": {"0,0": "pink"}})
    assert base.cell[0] == base.layout.arena.index[(1, 0)] and base.face[0] == 3
    assert base.turns == 2  # past the first turns
    text = GAME.scenario_start(2, {}, 0, "robots=1,0:W;0,4:4;-4,3:5;0,-4:1 crystals=0,0:p")
    assert text.cell == base.cell and text.occ == base.occ


@pytest.mark.parametrize("position,problem", [
    ({"robots": {"redA": {"at": "9,9"}}}, "position.robots.redA.at: hex 9,9 is off the arena"),
    ({"robots": {"redA": {"at": "0,4"}}}, "already taken"),
    ({"crystals": {"0,0": "purple"}}, "not a crystal colour"),
    ({"programs": {"redA": ["F1", "F1", "F1"]}}, "more F1 tiles"),
    ({"turn": "mauve"}, "position.turn"),
    ({"robot": {}}, "position.robot: unknown field"),
    ("robots=1,0", "cannot read robots"),
])
def test_bad_positions_name_the_field(position, problem):
    with pytest.raises(ScenarioError, match=problem.replace("(", r"\(")):
        GAME.scenario_start(2, {}, 0, position)


def test_fen_fields_parse():
    doc = fen_to_doc("players=2 track=bgp dm=10 delivered=1.0.0;0.2.0")
    assert doc["track"] == ["b", "g", "p"]
    assert doc["dm_used"] == {"red": True, "blue": False}
    assert doc["delivered"]["blue"] == {"blue": 0, "green": 2, "pink": 0}


def test_a_special_once_placed_stays_known():
    state = GAME.scenario_start(2, {}, 0, {"hands": {"red": ["J", "U"]}})
    state, _ = GAME.apply_str(state, "A1=J")
    state, _ = GAME.apply_str(state, "pass")  # blue
    state, _ = GAME.apply_str(state, "A1=-")  # J back in red's hand
    blue_view = GAME.observe(state, 1)
    assert blue_view["hands"]["red"] == ["?", "J"] or blue_view["hands"]["red"] == ["J", "?"]
    assert blue_view["revealed"]["red"] == ["J"]
    assert GAME.from_text(GAME.to_text(state)) == state


def test_program_text():
    from botboard.games.base import InvalidNotation
    from botboard.games.twintinbots.notation import program_from_str, program_to_str

    progs = program_from_str("A: F1 - L | B: R R lz")
    assert program_to_str(progs) == "A: F1 - L | B: R R LZ"
    assert program_from_str("F1 - L | R R LZ") == progs
    with pytest.raises(InvalidNotation, match="three slots"):
        program_from_str("A: F1 L | B: - - -")
