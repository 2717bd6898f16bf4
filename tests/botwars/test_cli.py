from __future__ import annotations

import json
from pathlib import Path

import pytest

from botboard.cli import main

SCENARIOS = Path(__file__).parent / "scenarios"


def test_board_command_prints_the_rendering(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["botwars", "board", "factory"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Factory floor (12x12, every element)")
    assert "r12 #W2" in out and "laser red at r12c9 firing S" in out


def test_report_command_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SCENARIOS / "teleporter.json")
    assert main(["botwars", "report", path]) == 0
    assert "teleport to r5c2" in capsys.readouterr().out
    assert main(["botwars", "report", path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turns"][0]["stages"][0]["rows"]["outcome"]["p1"][:2] == ["move to r2c2", "teleport to r5c2"]


def test_errors_are_clear(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["botwars", "board", "nowhere"]) == 2
    assert "unknown board 'nowhere'" in capsys.readouterr().err
    assert main(["botwars", "report", "game-42"]) == 2
    assert "no such scenario file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "botwars", "position": {"robots": {"p9": {}}}, "actions": []}))
    assert main(["botwars", "report", str(bad)]) == 2
    assert "'p9' is not a player" in capsys.readouterr().err


def test_a_bad_board_file_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    import subprocess

    from ..simboard import BOTBOARD

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "bad", "size": [4, 4], "start": "r1c1", "flags": ["r4c4"], "squares": {
        "r2c2": {"type": "gear", "turn": "X"}, "r2c4": {"type": "conveyor", "colour": "purple", "dir": "Q"}}}))
    run = subprocess.run([BOTBOARD, "botwars", "board", str(bad)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == ""
    assert "Traceback" not in run.stderr
    assert "board bad: 3 problems:" in run.stderr
    assert "squares.r2c4: conveyor dir 'Q' is not valid; expected N, E, S or W" in run.stderr
    assert "squares.r2c4: conveyor colour 'purple' is not valid; expected blue or yellow" in run.stderr
    bad.write_text("[1, 2]")
    run = subprocess.run([BOTBOARD, "botwars", "board", str(bad)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "board: expected a JSON object" in run.stderr and "Traceback" not in run.stderr
