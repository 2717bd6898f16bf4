"""Malformed scenario files of every game end in a ScenarioError naming the field, never a
traceback: hypothesis swaps values anywhere inside real scenarios for values of any kind (the
conformance suite's check_scenario_files does it from a fixed list, without hypothesis)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from botboard import games
from botboard.games import scenario
from botboard.games.base import GameError

from ..fuzz.damage import paths_in, replaced


def _with_position(game: str) -> list[dict[str, Any]]:
    folder = games.declaration(game).scenario_folder()
    assert folder is not None, f"{game} declares no scenario folder"
    docs = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    return [d for d in docs if "position" in d][:12]


ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8)


@pytest.mark.parametrize("folder", games.names())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_value_of_any_kind_anywhere_in_a_position_is_a_scenario_error(
        folder: str, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory) -> None:
    docs = _with_position(folder)
    assert docs, folder  # the game has scenarios with positions: the test could fail
    doc = data.draw(st.sampled_from(docs))
    at = data.draw(st.sampled_from(paths_in(doc["position"])))
    broken = dict(doc, position=replaced(doc["position"], at, data.draw(ANY_JSON)))
    path = tmp_path_factory.mktemp("fuzz") / "broken.json"
    path.write_text(json.dumps(broken))
    try:
        loaded = scenario.load(path)
        scenario.check(loaded, scenario.run(loaded))
    except GameError as err:  # ScenarioError among them: a message, not a traceback
        assert str(err)  # words, whatever the value


@settings(max_examples=60, deadline=None)
@given(raw=st.binary(max_size=64) | st.text(max_size=64).map(lambda t: t.encode("utf-16")))
def test_bytes_that_are_not_a_scenario_are_said_to_be_so(raw: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("raw") / "raw.json"
    path.write_bytes(raw)
    try:
        doc = scenario.load(path)
    except GameError as err:
        assert str(err).startswith(str(path))
        return
    scenario.check(doc, scenario.run(doc))  # the rare bytes that are a scenario run
