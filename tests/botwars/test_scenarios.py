"""The scenario suite covers the rules (every file is checked by tests/conformance/test_scenarios.py)."""

from __future__ import annotations



from botboard import games

FILES = sorted(games.declaration("botwars").scenario_folder().glob("*.json"))


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 50
