"""Every game ships scenarios, and every scenario of every game holds (`botboard scenario check`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from botboard import games
from botboard.games import scenario


def _files(name: str) -> list[tuple[str, Path]]:
    folder = games.declaration(name).scenario_folder()
    return [(f":{path.stem}", path) for path in sorted(folder.glob("*.json"))] if folder else []


def test_the_game_ships_scenarios_with_expectations(botboard_game: str) -> None:
    name = botboard_game
    folder = games.declaration(name).scenario_folder()
    assert folder is not None and folder.is_dir(), f"{name}: declare scenarios=\"FOLDER\" and put some there"
    files = sorted(folder.glob("*.json"))
    assert files, f"{name}: no scenario in {folder}"
    assert any("position" in scenario.load(p) for p in files), f"{name}: no scenario starts from a position"


@pytest.mark.botboard_cases("path", _files)
def test_scenario_holds(botboard_game: str, path: Path) -> None:
    doc = scenario.load(path)
    assert games.canonical(doc["game"]) == botboard_game, f"{path}: its game is {doc['game']!r}"
    assert doc.get("expect"), f"{path}: a scenario in the suite must expect something"
    problems = scenario.check(doc, scenario.run(doc))
    assert problems == [], f"{path}: " + "; ".join(problems)
