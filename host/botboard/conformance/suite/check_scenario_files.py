"""Malformed scenario files of the game end in a ScenarioError naming the field, never a
traceback: values of any kind swapped in anywhere inside its real scenarios (with hypothesis,
when it is installed: ``pip install hypothesis``), deep nesting and huge sizes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from botboard import games
from botboard.games import scenario
from botboard.games.base import GameError

EXAMPLES = 150


def _with_position(game: str) -> list[dict[str, Any]]:
    folder = games.declaration(game).scenario_folder()
    assert folder is not None, f"{game} declares no scenario folder"
    docs = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    return [d for d in docs if "position" in d][:12]


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        out += _paths(item, at + (key,))
    return out


def _replaced(doc: Any, at: tuple[Any, ...], new: Any) -> Any:
    if not at:
        return new
    copy: Any = dict(doc) if isinstance(doc, dict) else list(doc)
    copy[at[0]] = _replaced(doc[at[0]], at[1:], new)
    return copy


ODD: list[Any] = [None, True, False, 0, -1, 2**63, -2.5, 1e308, "", "x", "###", [], {}, [None], {"": 0},
       [[[]]], {"a": {"b": [1, "2"]}}, "r0c0", "p9", -0.0, 10**12]


def _check_one(path: Path, doc: dict[str, Any]) -> None:
    path.write_text(json.dumps(doc))
    try:
        loaded = scenario.load(path)
        scenario.check(loaded, scenario.run(loaded))
    except GameError as err:  # ScenarioError among them: a message, not a traceback
        assert str(err)


def test_a_value_of_any_kind_anywhere_in_a_position_is_a_scenario_error(botboard_game: str, tmp_path: Path) -> None:
    docs = _with_position(botboard_game)
    assert docs, f"{botboard_game}: no scenario with a position to damage"
    rng = random.Random(0)
    for _ in range(EXAMPLES):
        doc = rng.choice(docs)
        at = rng.choice(_paths(doc["position"]))
        _check_one(tmp_path / "broken.json", dict(doc, position=_replaced(doc["position"], at, rng.choice(ODD))))


def test_deep_nesting_and_huge_sizes_are_refused_with_the_field(tmp_path: Path, botboard_game: str) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"game": "%s", "position": ' % botboard_game + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(GameError, match="nested"):
        scenario.load(deep)
    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps({"game": botboard_game, "position": {"players": {"p1": {"vp": 999_999_999}}}}))
    with pytest.raises(GameError, match=r"position\.players\.p1\.vp: 999999999 is beyond"):
        scenario.load(huge)


def test_a_scenario_without_expect_still_fails_on_an_illegal_action(tmp_path: Path, botboard_game: str) -> None:
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps({"game": botboard_game, "actions": ["no such action ###"]}))
    doc = scenario.load(path)
    problems = scenario.check(doc, scenario.run(doc))
    assert len(problems) == 1 and "no such action ###" in problems[0], \
        f"{botboard_game}: an illegal action in a scenario was not reported: {problems}"
