"""VOLT at the table: die tiles in control-unit slots, faces and keys set as the phone would.

The same style as the other games' table tests: board messages in (fake board,
fake clock), then the journal, the LEDs, the shared view and each seat's view.
"""

from __future__ import annotations

import json
from pathlib import Path

from bbshared import messages as m
from botboard.games.volt.game import GAME
from botboard.games.volt.table import leds
from botboard.games.volt.table.tiles import DieTile

from ..session.helpers import GameTable, Msg

RED, BLUE = "red", "blue"


class VoltTable(GameTable):
    def __init__(self, tmp: Path, players: int = 2) -> None:
        super().__init__(tmp, "volt", "volt")
        self.session.new_game(players, {}, 3)

    def slot(self, seat: int, pos: int) -> int:
        return self.at(seat, pos)

    def place(self, seat: int, pos: int, colour: str, owner: int | None = None, serial: int = 1) -> None:
        tile = DieTile(colour, seat if owner is None else owner, serial + pos)
        self.put(self.slot(seat, pos), *self.session.mapping.virtual_tag(tile, 1))

    def remove(self, seat: int, pos: int) -> None:
        self.take(self.slot(seat, pos))

    def program(self, seat: int, dice: list[str]) -> None:
        """Dice like "R3NE": the tile on its unit, its face and key set on the phone."""
        for pos, die in enumerate(dice):
            colour, number, key = (RED if die[0] == "R" else BLUE), int(die[1]), die[2:]
            self.place(seat, pos, colour)
            self.session.set_control(seat, f"{['I', 'II', 'III'][pos]} number", number)
            self.session.set_control(seat, f"{['I', 'II', 'III'][pos]} key", key)


def test_programs_in_confirm_order_secret_until_all_then_the_round_plays_on_the_leds(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    assert t.session.acting() == [0, 1]
    before = [r.square for r in t.session.state.robots]
    t.program(1, ["R1S", "B1W", "R1N"])
    t.press(1, "confirm")  # blue first: starting number 1, as the rules hand them out
    assert t.actions() == ["p2 program R1S B1W R1N"]
    assert t.session.state.robots[1].start_number == 1
    assert "R1S" not in t.shared_text() and "B1W" not in t.shared_text()
    assert t.session.view()["public"]["robots"]["p2"]["program"] == "hidden"
    t.program(0, ["B1N", "R1E", "B1S"])
    t.press(0, "confirm")
    assert t.actions() == ["p2 program R1S B1W R1N", "p1 program B1N R1E B1S"]
    state = t.session.state
    assert t.session.mode == "clear" and state.round == 2  # the dice come off before round 2
    assert "round 1 is over, the dice come off the units" in t.session.now(0)["text"]
    t.clear()
    assert t.session.mode == "program"
    assert [r.square for r in state.robots] != before  # the dice moved the robots
    for robot in state.robots:
        cell = t.session.bmap.to_board[leds.cell_of(state, robot.square)]
        assert t.board.cells[cell] == leds.robot_look(robot.seat, robot.killbot)


def test_a_blue_die_on_a_diagonal_key_is_refused_to_its_operator(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    t.program(0, ["R1N", "B2NE", "R1S"])
    t.press(0, "confirm")
    assert t.actions() == []
    assert "diagonal key NE" in t.session.seat_messages[0]
    assert "NE" not in json.dumps([e for e in t.published if not e.get("private")])
    assert t.alerts(), "the robot blinks"


def test_a_fourth_die_needs_ram_expansion(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    t.program(0, ["R1N", "B2E", "R1S"])
    t.place(0, 3, BLUE)
    t.press(0, "confirm")
    assert t.actions() == [] and "fourth die needs RAM EXPANSION" in t.session.seat_messages[0]
    t.remove(0, 3)
    t.press(0, "confirm")
    assert t.actions() == ["p1 program R1N B2E R1S"]


def test_three_red_dice_and_another_operators_die_are_refused(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    t.program(0, ["R1N", "R2E", "R1S"])
    t.press(0, "confirm")
    assert t.actions() == [] and "only 2 red dice" in t.session.seat_messages[0]
    t.place(0, 1, BLUE, owner=1)  # blue's die on red's unit II
    t.press(0, "confirm")
    assert t.actions() == [] and "blue's blue die: give it back" in t.session.seat_messages[0]


def test_an_empty_unit_and_an_unknown_tag_say_what_to_do(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    t.place(0, 0, RED)
    t.press(0, "confirm")
    assert "every control unit needs a die: put one on unit II, unit III" in t.session.seat_messages[0]
    t.session.on_message(Msg(m.SLOT, {"slot": t.slot(0, 1), "present": 1, "uid": b"\x04\x01\x02\x03\x04\x05\x06",
                                      "payload": b""}))
    assert "unknown tag" in t.session.seat_messages[0] and "--game volt" in t.session.seat_messages[0]


def test_changes_after_confirming_are_flagged_and_the_program_stands(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    t.program(0, ["R1N", "B2E", "R1S"])
    t.press(0, "confirm")
    t.remove(0, 1)
    assert "moved" in t.session.message and t.alerts()
    t.place(0, 1, BLUE)
    t.program(1, ["R1N", "B1W", "R1S"])
    t.press(1, "confirm")
    assert t.actions()[:2] == ["p1 program R1N B2E R1S", "p2 program R1N B1W R1S"]


def test_inventories_and_programs_stay_off_the_shared_view(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    state = GAME.scenario_start(2, {}, 3, {"robots": {"p1": {"inventory": ["crossfire"]}}})
    t.session._start(t.session.game_id or 0, state)
    assert "crossfire" not in t.shared_text()
    assert "crossfire" in json.dumps(t.session.seat_view(0))
    assert "crossfire" not in json.dumps(t.session.seat_view(1))


def test_a_decision_is_asked_of_its_operator_and_chosen_at_the_station(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    position = {"robots": {"p1": {"modules": ["crossfire"], "presets": {"crossfire": "ask"}}}}
    t.session._start(t.session.game_id or 0, GAME.scenario_start(2, {}, 3, position))
    t.program(0, ["R1N", "B1E", "R1S"])
    t.press(0, "confirm")
    t.program(1, ["R1N", "B1W", "R1S"])
    t.press(1, "confirm")
    assert t.session.mode == "decide"
    pending = t.session.seat_view(0)["pending"]
    assert pending is not None and t.session.seat_view(1)["pending"] is None
    t.press(0, "confirm")  # take the selected choice
    assert t.actions()[-1] == pending["selected"]


def test_phase_0_equipping_is_chosen_by_its_operator_and_kept(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    state = GAME.scenario_start(2, {}, 3, {"robots": {"p1": {"inventory": ["crossfire"]}}})
    t.session._start(t.session.game_id or 0, state)
    t.program(1, ["R1S", "B1W", "R1N"])
    t.press(1, "confirm")
    t.program(0, ["B1N", "R1E", "B1S"])
    t.press(0, "confirm")
    pending = t.session.seat_view(0)["pending"]
    assert pending["kind"] == "equip" and "p1 equip crossfire 2" in pending["choices"]
    assert "crossfire" not in t.shared_text()  # the inventory is red's own until equipped
    t.session.decide("p1 equip crossfire 2", seat=0)  # tapped on red's phone
    robot = t.session.state.robots[0]
    assert robot.monitor == {2: "crossfire"} and "crossfire" not in robot.inventory
    assert t.actions()[-1] == "p1 equip crossfire 2"
    assert "crossfire" in json.dumps(t.session.view()["public"]["robots"]["p1"]["modules"])  # now on show


def test_a_module_drawn_is_named_on_its_operators_phone_only() -> None:
    from botboard.games.base import Event
    from botboard.games.volt.table.mapping import VoltTable as Mapping

    drawn = Event("draw", {"robot": "p1", "module": "crossfire", "deck": "red"},
                  "p1: draws Crossfire into the inventory")
    assert Mapping().public_events([drawn]) == ["p1: draws a module from the red deck"]


def test_a_killbot_shows_where_it_faces() -> None:
    state = GAME.new_game(2, {"killbots": 1}, 3)
    bot = next(r for r in state.robots if r.killbot)
    picture = leds.picture(state)
    from botboard.games.volt.grid import step

    ahead = step(bot.square, 2 * bot.facing)
    assert picture[leds.cell_of(state, bot.square)] == leds.look("killbot")
    assert picture[leds.cell_of(state, ahead)] == leds.look("killbot", m.PULSE)
    behind = step(bot.square, (2 * bot.facing + 4) % 8)
    if state.arena.on_arena(behind):
        assert picture[leds.cell_of(state, behind)] != leds.look("killbot", m.PULSE)


def test_the_end_of_a_game_says_who_won_with_the_final_scores(tmp_path: Path) -> None:
    t = VoltTable(tmp_path)
    state = GAME.scenario_start(2, {"max_rounds": 1}, 3, {"robots": {"p2": {"vp": 2}}})
    t.session._start(t.session.game_id or 0, state)
    t.program(1, ["R1S", "B1W", "R1N"])
    t.press(1, "confirm")
    t.program(0, ["B1N", "R1E", "B1S"])
    t.press(0, "confirm")
    view = t.session.view()
    assert view["over"] and view["winner"] == ["blue"]
    assert view["result"].startswith("game over (") and "blue won; final scores red 0, blue 2" in view["result"]
