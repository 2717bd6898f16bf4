"""The turn report: stage tables built from events, the end-of-turn table, text and JSON."""

from __future__ import annotations

import json

from botboard import games
from botboard.games import scenario
from botboard.games.botwars import report
from botboard.games.botwars.game import GAME

SCENARIOS = games.declaration("botwars").scenario_folder()


def _report(name: str) -> dict:
    doc = scenario.load(SCENARIOS / f"{name}.json")
    start = GAME.scenario_start(doc["players"], doc["options"], doc["seed"], doc.get("position"))
    return report.build(start, doc["actions"])


def test_stage_rows_follow_the_rules_table() -> None:
    data = _report("priority-and-push")
    stage = data["turns"][0]["stages"][0]
    rows = stage["rows"]
    assert list(rows) == list(report.STAGE_ROWS)
    assert rows["mode"] == {"p1": "real", "p2": "real"}
    assert rows["card"] == {"p1": "FWD1:490", "p2": "FWD2:670"}
    # p1 is pushed (into the fence) before its own card: that comes first in its column
    assert rows["outcome"]["p1"] == ["-2 HP (electric fence)", "move to r1c2"]
    assert rows["outcome"]["p2"] == ["move to r1c2", "obstruction encountered", "pushed at 490 to r1c3"]
    assert rows["laser"]["p1"] == ["r1c3", "p2", "-1 HP (laser of p2)"]  # squares, then who was hit
    assert rows["hp"] == {"p1": "7", "p2": "9"}


def test_fused_registers_and_end_table() -> None:
    data = _report("priority-and-push")
    turn = data["turns"][0]
    assert "register 5 fused (RT90:100)" in turn["stages"][4]["rows"]["outcome"]["p1"] + turn["stages"][4]["rows"]["laser"]["p1"]
    end = turn["end"]
    assert end["rows"]["hp"] == {"p1": "5", "p2": "7"}
    assert end["rows"]["robots"] == {"p1": "3", "p2": "3"}
    assert end["fused"] == {"p1": {"5": "RT90:100"}}


def test_board_elements_and_checkpoints_have_their_rows() -> None:
    rows = _report("conveyor-blue")["turns"][0]["stages"][0]["rows"]
    assert rows["board"]["p1"] == ["conveyor to r2c2", "conveyor to r2c3, face S"]
    flag = _report("flag-repair")["turns"][0]
    assert flag["stages"][0]["rows"]["checkpoint"]["p1"] == ["checkpoint r6c6", "flag 1 touched"]
    assert flag["end"]["rows"]["end"]["p1"] == ["repair +1 HP (flag)"]
    assert flag["end"]["rows"]["flags"] == {"p1": "1"}


def test_destruction_and_reinstatement_are_reported() -> None:
    turn = _report("fence-death-reinstate")["turns"][0]
    assert "destroyed (electric fence); 2 robots left" in turn["stages"][0]["rows"]["outcome"]["p1"]
    assert turn["stages"][1]["rows"]["mode"] == {"p1": "destroyed"}
    assert turn["end"]["rows"]["end"]["p1"] == ["reinstated at r3c3 facing E"]


def test_text_and_json_forms() -> None:
    data = _report("push-chain")
    text = report.to_text(data)
    assert "== Turn 1, stage 1 ==" in text and "== Turn 1, end of turn ==" in text
    assert "pushed at 790 to r1c4" in text and "obstruction encountered" in text
    assert "| laser      | r1c4 " in text
    assert "| outcome" in text and "r1  #1> 2^ 3^" in text  # the table, and robots on the picture
    assert json.loads(json.dumps(data)) == data


def test_report_of_an_unfinished_turn_names_who_is_missing() -> None:
    doc = scenario.load(SCENARIOS / "push-chain.json")
    start = GAME.scenario_start(doc["players"], doc["options"], doc["seed"], doc.get("position"))
    data = report.build(start, doc["actions"][:1])
    assert data["turns"] == [] and data["waiting_for"] == ["p2", "p3"]
    assert "waiting for programs from p2, p3" in report.to_text(data)


def test_the_first_line_names_players_and_robot_colours() -> None:
    data = _report("push-chain")
    assert data["colours"] == {"p1": "red", "p2": "blue", "p3": "green"}  # data/colours.json, in order
    lines = report.to_text(data).splitlines()
    heads = [lines[i + 1] for i, line in enumerate(lines) if line.startswith("+-") and (i == 0 or not
             lines[i - 1].startswith("|"))]  # the first line of every table
    assert len(heads) == 6  # 5 stages and the end of turn
    for head in heads:
        assert [cell.strip() for cell in head.strip("|").split("|")] == ["", "p1 (red)", "p2 (blue)", "p3 (green)"]


def test_the_players_own_colours_come_from_the_option() -> None:
    doc = scenario.load(SCENARIOS / "push-chain.json")
    options = {**doc["options"], "colours": ["silver", "gold", "teal"]}
    start = GAME.scenario_start(doc["players"], options, doc["seed"], doc.get("position"))
    text = report.to_text(report.build(start, doc["actions"]))
    assert "| p1 (silver) " in text and "| p3 (teal) " in text and "(red)" not in text
    again = GAME.state_from_json(GAME.state_to_json(start))
    assert [p.colour for p in again.players] == ["silver", "gold", "teal"]
