"""The board coming and going, as the session lives it.

From a (re)connect until CENSUS_DONE the SLOTs the board sends are its census,
not hands moving tiles: they are held and the record of the slots changes
once, by what really moved while the board was away. The table is told when
the board stops answering and when it is back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bbshared import messages as m

from ..link.fields import census_holds

if TYPE_CHECKING:
    from .table import Table


class BoardPresence:
    if TYPE_CHECKING:  # what it reads and sets of the session (session.py sets them)
        table: Table
        _census: dict[int, tuple[int, bytes, bytes]] | None
        _board_seen: bool
        _board_gone: bool

        def on_slot(self, slot: int, state: int, uid: bytes, payload: bytes) -> None: ...
        def say(self, text: str, seat: int | None = None) -> None: ...

    def _take_slot(self, slot: int, state: int, uid: bytes, payload: bytes) -> None:
        """A SLOT from the board: held while a census is under way, else a hand's move."""
        if self._census is not None:
            self._census[slot] = (state, uid, payload)
        else:
            self.on_slot(slot, state, uid, payload)

    def _census_done(self, bitmap: bytes) -> None:
        """The census is whole: a slot outside the bitmap is empty, whatever was said
        before; only slots that changed while the board was away are news."""
        staged, self._census = self._census or {}, None
        for slot in sorted(set(staged) | set(self.table.contents())):
            if census_holds(bitmap, slot) and slot in staged:
                self.on_slot(slot, *staged[slot])
            else:
                self.on_slot(slot, m.SLOT_EMPTY, b"", b"")

    def on_link_state(self, state: str) -> None:
        """Listener for BoardConnection's state: say when the board is gone and back."""
        if state == "handshake":
            self._census = {}  # what the board says before its census is superseded by it
        elif state == "connected":
            if self._board_gone:
                self.say("the board is back: play on")
            self._board_seen, self._board_gone = True, False
        elif state in ("waiting", "incompatible") and self._board_seen and not self._board_gone:
            self._board_gone = True
            self.say("the board is not answering: check its USB cable and its power. The game "
                     "is kept: play goes on when the board is back")
