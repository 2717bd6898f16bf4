"""Box files: the placeholder is marked as such; a user's file gets errors that say what to fix."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest
from botboard.games.goblins.game import GAME
from botboard.games.goblins.tiles import DATA, BoxError, box_from_json, load_box, main

PLACEHOLDER = json.loads((DATA / "boxes" / "placeholder.json").read_text())


def test_placeholder_box_is_marked_and_matches_the_known_counts() -> None:
    box = load_box("placeholder")
    assert box.placeholder
    types = [t.type for t in box.tiles.values()]
    assert len(types) == 60
    assert (types.count("weapon"), types.count("armor"), types.count("engine"), types.count("decoration")) == \
        (33, 9, 9, 9)
    assert len(box.tactics) == 24 and len(box.blueprints) == 8
    assert GAME.observe(GAME.new_game(2))["placeholder_box"] is True


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        for key in path[:-1]:
            doc = doc[key]
        doc[path[-1]] = value
    return change


def _cut_tiles(doc: dict[str, Any]) -> None:
    del doc["tiles"][30:]


@pytest.mark.parametrize("change,message", [
    (_set(("tiles", 0, "type"), "laser"), "'type' must be one of"),
    (_set(("tiles", 0, "arrows"), ""), "weapon tiles have arrows"),
    (_set(("tiles", 55, "metal"), "NES"), "decoration tiles have metal on all four edges"),
    (_set(("tiles", 0, "metal"), "NN"), "listed twice"),
    (_set(("tiles", 1, "id"), 1), "id 1 is used twice"),
    (_set(("tiles", 0, "arrows"), "X"), "edge letters"),
    (_set(("blueprints", 0, "blocked"), ["r3c3", "r1c1", "r1c2", "r1c3"]), "other than the cockpit"),
    (_set(("blueprints", 0, "blocked"), ["r1c1"]), "4 different squares"),
    (_set(("tactics", 0, "abilities"), ["teleport"]), "'abilities' must list"),
    (_set(("yard_numbers", "N"), [1, 1, 2, 3, 4]), "yard_numbers.N"),
    (_cut_tiles, "two robots need at least 40"),
    (_set(("format",), "other"), "'format' must be"),
])
def test_mistakes_in_a_box_file_are_named(change: Callable[[dict[str, Any]], None], message: str) -> None:
    doc = copy.deepcopy(PLACEHOLDER)
    change(doc)
    with pytest.raises(BoxError, match=message):
        box_from_json(doc, "my-box")


def test_a_users_box_file_is_used_by_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = copy.deepcopy(PLACEHOLDER)
    doc.update(name="my box", placeholder=False)
    doc["blueprints"] = [{"name": "octozoid", "blocked": ["r1c2", "r1c4", "r5c2", "r5c4"]}]
    path = tmp_path / "my-box.json"
    path.write_text(json.dumps(doc))
    state = GAME.new_game(2, {"box": str(path)})
    view = GAME.observe(state)
    assert view["placeholder_box"] is False
    assert view["robots"][0]["blocked"] == ["r1c2", "r1c4", "r5c2", "r5c4"]
    assert main(["check", str(path)]) == 0
    assert "ok:" in capsys.readouterr().out


def test_the_checker_reports_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    assert main(["check", str(path)]) == 1
    assert "not JSON" in capsys.readouterr().out
    with pytest.raises(BoxError, match="no such shipped box"):
        load_box(str(tmp_path / "missing.json"))
