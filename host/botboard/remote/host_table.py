"""The hosting table: its game session decides for every table in the room.

Inputs of seats that play at other tables (their readers, buttons, touches and
phones) arrive as proposals and go into the session as if read here, after the
room checked the seat is the proposing table's and this module checked the slot or
button is that seat's; the session's own board ignores those stations. What the
session shows goes to every table as entries, in the order it happened: LED
changes and the shared view to all, a seat's own words and view only to the table
where it sits (the room's per-table topics). The session's journal stays the game's
record; the room's entries are kept beside it (record.py) for tables catching up.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

from ..link.image import CellState
from ..session.session import GameSession, SessionError
from .events import PresenceChange, RoomChange
from .record import EntryStore
from .host_room import HostRoom
from .sequencer import Accepted, Refused
from .url import RemoteUrl
from .wire import WireError, cells_to_json, input_kind

log = logging.getLogger("botboard.remote")


class TeeBoard:
    """The session's board output, kept (the mirror of what every board shows) and passed on."""

    def __init__(self, inner: Any, on_cells: Callable[[dict[int, CellState]], None],
                 on_palette: Callable[[list[tuple[int, int, int]]], None]) -> None:
        self.inner = inner
        self.mirror: dict[int, CellState] = {}
        self._on_cells, self._on_palette = on_cells, on_palette

    def set_cells(self, changes: dict[int, CellState]) -> None:
        self.inner.set_cells(changes)
        changed = {k: v for k, v in changes.items() if self.mirror.get(k) != v}
        self.mirror.update(changed)
        if changed:
            self._on_cells(changed)

    def set_palette(self, rgb: list[tuple[int, int, int]]) -> None:
        self.inner.set_palette(rgb)
        self._on_palette(rgb)

    def set_priority(self, slots: list[int]) -> None:
        self.inner.set_priority(slots)


def merge(parts: list[tuple[Any, dict[str, Any]]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Parts of entries as one: cells and events in order, the latest view, palette, seat views."""
    public: dict[str, Any] = {}
    private: dict[str, dict[str, Any]] = {}
    for pub, priv in parts:
        _fold(public, pub)
        for table, part in priv.items():
            _fold(private.setdefault(table, {}), part)
    return public, private


def _fold(into: dict[str, Any], part: dict[str, Any]) -> None:
    for key, value in part.items():
        if key in ("cells", "events"):
            into[key] = into.get(key, []) + value
        elif key == "seat_views":
            into[key] = {**into.get(key, {}), **value}
        else:
            into[key] = value


class HostTable:
    def __init__(self, session: GameSession, url: RemoteUrl, table: str, seats: set[int],
                 store: EntryStore, **room_options: Any) -> None:
        self.session, self.url, self.table, self.store = session, url, table, store
        self.local = frozenset(seats)
        self._outbox: list[tuple[Any, dict[str, Any]]] = []  # entry parts not yet sent
        self._wake = asyncio.Event()
        self._seat_views: dict[int, Any] = {}
        self._room_options = room_options
        self.game_id = session.game_id
        self.room: HostRoom | None = None
        self._task: asyncio.Task[None] | None = None

    # -- life -------------------------------------------------------------------------
    async def start(self) -> None:
        session = self.session
        meta = self.store.meta()
        same = meta.get("room") == self.url.room and meta.get("game_id") == session.game_id
        epoch = meta.get("epoch") if same else None
        self.room = HostRoom(self.url, self.table, accept=self._accept, **self._game(), epoch=epoch,
                             last_n=self.store.last_n(epoch) if epoch else 0, record=self.store,
                             on_event=self._on_room_event, **self._room_options)
        self.store.set_meta(room=self.url.room, epoch=self.room.epoch, game_id=session.game_id)
        self._tee(session)
        await self.room.start()
        self._task = asyncio.create_task(self._send_entries(), name="remote entries")
        session._draw()  # the whole picture once: a table catching up starts from it
        self._view_entry()

    async def close(self) -> None:
        if self._task is not None:
            self._put("close", {})
            try:
                await asyncio.wait_for(self._task, 5)
            except asyncio.TimeoutError:
                self._task.cancel()
        if self.room is not None:
            await self.room.close()

    def _game(self) -> dict[str, Any]:
        """The room record's game: the session's, its seats here and the rest for other tables
        (which the session then reads from them); options without the seed, which deals what
        is hidden."""
        session = self.session
        players = session.seating.players if session.seating is not None else 0
        session.remote_seats = frozenset(range(players)) - self.local
        options = dict(session.journal.game(session.game_id).options) if session.game_id is not None else {}
        return {"game": session.game, "players": players, "seats": {self.table: sorted(self.local)},
                "claimable": sorted(session.remote_seats), "options": options, "layout": session.layout.id}

    def _tee(self, session: GameSession) -> None:
        session.board = TeeBoard(session.board, self._cells, self._palette)
        publish = session._publish

        def both(event: dict[str, Any]) -> None:
            publish(event)
            self._event(event)

        session._publish = both

    # -- what the session shows -----------------------------------------------------------------
    def _cells(self, changed: dict[int, CellState]) -> None:
        self._put({"cells": cells_to_json(changed)}, {})  # merged by _send_entries

    def _palette(self, rgb: list[tuple[int, int, int]]) -> None:
        self._put({"palette": [list(c) for c in rgb]}, {})

    def _event(self, event: dict[str, Any]) -> None:
        if event.get("kind") != "game":
            return
        if self.session.game_id != self.game_id:  # a new game at this table: a new epoch
            self.game_id = self.session.game_id
            self._put("new game", {})
        if event.get("event") == "view":
            self._view_entry()
        elif event.get("private"):
            owner = self._owner(event.get("seat"))
            if owner is not None:
                self._put({}, {owner: {"events": [event]}})
        else:
            self._put({"events": [event]}, {})

    def _view_entry(self) -> None:
        session = self.session
        if session.state is None or session.seating is None:
            return
        self._put({"view": session.view(), "stations": list(session.seating.station_of)},
                  self._changed_seat_views())

    def _changed_seat_views(self) -> dict[str, Any]:
        """The remote seats' views that changed since they were last sent, per owning table."""
        private: dict[str, Any] = {}
        for seat in sorted(self.session.remote_seats):
            owner = self._owner(seat)
            view = self.session.seat_view(seat)
            if owner is not None and self._seat_views.get(seat) != view:
                self._seat_views[seat] = view
                private.setdefault(owner, {"seat_views": {}})["seat_views"][str(seat)] = view
        return private

    def _owner(self, seat: Any) -> str | None:
        if self.room is None or self.room.record is None or not isinstance(seat, int):
            return None
        owner = self.room.record.owner(seat)
        return owner if owner != self.table else None

    async def _send_entries(self) -> None:
        """One entry for everything the session showed at once (a confirm's journal line,
        first frame and view): each entry costs a round trip to the broker per table."""
        assert self.room is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            items, self._outbox = self._outbox, []
            batch: list[tuple[Any, dict[str, Any]]] = []
            for item in items + [None]:
                if item is None or item[0] in ("new game", "close"):
                    if batch:
                        await self.room.append(*merge(batch))
                    batch = []
                    if item is not None and item[0] == "close":
                        return
                    if item is not None:
                        await self._new_epoch()
                else:
                    batch.append(item)

    def _put(self, public: Any, private: dict[str, Any]) -> None:
        self._outbox.append((public, private))
        self._wake.set()

    async def _new_epoch(self) -> None:
        assert self.room is not None
        await self.room.new_game(**self._game())
        self.store.set_meta(room=self.url.room, epoch=self.room.epoch, game_id=self.session.game_id)
        self._seat_views.clear()
        board = self.session.board
        if isinstance(board, TeeBoard):  # the new epoch starts from the whole picture
            await self.room.append({"cells": cells_to_json(board.mirror)}, {})

    # -- what other tables do -----------------------------------------------------------------
    def _accept(self, table: str, seat: int, payload: Any) -> Accepted | Refused:
        try:
            kind = input_kind(payload)
            self._apply(kind, seat, payload, table)
        except (WireError, SessionError, ValueError) as err:
            return Refused(str(err))
        # a tile read at its table changes no shared view, only its seat's: the seat's phone
        # there shows what the host read (each tile, before its player confirms)
        private = self._changed_seat_views()
        if private:
            self._put({}, private)
        return Accepted(None)  # the input itself stays with the host: what it causes is sent

    def _apply(self, kind: str, seat: int, p: dict[str, Any], table: str) -> None:
        session = self.session
        seating = session.seating
        if seating is None or session.state is None:
            raise SessionError("no game is running at the host table")
        if kind == "slot":
            ref = seating.slot(p["slot"])
            if ref is None or ref.seat != seat:
                raise SessionError(f"slot {p['slot']} is not at {session.seat_name(seat)}'s station")
            session.on_slot(p["slot"], p["state"], bytes.fromhex(p["uid"]), bytes.fromhex(p["payload"]),
                            remote=True)
        elif kind == "button":
            if seating.button(p["button"])[0] != seat:
                raise SessionError(f"button {p['button']} is not at {session.seat_name(seat)}'s station")
            session.on_button(p["button"], p["action"], remote=True)
        elif kind == "touch":
            picker = session.picker
            if picker is None or self._owner(picker.decision.player) != table:
                raise SessionError("no decision of this table's seats is waiting")
            session.on_touch(p["touch"])
        elif kind == "press":
            session.press(seat, p["press"])
        elif kind == "decide":
            session.decide(p["decide"], seat)
        else:
            session.set_control(seat, p["control"], p.get("value"))

    def _on_room_event(self, event: Any) -> None:
        if isinstance(event, RoomChange):  # a table claimed its seats: it needs their views
            self._seat_views.clear()
            self._view_entry()
        elif isinstance(event, PresenceChange) and event.role == "player":
            seats = " and ".join(self.session.seat_name(s) for s in event.seats) or "no seat"
            words = {"joined": "joined", "back": "is back", "gone": "is gone: its seats wait for it"}
            self.session.say(f"table {event.table} ({seats}) {words[event.change]}")
        # a Refusal is logged once, by the room that refused
