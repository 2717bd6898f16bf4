"""Recorded events read, compare, copy and pickle as the plain events they stand for."""

from __future__ import annotations

import copy
import pickle

from botboard.games.base import Event
from botboard.games.botwars.events import Recorded, said

from .helpers import play, position


def _moved(square: str, time: int) -> tuple[str, dict[str, object]]:
    return f"move to {square}", {"square": square, "time": time}


def test_a_recorded_event_is_made_from_its_values_when_read() -> None:
    event = Recorded("move", (3, 2, "move", "p1"), _moved, ("r4c5", 610))
    plain = Event("move", {"turn": 3, "stage": 2, "step": "move", "robot": "p1", "square": "r4c5", "time": 610},
                  "p1: move to r4c5")
    assert (event.kind, event.data, event.text) == (plain.kind, plain.data, plain.text)
    assert event == plain and plain == event
    assert event != Recorded("move", (3, 2, "move", "p1"), _moved, ("r4c6", 610))
    assert event.to_json() == plain.to_json()
    assert repr(event) == repr(plain).replace("Event(", "Recorded(", 1)


def test_copies_and_pickles_are_plain_events() -> None:
    event = Recorded("deal", (1, 0, "program", None), said, ("turn 1: cards dealt", {"hands": {"p1": 9}}))
    for twin in (copy.copy(event), copy.deepcopy(event), pickle.loads(pickle.dumps(event))):
        assert type(twin) is Event
        assert twin == event
    assert event.text == "turn 1: cards dealt"  # no robot: no name before the words


def test_a_stage_records_its_events_and_reads_them_alike() -> None:
    state = position({"p1": {"square": "r1c1", "facing": "N", "mode": "real",
                             "hand": ["FWD2:670", "RT90:080", "LF90:070", "UTRN:010", "FWD1:490"]}})
    _, events = play(state, "p1 program FWD2:670 RT90:080 LF90:070 UTRN:010 FWD1:490")
    moves = [e for e in events if e.kind == "move"]
    # north two squares; right, left and a U-turn leave it facing south: one square back
    assert [e.data["square"] for e in moves] == ["r2c1", "r3c1", "r2c1"]
    assert moves[0].text == "p1: move to r2c1" and moves[0].data["stage"] == 1
    assert all(isinstance(e, Recorded) for e in events)
