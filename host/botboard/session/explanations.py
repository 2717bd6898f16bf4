"""First-time explanations: the first time a seat lays each kind of tile in a game, its phone
says what the tile does, in the game's own words (``TileCatalogue.explain``).

A part of ``GameSession`` with one job. The words go to the seat's phone alone
(a private ``explain`` event; the seat view carries the latest). The table can
turn them off (settings file ``explain = false``, ``botboard run --no-explain``)
and so can each phone for its own seat.
"""

from __future__ import annotations

from typing import Any


class FirstTimes:
    def __init__(self, session: Any, on: bool = True) -> None:
        self.session = session
        self.on = on  # the table's setting
        self.off_seats: set[int] = set()  # seats that turned them off on their phone
        self._game: int | None = None
        self._seen: dict[int, set[str]] = {}  # seat -> explanations already given this game
        self._last: dict[int, str] = {}  # seat -> the latest, shown on its phone

    def _same_game(self) -> None:
        if self.session.game_id != self._game:  # a new game: every kind is new again
            self._game, self._seen, self._last = self.session.game_id, {}, {}

    def laid(self, seat: int, tile: Any) -> None:
        """``seat`` laid ``tile`` in its station (read, identified, while it programs)."""
        s = self.session
        self._same_game()
        if not self.on or seat in self.off_seats:
            return
        text = s.mapping.catalogue.explain(tile)
        if not text or text in self._seen.setdefault(seat, set()):
            return
        self._seen[seat].add(text)
        self._last[seat] = f"{s.mapping.tile_words(tile)}: {text}"
        s._publish({"kind": "game", "event": "explain", "seat": seat, "private": True})

    def turn(self, seat: int, on: bool) -> None:
        """The seat's phone turns its explanations on or off."""
        (self.off_seats.discard if on else self.off_seats.add)(seat)
        if not on:
            self._last.pop(seat, None)

    def view(self, seat: int) -> dict[str, Any]:
        """What the seat's phone shows: whether explanations come, and the latest."""
        self._same_game()  # the last game's explanation does not stay on the phone
        on = self.on and seat not in self.off_seats
        return {"table": self.on, "on": on, "text": self._last.get(seat, "") if on else ""}
