"""Test doubles: a board that records cell states, hands that place tiles, a clock."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bbshared import messages as m
from botboard.board import layouts
from botboard.link.image import CellState
from botboard.session.journal import Journal
from botboard.session.session import GameSession
from botboard.games.twintinbots.table.tiles import Tile, make_tile, payload, virtual_uid


class FakeBoard:
    def __init__(self) -> None:
        self.cells: dict[int, CellState] = {}
        self.palette: list[tuple[int, int, int]] = []
        self.priority: list[int] = []
        self.updates = 0

    def set_cells(self, changes: dict[int, CellState]) -> None:
        self.cells.update(changes)
        self.updates += 1

    def set_palette(self, rgb: list[tuple[int, int, int]]) -> None:
        self.palette = rgb

    def set_priority(self, slots: list[int]) -> None:
        self.priority = slots


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, s: float = 1.0) -> None:
        self.t += s


@dataclass
class Msg:
    type: int
    fields: dict[str, Any]


class Table:
    """Drives a session as hands would, through on_message."""

    def __init__(self, tmp: Path, layout: str = "ttb-small") -> None:
        self.clock = Clock()
        self.board = FakeBoard()
        self.journal = Journal.in_dir(tmp)
        self.layout = layouts.load(layout)
        self.session = GameSession(self.layout, self.journal, self.board, step_s=0,
                                   clock=self.clock)

    def slot(self, seat: int, name: str) -> int:
        assert self.session.seating is not None
        return self.session.seating.physical(seat, 3 * "AB".index(name[0]) + int(name[1]) - 1)

    def place(self, seat: int, name: str, tile: Tile | str, serial: int = 1) -> None:
        if isinstance(tile, str):
            kind, _, colour = tile.partition("/")
            tile = make_tile(kind, colour or None)
        self.session.on_message(Msg(m.SLOT, {"slot": self.slot(seat, name), "present": 1,
                                             "uid": virtual_uid(tile, serial),
                                             "payload": payload(tile, serial)}))
        self.clock.advance(0.01)

    def remove(self, seat: int, name: str) -> None:
        self.session.on_message(Msg(m.SLOT, {"slot": self.slot(seat, name), "present": 0,
                                             "uid": b"", "payload": b""}))
        self.clock.advance(0.01)

    def press(self, seat: int, role: str, action: int = m.PRESS) -> None:
        assert self.session.seating is not None
        self.clock.advance(1.0)  # hands are slow: the slots have settled
        button = self.session.seating.button_of(seat, role)
        self.session.on_message(Msg(m.BUTTON, {"button": button, "action": action}))

    def first_turns(self) -> None:
        """Red then blue program their first turn (track 0 of a two-player game)."""
        self.place(0, "A1", "F1/red")
        self.place(0, "B1", "L/red")
        self.press(0, "confirm")
        self.place(1, "A1", "R/blue")
        self.place(1, "B1", "F2/blue")
        self.press(1, "confirm")

    def reconnect(self, taken: tuple[str, ...] = ()) -> None:
        """The board comes back: HELLO, then its census of what the slots hold
        (``taken``: a seat's slots, as "0A1", emptied while it was away)."""
        gone = {self.slot(int(name[0]), name[1:]) for name in taken}
        self.session.on_link_state("handshake")
        self.session.on_message(Msg(m.HELLO, {}))
        present = bytearray(8)
        for slot, reading in sorted(self.session.table.contents().items()):
            if slot not in gone:
                present[slot >> 3] |= 1 << (slot & 7)
                self.session.on_message(Msg(m.SLOT, {"slot": slot, "present": 1, "uid": reading.uid,
                                                     "payload": reading.payload}))
        self.session.on_message(Msg(m.CENSUS_DONE, {"present": bytes(present)}))
        self.session.on_link_state("connected")
        self.clock.advance(0.01)


class GameTable:
    """Any table game's session on a fake board and clock: the hands every game's tests share."""

    def __init__(self, tmp: Path, game: str, layout: str, step_s: float = 0) -> None:
        self.clock = Clock()
        self.board = FakeBoard()
        self.journal = Journal.in_dir(tmp)
        self.published: list[dict[str, Any]] = []
        self.session = GameSession(layouts.load(layout), self.journal, self.board, step_s=step_s,
                                   clock=self.clock, game=game, publish=self.published.append)

    def at(self, seat: int, pos: int) -> int:
        """The physical slot of a seat's ``pos``-th slot (0-based)."""
        assert self.session.seating is not None
        return self.session.seating.physical(seat, pos)

    def put(self, slot: int, uid: bytes, payload: bytes) -> None:
        self.session.on_message(Msg(m.SLOT, {"slot": slot, "present": 1, "uid": uid, "payload": payload}))
        self.clock.advance(0.01)

    def take(self, slot: int) -> None:
        self.session.on_message(Msg(m.SLOT, {"slot": slot, "present": 0, "uid": b"", "payload": b""}))
        self.clock.advance(0.01)

    def press(self, seat: int, role: str) -> None:
        assert self.session.seating is not None
        self.clock.advance(1.0)  # hands are slow: the slots have settled
        button = self.session.seating.button_of(seat, role)
        self.session.on_message(Msg(m.BUTTON, {"button": button, "action": m.PRESS}))

    def actions(self) -> list[str]:
        return [a["action"] for a in self.journal.actions(self.session.game_id or 0)]

    def clear(self) -> None:
        """Hands take every tile off the stations (a round boundary asks for it)."""
        for slot in sorted(self.session.table.contents()):
            self.take(slot)

    def alerts(self) -> list[int]:
        alert = self.session.mapping.palette_index["alert"]
        return [i for i, c in self.board.cells.items() if c.palette == alert and c.effect == m.BLINK]

    def shared_text(self) -> str:
        """Everything the shared view and the table may read: view and public events."""
        public = [e for e in self.published if not e.get("private")]
        return json.dumps(self.session.view()) + json.dumps(public)
