"""Board input: what the hands do at the table, turned into the session's calls.

A part of ``GameSession`` (session.py) with one job: the board's messages (tags
arriving in and leaving slots, buttons, touches, a board that says hello) and
the seat views' presses, each sent where the session's mode says: the
acknowledgement of a tile laid, a confirm, a cancel, a station's setting, the
next choice of a pending decision, the animation's speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from bbshared import messages as m

from .hints import slot_words
from .mapping import TileError
from .table import DOUBLE_WINDOW_S, FLICKER_WINDOW_S, TROUBLE

if TYPE_CHECKING:
    from .boardmap import BoardMap
    from .explanations import FirstTimes
    from .mapping import TableMapping
    from .picker import Picker
    from .seating import Seating
    from .table import Table

ACK_S = 0.4  # a tile read shows on its robot this long


class SessionError(ValueError):
    """A request the session cannot do now; the message says why."""


class TableInputs:
    if TYPE_CHECKING:  # what it reads and sets of the session (session.py sets them)
        state: Any
        mode: str
        seating: Seating | None
        mapping: TableMapping[Any]
        table: Table
        bmap: BoardMap | None
        picker: Picker | None
        clock: Callable[[], float]
        confirmed: dict[int, tuple[str, list[bytes | None]]]
        awaiting: dict[int, Any]
        seat_messages: dict[int, Any]
        station_words: dict[int, str]
        acks: dict[tuple[int, int], float]
        held: dict[int, int]
        controls: dict[int, dict[str, Any]]
        first_times: FirstTimes
        _census: Any
        animation: Any

        def acting(self) -> list[int]: ...
        def seat_name(self, seat: int) -> str: ...
        def say(self, text: str, seat: int | None = None) -> None: ...
        def _tell(self, seat: int, text: str) -> None: ...
        def _say_private(self, seat: int, text: str, others: str) -> None: ...
        def _draw(self) -> None: ...
        def _schedule(self, delay: float, func: Callable[[], None]) -> None: ...
        def _check_table(self) -> None: ...
        def _publish_view(self) -> None: ...
        def _check_seat(self, seat: int) -> None: ...
        def _prioritise(self, force: bool = False) -> None: ...
        def _hold(self, button: int) -> None: ...
        def _show_scores(self) -> None: ...
        def _take_slot(self, slot: int, state: int, uid: bytes, payload: bytes) -> None: ...
        def _census_done(self, present: bytes) -> None: ...
        def _note_local(self, slot: int, state: int, uid: bytes, payload: bytes) -> None: ...
        def _read_here(self, seat: int | None, remote: bool) -> bool: ...
        def _next_table_speed(self, seat: int) -> None: ...
        def clear_words(self, seat: int, public: bool = False) -> str: ...
        clearing: dict[int, set[int]]
        def confirm(self, seat: int | None = None) -> None: ...
        def decide(self, choice: str, seat: int | None = None) -> None: ...
        def skip(self) -> None: ...

    def on_message(self, msg: Any) -> None:
        """Listener for BoardConnection: decoded messages from the board."""
        f = msg.fields
        if msg.type == m.HELLO:
            self._census = {}  # the census that follows says what the slots hold
            self._prioritise(force=True)
            if self.mode == "animate":
                self.animation.skip()  # a board back from an unplug shows the state now
        elif msg.type == m.SLOT:
            self._take_slot(f["slot"], f["present"], f["uid"], f["payload"])
        elif msg.type == m.CENSUS_DONE:
            self._census_done(f["present"])
        elif msg.type == m.BUTTON:
            self.on_button(f["button"], f["action"])
        elif msg.type == m.TOUCH:
            self.on_touch(f["cell"])
        elif msg.type == m.ERROR and f["code"] == m.E_BUTTON_STUCK:
            self.say(f"a button is stuck down (board key {f['ref']}): free it; it does nothing "
                     "while held")
            self._hold(f["ref"])

    def on_slot(self, slot: int, state: int, uid: bytes, payload: bytes, remote: bool = False) -> None:
        """A slot's reading (SLOT): ``state`` m.SLOT_EMPTY, SLOT_TAG, or a trouble that keeps
        it from counting (SLOT_UNREADABLE, SLOT_SEVERAL); True and False stand for the first two.
        ``remote``: read at the table where the slot's seat plays (remote play); this board's
        own slot of that station is empty and says nothing."""
        if not remote:
            self._note_local(slot, state, uid, payload)
        ref = self.seating.slot(slot) if self.seating is not None else None
        if not self._read_here(ref.seat if ref is not None else None, remote):
            return
        now = self.clock()
        present, trouble = bool(state), TROUBLE.get(int(state), "")
        if not self.table.update(slot, present, uid, payload, now, trouble):
            return
        self._prioritise()
        if self.state is None or self.seating is None:
            return
        ref = self.seating.slot(slot)
        if ref is None:
            if present:
                self.say(f"a tag was read on the {self.seating.station_name(slot)} station, where "
                         "nobody plays: take it away")
            return
        where = f"{self.seat_name(ref.seat)} {slot_words(self.mapping.slot_name(self.state, ref.pos))}"
        acting = ref.seat in self.acting()
        if trouble:
            self.say(f"{where}: {trouble}", ref.seat)
        elif self.table.doubled(slot, now):
            self.say(f"{where} holds two tiles: keep one", ref.seat)
            self._schedule(DOUBLE_WINDOW_S, self._check_table)  # the blinking stops once it reads steadily
        elif self.table.flickering(slot, now):
            self.say(f"{where} keeps coming and going: push the tile fully in, or take it out",
                     ref.seat)
            self._schedule(FLICKER_WINDOW_S, self._check_table)
        elif present and acting:
            self._acknowledge(ref.seat, ref.pos, uid, payload)
        if acting and self.awaiting.pop(ref.seat, None) is not None:
            self.seat_messages.pop(ref.seat, None)  # a second confirm counts only for an unchanged station
            self.station_words.pop(ref.seat, None)
            self._publish_view()
        self._check_table()

    def _acknowledge(self, seat: int, pos: int, uid: bytes, payload: bytes) -> None:
        try:
            tile = self.mapping.identify(uid, payload)
        except TileError as err:
            self.say(f"{self.seat_name(seat)}: {err}", seat)
            return
        self.first_times.laid(seat, tile)
        self.acks[(seat, pos)] = self.clock() + ACK_S
        self._schedule(ACK_S + 0.01, self._draw)

    def on_button(self, button: int, action: int, remote: bool = False) -> None:
        if self.seating is None or self.state is None:
            return
        try:
            seat, role = self.seating.button(button)
        except ValueError:
            return
        if not self._read_here(seat, remote):  # pressed at the table where its seat plays
            return
        if seat is None:
            self.say(f"the {role} button of an empty station does nothing")
            return
        if action == m.RELEASE and button in self.held:
            del self.held[button]
            self._check_table()
        if action == m.LONG_PRESS:
            if role in ("previous", "next"):
                self._show_scores()
            else:
                self.say(f"{self.seat_name(seat)}'s {role} button is held down: release it; "
                         "nothing happens while it is held", seat)
                self._hold(button)
            return
        if action == m.PRESS:
            self.press(seat, role)

    def press(self, seat: int, role: str) -> None:
        """A station's button (or the same button on the seat's view) was pressed."""
        if self.state is None:
            raise SessionError("no game: nothing to press for")
        self._check_seat(seat)
        if self.mode == "decide":
            self._decision_button(seat, role)
        elif self.mode == "program":
            self._program_button(seat, role)
        elif self.mode == "animate":
            if role == "confirm" or role == "next":
                self.skip()
            elif role == "previous":
                self._next_table_speed(seat)
        elif self.mode == "over" and role in ("previous", "next"):
            self._show_scores()
        elif self.mode == "clear":  # nothing counts until the board matches the game
            words = self.clear_words(seat) if seat in self.clearing else \
                "wait: " + " and ".join(self.seat_name(s) for s in self.clearing) + " clear their stations first"
            self._say_private(seat, words, words if seat not in self.clearing else
                              self.clear_words(seat, public=True))

    def _program_button(self, seat: int, role: str) -> None:
        if seat in self.confirmed:
            self.say(f"{self.seat_name(seat)} has confirmed: the program waits for the others", seat)
        elif seat not in self.acting():
            acting = " and ".join(self.seat_name(s) for s in self.acting()) or "nobody"
            self.say(f"it is {acting}'s turn, not {self.seat_name(seat)}'s", seat)
        elif role == "confirm":
            self.confirm(seat)
        elif role == "cancel":
            self.awaiting.pop(seat, None)
            self.say("cancelled: change your tiles, then press confirm", seat)
        else:
            settings = self.controls.setdefault(seat, {})
            words = self.mapping.station_button(self.state, seat, role, settings)
            if words:
                self._say_private(seat, words, f"{self.seat_name(seat)} changed a setting")
                self._draw()  # a setting may show (Goblins: the tile being turned)

    def on_touch(self, board_cell: int) -> None:
        if self.mode != "decide" or self.picker is None or self.bmap is None:
            return
        cell = self.bmap.to_engine.get(board_cell)
        if cell is None:
            return
        several = sum(1 for c in self.picker.candidates if c.cell == cell) > 1
        chosen = self.picker.touch(cell)
        if chosen is None:
            self.say("that cell is not one of the choices: touch a pulsing one",
                     self.picker.decision.player)
        elif several:
            self.say(f"selected: {chosen.words}; touch again for the other, or press confirm",
                     self.picker.decision.player)
            self._draw()
        else:
            self.decide(chosen.choice)

    def _decision_button(self, seat: int, role: str) -> None:
        assert self.picker is not None
        decider = self.picker.decision.player
        if seat != decider:
            self.say(f"this choice is {self.seat_name(decider)}'s to make", seat)
            return
        if role in ("previous", "next"):
            chosen = self.picker.step(-1 if role == "previous" else 1)
            words = f"selected: {chosen.words} (confirm to choose it)"
            if self.mapping.private_choices(self.picker.decision):
                self._tell(seat, words)  # what is selected is the decider's alone
            else:
                self.say(words, seat)
            self._draw()
        elif role == "confirm":
            self.decide(self.picker.selected.choice)
