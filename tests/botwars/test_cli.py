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
