"""Defense tokens running out while they are placed: the robots take turns plate by plate and
the table is told which plates stay bare (a box of another edition holds fewer tokens)."""

from __future__ import annotations

import json
from pathlib import Path

from botboard.games.goblins.game import GAME
from botboard.games.goblins.tiles import DATA


def _box(tmp: Path, tokens: int) -> str:
    doc = json.loads((DATA / "boxes" / "placeholder.json").read_text())
    doc["defense_tokens"] = tokens
    path = tmp / "few-tokens.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_a_short_supply_is_shared_plate_by_plate_and_the_bare_plates_are_named(tmp_path: Path) -> None:
    position = {"stage": "agendas", "robots": [
        {"members": ["p1"], "yard": {"r3c2": "t34 N", "r3c4": "t35 N", "r2c3": "t36 N", "r4c3": "t37 N"}},
        {"members": ["p2"], "yard": {"r2c3": "t40 N", "r3c2": "t41 N", "r3c4": "t42 S", "r4c3": "t39 N"}}]}
    state = GAME.scenario_start(2, {"box": _box(tmp_path, 5)}, 0, position)
    events = []
    while state.queue and state.queue[0][1] == "agendas":
        state, new = GAME.apply(state, GAME.legal_actions(state)[0])
        events += new
    assert [len(r.tokens) for r in state.robots] == [3, 2]  # A1 B1 A2 B2 A3: five tokens in turn
    short = {e.data["team"]: e for e in events if e.kind == "defense-short"}
    assert short[0].data["plates"] == ["r4c3 N"]  # robot A's fourth plate, in square order
    assert len(short[1].data["plates"]) == 5 and "the defense tokens ran out" in short[1].text
    assert GAME.observe(state)["defense_supply"] == 0


def test_enough_tokens_cover_every_plate_and_nobody_is_told_anything(tmp_path: Path) -> None:
    position = {"stage": "agendas", "robots": [
        {"members": ["p1"], "yard": {"r3c2": "t34 N"}}, {"members": ["p2"], "yard": {"r3c2": "t35 N"}}]}
    state = GAME.scenario_start(2, {"box": _box(tmp_path, 16)}, 0, position)
    events = []
    while state.queue and state.queue[0][1] == "agendas":
        state, new = GAME.apply(state, GAME.legal_actions(state)[0])
        events += new
    assert [len(r.tokens) for r in state.robots] == [1, 1]
    assert not [e for e in events if e.kind == "defense-short"]
