"""Every scenario file in scenarios/ holds (the generic runner, botboard.games.scenario)."""

from __future__ import annotations

from pathlib import Path

import pytest
from botboard.games import scenario

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 45


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario(path: Path) -> None:
    doc = scenario.load(path)
    assert doc["game"] == "goblins"
    assert scenario.check(doc, scenario.run(doc)) == []
