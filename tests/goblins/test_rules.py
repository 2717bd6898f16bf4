"""Rule pieces one at a time: lines of fire, connectivity, complete sets, hidden views, notation, positions."""

from __future__ import annotations

import pytest
from botboard.games.base import IllegalAction, InvalidNotation, ScenarioError
from botboard.games.goblins.agendas import score
from botboard.games.goblins.game import GAME
from botboard.games.goblins.state import Robot
from botboard.games.goblins.tiles import load_box
from botboard.games.goblins.yard import connected, first_hit, line_squares, loose

BOX = load_box("placeholder")


def test_lines_run_from_the_attacked_side_inwards() -> None:
    assert line_squares(BOX, 0, 2) == ["r5c2", "r4c2", "r3c2", "r2c2", "r1c2"]  # from the north, column 2
    assert line_squares(BOX, 1, 4) == ["r4c5", "r4c4", "r4c3", "r4c2", "r4c1"]  # from the east, row 4
    assert line_squares(BOX, 2, 5)[0] == "r1c5" and line_squares(BOX, 3, 1)[0] == "r1c1"
    yard = {"r4c3": [52, 0]}
    assert first_hit(yard, BOX, 0, 3) == "r4c3"
    assert first_hit(yard, BOX, 2, 3) == "r3c3"  # from the south the cockpit comes first
    assert first_hit(yard, BOX, 0, 1) is None


def test_metal_must_meet_metal() -> None:
    # t17: weapon with metal on its S and W edges
    yard = {"r4c3": [17, 0]}  # S edge on the cockpit: joined
    assert connected(yard, BOX) == {"r4c3"}
    yard = {"r4c3": [17, 2]}  # turned round, its S edge faces north: loose
    assert loose(yard, BOX) == ["r4c3"]
    yard = {"r4c3": [17, 3], "r4c4": [52, 0]}  # turned W: its W edge lies on the cockpit, its S edge east
    assert connected(yard, BOX) == {"r4c3", "r4c4"}
    yard = {"r4c3": [17, 1], "r4c4": [52, 0]}  # turned E: metal faces W and N, none to the cockpit or r4c4
    assert loose(yard, BOX) == ["r4c3", "r4c4"]


def _robot(yard: dict[str, list[int]], scrap: list[int] | None = None) -> Robot:
    robot = Robot([0], yard=yard)
    robot.scrap = scrap or []
    return robot


@pytest.mark.parametrize("premium_destroyed,points", [(0, 0), (1, 0), (2, 3), (3, 3), (4, 6), (5, 6)])
def test_sharpshooter_counts_complete_pairs(premium_destroyed: int, points: int) -> None:
    premium = [t.id for t in BOX.tiles.values() if t.premium][:premium_destroyed]
    assert score("sharpshooter", _robot({}), _robot({}, premium), BOX, None) == points


def test_stockpiler_needs_one_of_each() -> None:
    enemy = _robot({}, [1, 2, 3, 43, 44, 52])  # 3 weapons, 2 engines, 1 decoration
    assert score("stockpiler", _robot({}), enemy, BOX, None) == 4
    assert score("stockpiler", _robot({}), _robot({}, [1, 2, 43, 44]), BOX, None) == 0


def test_bets_pay_only_on_their_side() -> None:
    me, them = _robot({}), _robot({})
    assert score("star", me, them, BOX, True) == 4 and score("star", me, them, BOX, False) == 0
    assert score("snitch", me, them, BOX, False) == 4 and score("snitch", me, them, BOX, None) == 0


def test_a_players_view_hides_other_hands_and_agendas() -> None:
    state = GAME.new_game(4, {}, 3)
    mine = GAME.observe(state, 0)["players"]
    assert isinstance(mine["p1"]["hand"], list) and len(mine["p1"]["hand"]) == 5
    assert mine["p3"]["hand"] == 5 and mine["p2"]["agenda_hand"] == 7
    referee = GAME.observe(state)["players"]
    assert isinstance(referee["p3"]["hand"], list)


def test_controllers_are_secret_until_revealed() -> None:
    state = GAME.scenario_start(2, {}, 0, {"robots": [{"members": ["p1"], "yard": {"r4c3": "t1 N"}},
                                                      {"members": ["p2"], "yard": {"r4c3": "t2 N"}}]})
    state, _ = GAME.apply_str(state, "p1 pilot R F")
    assert GAME.observe(state, 1)["controls"][0] == {"steer": "hidden", "target": "hidden"}
    assert GAME.observe(state, 0)["controls"][0] == {"steer": "R", "target": "F"}


def test_notation_is_forgiving_about_case_and_order() -> None:
    state = GAME.new_game(2, {}, 0)
    hand = sorted(int(t[1:]) for t in GAME.observe(state)["players"]["p1"]["hand"])
    text = f"P1 KEEP T{hand[2]} t{hand[0]} t{hand[1]}"
    assert str(GAME.action_from_str(state, text)) == f"p1 keep t{hand[0]} t{hand[1]} t{hand[2]}"
    with pytest.raises(InvalidNotation, match="unknown verb"):
        GAME.action_from_str(state, "p1 fly")
    with pytest.raises(IllegalAction, match="p1 must decide first"):
        GAME.action_from_str(state, "p2 keep t1 t2 t3")
    with pytest.raises(IllegalAction, match="no p5"):
        GAME.action_from_str(state, "p5 done")


@pytest.mark.parametrize("position,message", [
    ({"robots": []}, "a list of 2 robots"),
    ({"robots": [{"members": ["p1"]}, {"members": ["p1"]}]}, "every player once"),
    ({"robots": [{"members": ["p1"], "yard": {"r3c3": "t1 N"}}, {"members": ["p2"]}]}, "off the cockpit"),
    ({"robots": [{"members": ["p1"], "yard": {"r1c1": "t1 N"}}, {"members": ["p2"], "yard": {"r1c1": "t1 N"}}]},
     "already used"),
    ({"robots": [{"members": ["p1"]}, {"members": ["p9"]}]}, "not a player"),
    ({"robots": [{"members": ["p1"]}, {"members": ["p2"]}], "dice": [7]}, "die faces"),
    ({"robots": [{"members": ["p1"]}, {"members": ["p2"]}], "colour": 1}, "unknown field"),
])
def test_bad_positions_are_named(position: dict, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        GAME.scenario_start(2, {}, 0, position)


def test_unknown_options_and_player_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="options: variant, box"):
        GAME.new_game(2, {"speed": 1})
    with pytest.raises(ValueError, match="variant"):
        GAME.new_game(2, {"variant": "marathon"})
    with pytest.raises(ValueError, match="2..4 players"):
        GAME.new_game(5)
