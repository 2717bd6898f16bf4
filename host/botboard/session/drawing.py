"""The picture on the board: the game's picture with what the table needs drawn over it
(tiles just read, the acting stations' previews, the pulsing choices of a decision,
a seat's hint, alerts), and the score picture shown for a moment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from bbshared import messages as m

from ..link.image import CellState

if TYPE_CHECKING:
    from .boardmap import BoardMap
    from .hints import TableHints
    from .picker import Picker
    from .seating import Seating
    from .session import BoardOut


class Drawing:
    if TYPE_CHECKING:  # what it reads of the session (session.py sets them)
        board: BoardOut
        bmap: BoardMap | None
        seating: Seating | None
        picker: Picker | None
        mapping: Any
        state: Any
        mode: str
        acks: dict[tuple[int, int], float]
        alerts: dict[int, CellState]
        hints: TableHints
        controls: dict[int, dict[str, Any]]
        _base: dict[int, CellState]
        clock: Callable[[], float]

        def acting(self) -> list[int]: ...
        def _read(self, seat: int) -> Any: ...
        def say(self, text: str, seat: int | None = None) -> None: ...
        def _schedule(self, delay: float, func: Callable[[], None]) -> None: ...

    def _show(self, picture: dict[int, CellState]) -> None:
        self._base = picture
        self._draw()

    def _draw(self) -> None:
        if self.bmap is None or self.state is None:
            return
        picture = dict(self._base)
        if self.mode != "animate":
            self._overlay(picture)
        self.board.set_cells(self.bmap.board(picture))

    def _overlay(self, picture: dict[int, CellState]) -> None:
        now = self.clock()
        for (seat, pos), until in list(self.acks.items()):
            if until <= now:
                del self.acks[(seat, pos)]
                continue
            mark = self.mapping.mark(self.state, seat, pos, "choice", m.SOLID)
            if mark is not None:
                picture[mark[0]] = mark[1]
        if self.mode == "program" and self.seating is not None:
            for seat in self.acting():
                picture.update(self.mapping.preview(self.state, seat, self._read(seat),
                                                    self.controls.get(seat, {})))
        if self.mode == "decide" and self.picker is not None:
            choice = self.mapping.palette_index["choice"]
            for i, cand in enumerate(self.picker.candidates):
                effect = m.SPIN if i == self.picker.index else m.PULSE
                picture[cand.cell] = CellState(choice, picture.get(cand.cell, CellState()).facing, effect)
        picture.update(self.hints.marks())  # only the asking seat's robots, in its colour
        picture.update(self.alerts)

    def _show_scores(self) -> None:
        if self.state is None or self.bmap is None:
            return
        scores = self.mapping.score_picture(self.state)
        if scores is not None:
            self.board.set_cells(self.bmap.board(scores))
            self._schedule(3.0, self._draw)
        self.say(self.mapping.score_words(self.state))
