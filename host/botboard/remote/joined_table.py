"""A table that joins a room: its board plays some seats of a game another table hosts.

What its board reads at its seats' stations (tiles, buttons, touches) and what its
phones send go to the host as proposals; it keeps no game state of its own. What the
host sends, it shows: LED changes on its board, the shared view and its own seats'
views in its console and on its phones (``RemoteGame`` stands where a game session
stands for the console). Entries are applied in order and kept (record.py): a
restarted table draws the game again from them, then catches up.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

from bbshared import messages as m

from ..board.layouts import Layout
from ..link.fields import census_holds
from ..session.session import SessionError
from .events import LinkChange, PresenceChange, Refusal, RoomChange
from .notice import LinkNotice
from .protocol import Entry, ProtocolError
from .record import EntryStore
from .joined_room import JoinedRoom, SpectatorRoom
from .url import RemoteUrl
from .wire import WireError, cells_from_json

log = logging.getLogger("botboard.remote")


class RemoteGame:
    """The console's window on a game hosted elsewhere: views as the host sent them; a
    seat's buttons and choices go to the host."""

    def __init__(self, table: "JoinedTable") -> None:
        self.table = table
        self.palette = "standard"
        self.think_s = 2.0
        self.state: Any = None  # the shared view once the host sent one (a game is on)
        self.seating = None
        self.seat_views: dict[int, dict[str, Any]] = {}
        self.message = "waiting for the host table"

    def view(self) -> dict[str, Any]:
        if self.state is None:
            return {"phase": "idle", "message": self.message, "remote": self.table.status()}
        return {**self.state, "remote": self.table.status()}

    def seats(self) -> list[dict[str, Any]]:
        return [s for s in (self.state or {}).get("seats", []) if s.get("seat") in self.table.own]

    def slots_here_holding(self, uid: bytes) -> list[int]:
        """This board's slots where a tag ``uid`` lies now, whoever's station they are."""
        return self.table.slots_here_holding(uid)

    def plays_here(self, seat: int) -> bool:
        return seat in self.table.own

    def seat_view(self, seat: int) -> dict[str, Any]:
        if seat not in self.table.own:
            raise ValueError(f"seat {seat + 1} plays at another table")
        view = self.seat_views.get(seat)
        if view is None:
            raise ValueError("the host table has not sent this seat's view yet")
        return view

    def unfinished(self) -> list[dict[str, Any]]:
        return []

    def press(self, seat: int, role: str) -> None:
        self.table.propose(seat, {"press": role})

    def decide(self, choice: str, seat: int | None = None) -> None:
        self.table.propose(self._mine(seat), {"decide": choice})

    def set_control(self, seat: int, name: str, value: Any) -> None:
        self.table.propose(seat, {"control": name, "value": value})

    def _mine(self, seat: int | None) -> int:
        if seat is None:
            if len(self.table.own) != 1:
                raise SessionError("say which seat decides: this table plays several")
            return next(iter(self.table.own))
        return seat

    def _hosted(self, *_: Any, **__: Any) -> None:
        raise SessionError("the host table runs this game: start, resume or undo it there")

    new_game = resume = undo = skip = set_speed = set_computers = use_palette = _hosted


class JoinedTable:
    def __init__(self, conn: Any, board: Any, layout: Layout, game: str, url: RemoteUrl, table: str,
                 seats: set[int], store: EntryStore, publish: Callable[[dict[str, Any]], None],
                 spectator: bool = False, **room_options: Any) -> None:
        self.conn, self.board, self.layout, self.url, self.table = conn, board, layout, url, table
        self.game_name = game
        self.own = frozenset(seats)
        self.store = store
        self._publish = publish
        self.game = RemoteGame(self)
        self.stations: list[int] = []  # the station of each seat, as the host seats them
        self.readings: dict[int, tuple[int, str, str]] = {}  # slot -> what this board reads
        self.reported: dict[int, tuple[int, str, str]] = {}  # slot -> what the host was told
        self.census: dict[int, tuple[int, str, str]] | None = None
        self.link_up = False
        self.tables: dict[str, str] = {}
        self._inbox: asyncio.Queue[tuple[int, dict[str, Any]] | None] = asyncio.Queue()
        meta = store.meta()
        epoch = meta.get("epoch") if meta.get("room") == url.room else None
        self.epoch = epoch
        kind = SpectatorRoom if spectator else JoinedRoom
        extra = {} if spectator else {"seats": sorted(self.own)}
        self.room = kind(url, table, epoch=epoch, last_n=store.last_n(epoch) if epoch else 0,
                         on_event=self._on_room_event, **extra, **room_options)
        self._task: asyncio.Task[None] | None = None
        self._link_notice = LinkNotice(self._say)

    async def start(self) -> None:
        if self.epoch:  # what this table showed before a restart, before catching up
            for entry in self.store.seen(self.epoch):
                self._show(entry, keep=False)
        if not isinstance(self.room, SpectatorRoom):
            self.conn.listeners.append(self.on_message)
        await self.room.start()
        self._task = asyncio.create_task(self._send_inputs(), name="remote proposals")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._link_notice.close()
        await self.room.close()

    def status(self) -> dict[str, Any]:
        return {"table": self.table, "host": self.room.record.host if self.room.record else None,
                "seats": sorted(self.own), "link": "up" if self.link_up else "down",
                "tables": dict(self.tables), "last_n": self.room.last_n}

    # -- this board's inputs -----------------------------------------------------------------
    def on_message(self, msg: Any) -> None:
        f = msg.fields
        if msg.type == m.HELLO:
            self.census = {}
        elif msg.type == m.SLOT:
            reading = (int(f["present"]), f["uid"].hex(), f["payload"].hex())
            if self.census is not None:
                self.census[f["slot"]] = reading
            else:
                self._slot(f["slot"], reading)
        elif msg.type == m.CENSUS_DONE:
            staged, self.census = self.census or {}, None
            for slot in sorted(set(staged) | set(self.readings)):
                self._slot(slot, staged[slot] if census_holds(f["present"], slot) and slot in staged
                           else (m.SLOT_EMPTY, "", ""))
        elif msg.type == m.BUTTON:
            seat = self._seat_at(self.layout.button_owner(f["button"])[0])
            if seat is not None:
                self.propose(seat, {"button": f["button"], "action": f["action"]})
        elif msg.type == m.TOUCH and self.own:
            self.propose(min(self.own), {"touch": f["cell"]})

    def slots_here_holding(self, uid: bytes) -> list[int]:
        """This board's slots where a tag ``uid`` lies now, whoever's station they are."""
        return [slot for slot, (state, held, _) in self.readings.items() if state and held == uid.hex()]

    def _slot(self, slot: int, reading: tuple[int, str, str]) -> None:
        self.readings[slot] = reading
        self._tell_host(slot)

    def _tell_host(self, slot: int) -> None:
        """A slot of this table's seats: the host is told when it reads otherwise than told."""
        reading = self.readings.get(slot, (m.SLOT_EMPTY, "", ""))
        seat = self._seat_at(self.layout.slot_owner(slot)[0])
        if seat is None or self.reported.get(slot, (m.SLOT_EMPTY, "", "")) == reading:
            return
        self.reported[slot] = reading
        state, uid, payload = reading
        self.propose(seat, {"slot": slot, "state": state, "uid": uid, "payload": payload})

    def _seat_at(self, station: int) -> int | None:
        return next((s for s in self.own if s < len(self.stations) and self.stations[s] == station), None)

    def propose(self, seat: int, payload: dict[str, Any]) -> None:
        """Sent to the host in the order the table did it (answers come back as entries)."""
        if seat not in self.own:
            raise SessionError(f"seat {seat + 1} plays at another table")
        self._inbox.put_nowait((seat, payload))

    async def _send_inputs(self) -> None:
        """Each input goes out as it comes, without waiting for the answers before it (a late
        one must not hold up the next: the host keeps the order, joined_room.py sends again)."""
        while (item := await self._inbox.get()) is not None:
            try:
                answer = self.room.submit(*item)
            except ProtocolError as err:
                log.warning("remote: not sent: %s", err)
                continue
            answer.add_done_callback(self._answered)

    def _answered(self, answer: "asyncio.Future[Any]") -> None:
        if not answer.cancelled() and answer.exception() is None and not answer.result().ok:
            self._say(f"the host refused: {answer.result().reason}")

    # -- what the host sends ------------------------------------------------------------------
    def _on_room_event(self, event: Any) -> None:
        if isinstance(event, Entry):
            self._show(event, keep=True)
        elif isinstance(event, RoomChange):
            record = event.record
            if record.game != self.game_name or (record.layout or self.layout.id) != self.layout.id:
                self._say(f"the host table plays {record.game} on layout {record.layout}, this table "
                          f"{self.game_name} on {self.layout.id}: restart it with --game {record.game} "
                          f"--layout {record.layout}")
            if event.new_epoch:
                self.epoch = event.record.epoch
                self.store.set_meta(room=self.url.room, epoch=event.record.epoch)
                self.game.seat_views.clear()
            self._resend_station()
        elif isinstance(event, PresenceChange):
            self.tables[event.table] = "gone" if event.change == "gone" else "here"
            if event.role in ("host", "player"):
                self._say(f"table {event.table} {'is gone' if event.change == 'gone' else event.change}")
        elif isinstance(event, LinkChange):
            self.link_up = event.up
            self._link_notice.change(event.up, event.error)
        elif isinstance(event, Refusal):  # logged once, by the room that refused
            if event.key:  # nothing of the room can be read: the players must hear why
                self._say(f"this table cannot read the room {self.url.room}: {event.reason.split(': ', 1)[-1]}")

    def _resend_station(self) -> None:
        """A host that (re)started, or seats that moved, and the host is told the slots again."""
        self.reported.clear()
        for slot in sorted(self.readings):
            self._tell_host(slot)

    def _show(self, entry: Entry, keep: bool) -> None:
        public, private = entry.public or {}, entry.private or {}
        try:
            if "cells" in public:
                self.board.set_cells(cells_from_json(public["cells"], len(self.layout.cells)))
            if "palette" in public:
                self.board.set_palette([tuple(c) for c in public["palette"]])
        except (WireError, TypeError, ValueError) as err:
            log.warning("remote: entry %d: %s", entry.n, err)
        if keep:  # after the LEDs: a write (now and then a checkpoint's sync) never holds them back;
            self.store.add_seen(entry)  # an entry lost to a crash in between is caught up again
        if "view" in public:
            self.game.state = public["view"]
            stations = public.get("stations")
            if isinstance(stations, list) and stations != self.stations:
                self.stations = stations
                self._resend_station()
        for seat, view in (private.get("seat_views") or {}).items():
            self.game.seat_views[int(seat)] = view
        events = list(public.get("events") or []) + list(private.get("events") or [])
        if not keep:
            return
        for event in events:
            self._publish(event)
        if "view" in public or private.get("seat_views"):
            self._publish({"kind": "game", "event": "view", "view": self.game.view(), "seat": None,
                           "private": False})

    def _say(self, text: str) -> None:
        self.game.message = text
        self._publish({"kind": "game", "event": "message", "text": text, "seat": None, "private": False})
