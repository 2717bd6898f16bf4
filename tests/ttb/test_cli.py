"""``botboard scenario run|check`` on Twin Tin Bots files, as a user runs them (subprocess)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from ..simboard import BOTBOARD
from botboard import games

SCENARIOS = games.declaration("twin-tin-bots").scenario_folder()
MOVE = {"game": "twin-tin-bots", "title": "redA steps onto the centre",
        "position": {"crystals": {}, "robots": {"redA": {"at": "1,0", "facing": 3}},
                     "programs": {"redA": ["F1", "-", "-"]}},
        "actions": ["pass"], "expect": {"robots": {"redA": {"at": "0,0", "facing": 3}}}}


def botboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, "scenario", *args], capture_output=True, text=True, timeout=60)


def write(tmp_path: Path, name: str, doc: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_run_prints_the_result_as_json():
    done = botboard("run", str(SCENARIOS / "load-ground.json"))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "twin-tin-bots" and result["error"] is None
    assert result["state"]["robots"]["redA"]["carry"] == "green"
    assert result["state"]["crystals"] == {}
    assert [e["kind"] for e in result["events"]] == ["program", "load"]


def test_check_passes_and_fails_saying_where(tmp_path: Path):
    good = write(tmp_path, "good.json", MOVE)
    done = botboard("check", good, str(SCENARIOS / "tiebreak-green-beats-delivered.json"))
    assert done.returncode == 0, done.stderr
    assert f"ok   {good}" in done.stdout and "2 passed, 0 failed" in done.stdout
    bad = write(tmp_path, "bad.json", {**MOVE, "expect": {"robots": {"redA": {"at": "5,5", "facing": 3}},
                                                          "crystals": {"$exactly": {"0,0": "green"}}}})
    done = botboard("check", good, bad)
    assert done.returncode == 1
    assert f"FAIL {bad}" in done.stderr
    assert 'robots.redA.at: expected "5,5", got "0,0"' in done.stderr
    assert 'crystals.0,0: expected exactly "green", but there is no such field' in done.stderr
    assert "facing" not in done.stderr  # what holds is not reported
    assert "1 passed, 1 failed" in done.stdout


def test_an_illegal_action_is_reported(tmp_path: Path):
    path = write(tmp_path, "illegal.json", {**MOVE, "actions": ["pass", "B1=J"], "expect": {}})
    done = botboard("run", path)
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert error.startswith("actions[1] 'B1=J': ") and "the special order J is not in your hand" in error
    done = botboard("check", write(tmp_path, "illegal2.json", {**MOVE, "actions": ["pass", "B1=J"]}))
    assert done.returncode == 1 and "unexpected error: actions[1] 'B1=J'" in done.stderr


def test_a_malformed_file_names_the_field(tmp_path: Path):
    cases = {
        "players.json": ({**MOVE, "players": "two"}, "field 'players' should be int, got \"two\""),
        "unknown.json": ({**MOVE, "expected": {}}, "unknown field(s) expected"),
        "hex.json": ({**MOVE, "position": {"robots": {"redA": {"at": "9,9", "facing": 3}}}},
                     "position.robots.redA.at: hex 9,9 is off the arena (radius 4)"),
        "action.json": ({**MOVE, "actions": [3]}, "actions[0]: expected a string in action notation"),
    }
    paths = {name: write(tmp_path, name, doc) for name, (doc, _) in cases.items()}
    done = botboard("check", *paths.values())  # every file is checked and reported
    assert done.returncode == 2 and "0 passed, 4 failed" in done.stdout  # malformed: exit 2
    for name, (_, message) in cases.items():
        assert f"FAIL {paths[name]}" in done.stderr and message in done.stderr, name
    for name in ("players.json", "hex.json"):
        done = botboard("run", paths[name])
        assert done.returncode == 2 and done.stdout == "", name  # the command could not run it
        assert cases[name][1] in done.stderr, name
    assert "Traceback" not in done.stderr
    path = tmp_path / "broken.json"
    path.write_text('{"game": "twin-tin-bots",\n "actions": [}')
    done = botboard("check", str(path))
    assert done.returncode == 2 and "not JSON: Expecting value at line 2 column 14" in done.stderr
