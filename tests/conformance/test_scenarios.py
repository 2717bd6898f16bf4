"""Every game ships scenarios, and every scenario of every game holds (`botboard scenario check`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from botboard import games
from botboard.games import scenario


def _files() -> list[tuple[str, Path]]:
    out = []
    for name in games.names():
        folder = games.declaration(name).scenario_folder()
        out += [(name, path) for path in sorted(folder.glob("*.json"))] if folder else []
    return out


@pytest.mark.parametrize("name", games.names())
def test_the_game_ships_scenarios_with_expectations(name: str) -> None:
    folder = games.declaration(name).scenario_folder()
    assert folder is not None and folder.is_dir(), f"{name}: declare scenarios=\"FOLDER\" and put some there"
    files = sorted(folder.glob("*.json"))
    assert files, f"{name}: no scenario in {folder}"
    assert any("position" in scenario.load(p) for p in files), f"{name}: no scenario starts from a position"


FILES = _files()


@pytest.mark.parametrize("name,path", FILES, ids=[f"{n}:{p.stem}" for n, p in FILES])
def test_scenario_holds(name: str, path: Path) -> None:
    doc = scenario.load(path)
    assert games.canonical(doc["game"]) == name
    assert doc.get("expect"), "a scenario in the suite must expect something"
    assert scenario.check(doc, scenario.run(doc)) == []
