"""What people read: the shared view, each seat's view, and the words said to the table or a seat.

A part of ``GameSession`` (session.py) with one job: turning the session's
state into the JSON the console, the seat pages and the log show. The shared
view carries public information only; a seat's view is that player's alone.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable


if TYPE_CHECKING:
    from collections import deque

    from ..board.layouts import Layout
    from ..games.base import Game
    from .animation import Animation
    from .boardmap import BoardMap
    from .journal import Journal
    from .mapping import TableMapping
    from .picker import Picker
    from .seating import Seating


log = logging.getLogger("botboard.session")


class SessionViews:
    if TYPE_CHECKING:  # what it reads of the session (session.py sets them)
        state: Any
        seating: Seating | None
        bmap: BoardMap | None
        layout: Layout
        journal: Journal
        levels: dict[int, str]
        engine: Game[Any, Any]
        mapping: TableMapping[Any]
        picker: Picker | None
        game: str
        palette: str
        game_id: int | None
        mode: str
        message: str
        message_seat: int | None
        awaiting: dict[int, tuple[str, Any]]
        submitted: set[int]
        controls: dict[int, dict[str, Any]]
        seat_messages: dict[int, str]
        refusals: dict[int, tuple[str, str, str]]
        station_words: dict[int, str]
        table_words: dict[int, str]
        log: deque[str]
        animation: Animation
        _publish: Callable[[dict[str, Any]], None]

        def acting(self) -> list[int]: ...
        def seat_name(self, seat: int) -> str: ...
        def _check_seat(self, seat: int) -> None: ...
        def _slot_words(self, seat: int) -> list[str | None]: ...
        def now(self, seat: int | None = None) -> dict[str, Any]: ...
        def end(self) -> dict[str, Any]: ...
        def result_words(self, seat: int) -> str: ...
        def spoken(self, text: str) -> str: ...

    def _turn_words(self) -> str:
        assert self.state is not None
        if self.mode == "over":
            return self._outcome_words()
        if self.mode == "decide" and self.picker is not None:
            return self.picker.decision.prompt
        return self.mapping.turn_words(self.state)

    def _outcome_words(self) -> str:
        outcome = self.engine.outcome(self.state)
        if outcome is None:
            return ""
        names = " and ".join(self.seat_name(w) for w in outcome.winners) or "nobody"
        players = self.seating.players if self.seating is not None else 0
        scores = ", ".join(f"{self.seat_name(s)} {v}" for s, v in enumerate(outcome.scores) if s < players)
        return f"game over ({self.spoken(outcome.reason)}): {names} won" + (f"; final scores {scores}" if scores else "")

    def seats(self) -> list[dict[str, Any]]:
        if self.state is None or self.seating is None:
            return []
        return [{"seat": s, "name": self.seat_name(s), "station": self.seating.seat_station_name(s)}
                for s in range(self.seating.players)]

    def view(self) -> dict[str, Any]:
        """The shared view (console, arena screen): public information only."""
        state = self.state
        if state is None:
            return {"game": self.game, "game_id": None, "phase": "idle", "message": self.message,
                    "seats": []}
        decision = self.mapping.decision(state)
        outcome = self.engine.outcome(state)
        pending = None
        if decision is not None and self.picker is not None and self.mapping.private_choices(decision):
            pending = {"player": decision.player, "kind": decision.kind, "prompt": self.spoken(decision.prompt),
                       "choices": [], "who": self.seat_name(decision.player), "private": True}
        elif decision is not None and self.picker is not None:
            pending = {**decision.to_json(), "who": self.seat_name(decision.player),
                       "prompt": self.spoken(decision.prompt),
                       "words": {c.choice: self.spoken(c.words) for c in self.picker.candidates},
                       "selected": self.picker.selected.choice}
        public = self.mapping.public_view(state)
        seats = self.seats()
        acting = [self.seat_name(s) for s in self.acting()]
        awaiting = next(iter(self.awaiting.values()))[0] if self.awaiting and not \
            self.mapping.private_refusals() else None
        return {
            **public, "public": public,
            "game": self.game, "title": self.engine.info.title, "game_id": self.game_id,
            "phase": self.mode, "players": len(seats), "seats": seats,
            "current_player": self.engine.current_player(state),
            "acting": acting, "confirmed": [self.seat_name(s) for s in sorted(self.submitted)],
            "pending": pending, "awaiting_second_confirm": awaiting,
            "outcome": outcome.to_json() if outcome else None, "over": outcome is not None,
            "winner": [self.seat_name(w) for w in outcome.winners] if outcome else None,
            "result": self._outcome_words() or None,
            "now": self.now(), "end": self.end() if outcome else None,
            "seat_colours": self._seat_colours(),
            "message": self.message, "message_for": self.seat_name(self.message_seat)
            if self.message_seat is not None and self.message_seat < len(seats) else None,
            "log": list(self.log)[-50:], "speed": self.animation.step_s,
            "state_hash": self.engine.state_hash(state),
            "stations": {s["name"]: s["station"] for s in seats},
            "station_words": self._station_words_view(),
            **self._places(), "settings": self._settings(),
            "options": self.journal.game(self.game_id).options if self.game_id is not None else {},
            "computers": ", ".join(f"{self.seat_name(s)} ({level})" for s, level in sorted(self.levels.items()))
            or None,
        }

    def _seat_colours(self) -> dict[str, str]:
        """Each seat's name -> the colour its LEDs show (pages colour the seats' names with it)."""
        lit = {e["name"]: e["hex"] for e in self.mapping.legend(self.palette) if e["role"] == "seat"}
        return {s["name"]: lit.get(s["name"], s["name"]) for s in self.seats()}

    def _slot_places(self, seat: int) -> list[list[float]] | None:
        """Where the seat's slots lie on its station (x east, y north, mm), so a phone draws a
        yard of slots as the yard it is; None when the layout does not say."""
        where = {slot: mm for st in self.layout.stations for slot, mm in zip(st.slots, st.slot_mm)}
        places = [where.get(k) for k in self.seating.slots_of(seat)] if self.seating is not None else []
        return [list(p) for p in places if p is not None] if places and None not in places else None

    def _places(self) -> dict[str, Any]:
        """One naming for places: each board cell, station slot and piece as the game's words
        name them (the console labels the arena and the stations with these)."""
        state, seating, bmap = self.state, self.seating, self.bmap
        if seating is None or bmap is None:
            return {}
        engine_names = self.mapping.cell_names(state, self.layout.grid)
        cells = [""] * bmap.board_cells
        for engine, board in enumerate(bmap.to_board):
            cells[board] = engine_names[engine]
        names = [self.mapping.slot_name(state, pos) for pos in range(self.mapping.slots_per_seat())]
        slots = {seating.seat_station_name(s): names for s in range(seating.players)}
        pieces = {bmap.to_board[c]: words for c, words in self.mapping.pieces(state, seating.players).items()}
        return {"cell_names": cells, "slot_names": slots, "pieces": pieces}

    def _settings(self) -> str:
        """The running game's settings in a line (players, seed, options, board)."""
        if self.game_id is None:
            return ""
        record = self.journal.game(self.game_id)
        options = ", ".join(f"{k}={v}" for k, v in sorted(record.options.items()))
        # the seed deals what the rules hide (hands, decks): said once the game is over
        secret = self.engine.info.hidden_information and self.mode != "over"
        seed = "seed shown at the end" if secret else f"seed {record.seed}"
        return (f"{record.players} players, {seed}, layout {record.layout}"
                + (f", {options}" if options else ""))

    def _station_words_view(self) -> dict[str, str]:
        """Per station (by name), what its player must do now and why the last confirm was refused."""
        if self.seating is None:
            return {}
        words: dict[str, list[str]] = {}  # partners sharing a station share its words
        for seat in range(self.seating.players):
            said = [w for w in (self.table_words.get(seat), self.station_words.get(seat)) if w]
            words.setdefault(self.seating.seat_station_name(seat), []).extend(said)
        return {name: " · ".join(dict.fromkeys(said)) for name, said in words.items() if said}

    def seat_view(self, seat: int) -> dict[str, Any]:
        """What one seat's player alone may see, with the public view beside it."""
        self._check_seat(seat)
        state = self.state
        decision = self.mapping.decision(state)
        mine = decision is not None and decision.player == seat and self.picker is not None
        pending = {**decision.to_json(), "selected": self.picker.selected.choice,  # type: ignore[union-attr]
                   "prompt": self.spoken(decision.prompt),  # type: ignore[union-attr]
                   "words": {c.choice: self.spoken(c.words) for c in self.picker.candidates}} if mine else None  # type: ignore[union-attr]
        settings = self.controls.get(seat, {})
        over = self.mode == "over"
        now = self.now(seat)
        return {"seat": seat, "name": self.seat_name(seat), "game": self.game,
                "phase": self.mode, "acting": seat in self.acting(),
                "now": now, **self._notice(seat, now["text"]),
                "result": self.result_words(seat) if over else None,
                "end": self.end() if over else None, "seat_colours": self._seat_colours(),
                "words": [list(row) for row in self.mapping.seat_words(state, seat)],
                "confirmed": seat in self.submitted,
                "awaiting_second_confirm": self.awaiting[seat][0] if seat in self.awaiting else None,
                "message": self.seat_messages.get(seat, ""), "pending": pending,
                "station": self._slot_words(seat),
                "slot_names": [self.mapping.slot_name(state, pos)
                               for pos in range(self.mapping.slots_per_seat())],
                "slot_places": self._slot_places(seat),
                "private": self.mapping.seat_view(state, seat),
                "controls": self.mapping.controls(state, seat, settings),
                "public": self.mapping.public_view(state)}

    def _notice(self, seat: int, now: str) -> dict[str, Any]:
        """What a phone shows under its now line, each thing once: its own refusal or
        notice (styled as a refusal while one applies), and the table's words when they are
        for everybody; never another seat's refusal, nor what the now line already says."""
        notice = self.seat_messages.get(seat, "")
        if notice and notice in now:
            notice = ""  # (the second-confirm prompt: the now line says it)
        table = self.message if self.message_seat is None and self.message not in (now, notice) else ""
        kind = "refusal" if seat in self.refusals and notice == self.refusals[seat][1] else \
            "notice" if notice else ""
        return {"notice": notice, "notice_kind": kind, "table_message": table}

    # -- words --------------------------------------------------------------------------
    def say(self, text: str, seat: int | None = None) -> None:
        """Words for the whole table (``seat``: who they are addressed to), the engine's in the
        seats' names."""
        text = self.spoken(text)
        self.message, self.message_seat = text, seat
        if seat is not None:
            self.seat_messages[seat] = text
            self.station_words[seat] = text  # stays at the station until it no longer applies
        log.info("%s", text)
        self._publish({"kind": "game", "event": "message", "text": text, "seat": seat,
                       "private": False})

    def _tell(self, seat: int, text: str) -> None:
        """Words for one seat alone: its seat view, never the shared view or the log."""
        text = self.spoken(text)
        self.seat_messages[seat] = text
        self._publish({"kind": "game", "event": "message", "text": text, "seat": seat,
                       "private": True})

    def _say_private(self, seat: int, text: str, public: str) -> None:
        """``text`` for the seat; the table reads ``public`` instead when the game hides it."""
        if self.mapping.private_refusals():
            self._tell(seat, text)
            self.say(public, seat)
            self.seat_messages[seat] = text
        else:
            self.say(text, seat)
