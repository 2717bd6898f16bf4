"""GameSession: any game at the table, through its table mapping.

Board messages come in (``on_message``: tags arriving and leaving slots,
buttons, touches, a board that (re)connects); the session keeps the game
state, turns a confirmed change of an acting station's tiles into a legal
action (or refuses it in words and with blinking robots), journals every
accepted action before the board shows it, plays it on the LEDs, and puts
pending decisions on the board. What differs from game to game it asks the
game's ``TableMapping`` (session/mapping.py). Parts live beside it, each
with one job: ``inputs.py`` sends the board's messages and the seats'
presses where the mode says; ``stations.py`` reads the stations and says what
the table must put right; ``views.py`` makes the shared and seat views and
says words.

Programming may be one seat at a time (Twin Tin Bots) or simultaneous
(BotWars): every acting seat confirms when ready; a confirmed program waits,
unseen, until the engine's order reaches its seat, and its station is
locked until then.

The console and the seat views call ``new_game``, ``undo``, ``decide``,
``press``, ``set_control``, ``view``, ``seat_view``, ``set_speed`` and ``skip``.
Published (``publish``), each a dict with ``"kind": "game"`` and ``"private"``
(True: only for ``"seat"``):

* ``{"event": "action", "n", "action", "state_hash", "events": [texts]}``: an
  action was journaled (as the table may read it);
* ``{"event": "message", "text", "seat"}``: something to read (a refusal,
  what to confirm, a held button...);
* ``{"event": "view", "view": view()}``: after every change worth redrawing.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any, Callable, Protocol


from .. import games
from ..games.base import Event, GameError
from ..board.layouts import Layout
from ..link.image import CellState
from .animation import TABLE_SPEEDS, Animation
from .journal import Journal, replay
from .mapping import TableError, TableMapping
from .palette import check_variant
from .picker import Picker
from .seating import Seating
from .boardmap import BoardMap
from .computers import ComputerSeats
from .presence import BoardPresence
from .drawing import Drawing
from .explanations import FirstTimes
from .hints import TableHints
from .inputs import SessionError, TableInputs
from .remote_stations import RemoteStations
from .clearing import TableClearing
from .refusals import Refusals
from .stations import StationChecks
from .table import Table
from .views import SessionViews
from .now import NowWords

UNDONE = "(undone) "  # an undone action's lines in the log (the console strikes them through)


class BoardOut(Protocol):
    def set_cells(self, changes: dict[int, CellState]) -> None: ...

    def set_palette(self, rgb: list[tuple[int, int, int]]) -> None: ...

    def set_priority(self, slots: list[int]) -> None: ...


class GameSession(TableInputs, BoardPresence, StationChecks, SessionViews, NowWords, ComputerSeats, Drawing,
                  RemoteStations, TableClearing, Refusals):
    def __init__(self, layout: Layout, journal: Journal, board: BoardOut,
                 registry: Any = None, publish: Callable[[dict[str, Any]], None] | None = None,
                 step_s: float | None = None, clock: Callable[[], float] = time.monotonic,
                 game: str | None = None, palette: str = "standard") -> None:
        self.layout = layout
        self.journal = journal
        self.board = board
        self.registry = registry
        self.mapping: TableMapping[Any] = games.table(game or games.default_name())(registry)
        self.engine = self.mapping.engine
        self.game = self.mapping.game
        self._publish = publish or (lambda event: None)
        self.clock = clock
        self.table = Table()
        self.animation = Animation(self._show, self.mapping.default_speed_s if step_s is None else step_s)
        self.game_id: int | None = None
        self.state: Any = None
        self.seating: Seating | None = None
        self.bmap: BoardMap | None = None
        self.mode = "idle"  # idle, clear, program, animate, decide, over
        self.clearing: dict[int, set[int]] = {}  # seat -> station positions the game emptied (clearing.py)
        self._new_game_clearing = False
        self._want_before: dict[int, Any] = {}  # slot -> what it should hold before the action
        self._held_before: dict[int, Any] = {}  # slot -> what it held then
        self._state_before: Any = None  # the state before the action (what changed is said from it)
        self.picker: Picker | None = None
        self.awaiting: dict[int, tuple[str, Any]] = {}  # seat -> second confirm pending (kind, held)
        self.prompts: dict[int, str] = {}  # seat -> what its second confirm means (while awaiting)
        self.confirmed: dict[int, tuple[str, list[bytes | None]]] = {}  # seat -> (action, slot uids)
        self.submitted: set[int] = set()  # seats whose program is in (held or applied) until they act again
        self.controls: dict[int, dict[str, Any]] = {}  # seat -> its station's settings (reboot...)
        self.message = "no game: start one from the console or with `botboard run --players N`"
        self.message_seat: int | None = None
        self.seat_messages: dict[int, str] = {}  # the last words meant for each seat alone
        self.refusals: dict[int, tuple[str, str, str]] = {}  # seat -> (cause, its words, the table's): refusals.py
        self.station_words: dict[int, str] = {}  # public words to a seat that still apply (shown at its station)
        self.table_words: dict[int, str] = {}  # what a station must put right now (remade on every check)
        self.alerts: dict[int, CellState] = {}  # engine cell -> an alert drawn over the picture
        self.acks: dict[tuple[int, int], float] = {}  # (seat, pos) -> until when its ack shows
        self.held: dict[int, int] = {}  # button held down or stuck -> its seat (its robots blink)
        self.log: deque[str] = deque(maxlen=200)
        self._unlogged: list[tuple[Event, str]] = []  # the playing action's lines, logged as they show
        self._logged: list[int] = []  # lines each action of this game added to the log
        self._base: dict[int, CellState] = {}  # the current picture before overlays
        self._priority: list[int] | None = None  # the slots last sent with SET_PRIORITY
        # SLOTs of the census after a (re)connect, held until CENSUS_DONE: the table
        # then changes once, by what really moved while the board was away
        self._census: dict[int, tuple[int, bytes, bytes]] | None = None
        self._board_seen = False  # connected at least once
        self._board_gone = False  # lost since, and said so
        self.remote_seats = frozenset()  # seats played at another table (remote_stations.py)
        self._local_slots = {}
        self.computers, self.levels, self._thinking = {}, {}, set()  # seats the computer plays
        self._pool = None  # their thinking workers (computers.py)
        self.think_s = 2.0
        self.hints = TableHints(self)  # a seat's phone asks what the computer would play
        self.first_times = FirstTimes(self)  # a seat's phone explains a kind of tile laid the first time
        self.palette = check_variant(palette)  # the LED colours: standard, colourblind
        self.board.set_palette(list(self.mapping.palette_for(self.palette)))

    @property
    def secret_slots(self) -> bool:
        return self.mapping.secret_slots

    def use_palette(self, variant: str) -> None:
        """Light the board in another palette variant (PaletteError if unknown); the game goes on."""
        self.palette = check_variant(variant)
        self.board.set_palette(list(self.mapping.palette_for(variant)))

    # -- games ---------------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None = None, seed: int = 0) -> int:
        options = dict(options or {})
        try:
            state = self.engine.new_game(players, options, seed)
            self._fit(state)
        except (GameError, TableError) as err:
            raise SessionError(str(err)) from err
        game_id = self.journal.create_game(self.game, players, options, seed, self.layout.id)
        self._forget_log()
        self._start(game_id, state, boundary="new")
        if self.mode != "clear":
            self.say(f"new game {game_id}: {players} players; " + self._turn_words())
        return game_id

    def unfinished(self) -> list[dict[str, Any]]:
        """The journal's unfinished games of this session's engine, newest first."""
        return [g for g in reversed(self.journal.games())
                if g["game"] == self.game and g["finished"] is None]

    def resume(self, game_id: int | None = None) -> bool:
        """Continue a journaled game (the latest unfinished one by default)."""
        game_id = game_id if game_id is not None else self.journal.latest_unfinished(self.game)
        if game_id is None:
            return False
        if game_id not in [g["id"] for g in self.unfinished()]:
            raise SessionError(f"game {game_id} is not an unfinished {self.game} game of this "
                               "journal (`botboard games` lists them)")
        _, state, done = replay(self.journal, game_id)
        try:
            self._fit(state)
        except TableError as err:
            raise SessionError(str(err)) from err
        self._forget_log()
        self._start(game_id, state)
        if self.mode != "clear":
            self.say(f"game {game_id} resumed after {len(done)} actions; {self._turn_words()}")
        return True

    def _fit(self, state: Any) -> tuple[Seating, BoardMap]:
        """The seating and cell map of ``state`` on this board; TableError if it does not fit."""
        stations = self.mapping.seat_stations(self.layout, state)
        shared: dict[int, list[int]] = {}
        for seat, station in enumerate(stations):
            shared.setdefault(station, []).append(seat)
        holders = {st: self.mapping.holder(state, seats) for st, seats in shared.items() if len(seats) > 1}
        seating = Seating(self.layout, stations, self.mapping.slots_per_seat(), holders)
        return seating, BoardMap(self.layout, list(self.mapping.coords(state)))

    def _start(self, game_id: int, state: Any, boundary: str | None = None) -> None:
        """Show ``state`` from scratch; ``boundary`` "new": stations that differ from it are
        cleared first (clearing.py)."""
        self.animation.stop()
        self.game_id, self.state = game_id, state
        self._seat(*self._fit(state))
        self.awaiting.clear()
        self.confirmed.clear()
        self.submitted.clear()
        self._unlogged = []
        self.controls.clear()
        self.seat_messages.clear()
        self.station_words.clear()
        self.refusals.clear()
        self.alerts.clear()
        self.clearing.clear()
        self._enter_mode(boundary)
        self._base = self.mapping.picture(state)
        self._draw()
        self._check_table()
        self._publish_view()  # every console and phone sees the new game, whoever started it

    def seat_name(self, seat: int) -> str:
        return self.mapping.seat_name(self.state, seat) if self.state is not None else str(seat)

    def acting(self) -> list[int]:
        """Seats that may confirm a program now (not those already confirmed)."""
        if self.mode != "program" or self.state is None:
            return []
        return [s for s in self.mapping.acting_seats(self.state) if s not in self.confirmed]

    # -- programming ---------------------------------------------------------------
    def confirm(self, seat: int | None = None) -> None:
        """A seat pressed confirm (the one acting seat by default): read its station."""
        state, seating = self.state, self.seating
        acting = self.acting()
        if seat is None:
            seat = acting[0] if len(acting) == 1 else -1
        if state is None or seating is None or seat not in acting:
            return
        slots = seating.slots_of(seat)
        now = self.clock()
        unsure = self._unsure(seat)
        if unsure:
            self._refuse(seat, unsure[0], unsure[1])
            return
        wait = self.table.settle_in(slots, now)
        if wait > 0:  # a tile just moved: read it once it has settled
            self._schedule(wait, lambda: self.confirm(seat))
            return
        reading = self._read(seat)
        verdict = self.mapping.judge(state, seat, reading, slots, self.controls.get(seat, {}))
        if not verdict.ok:
            self._refuse(seat, verdict.message, list(verdict.wrong_slots))
            return
        assert verdict.action is not None
        if verdict.second_confirm:
            key = (verdict.second_confirm, reading.held)
            if self.awaiting.get(seat) != key:
                self.awaiting[seat] = key
                self.prompts[seat] = verdict.message  # the phone's now line says it while it waits
                self._say_private(seat, verdict.message, f"{self.seat_name(seat)}: press confirm again "
                                  "to go on, or change a tile")
                self._publish_view()  # the station card shows the prompt too
                return
        self.awaiting.pop(seat, None)
        self._submit(seat, verdict.action)

    def _submit(self, seat: int, text: str) -> None:
        """Apply now if the engine's order has reached this seat; else hold it, unseen."""
        self.submitted.add(seat)
        self.station_words.pop(seat, None)  # a refusal no longer applies
        self.refusals.pop(seat, None)
        if self.mapping.any_order or self.engine.current_player(self.state) == seat:
            self._apply(text)
            return
        assert self.seating is not None
        self.confirmed[seat] = (text, self._uids(seat))
        waiting = [self.seat_name(s) for s in self.acting()]
        self._say_private(seat, "confirmed: your program waits, locked in, for " + " and ".join(waiting),
                          f"{self.seat_name(seat)} has confirmed; waiting for " + " and ".join(waiting))
        self._publish_view()

    def _refuse(self, seat: int, message: str, slots: list[int]) -> None:
        self.awaiting.pop(seat, None)
        mine = f"refused: {message}"
        table = (f"{self.seat_name(seat)}: refused, see your phone; the blinking robot shows the "
                 "station to fix") if self.mapping.private_refusals() else f"{self.seat_name(seat)}: {mine}"
        self._say_private(seat, mine, table)
        self.refusals[seat] = (message, mine, table)  # until the slots no longer cause it
        self._mark_slots(slots)
        self._draw()
        self._publish_view()  # the refusal stays at the station on every console

    # -- actions ----------------------------------------------------------------------
    def _apply(self, text: str) -> None:
        """Apply, journal (committed before anything shows), then animate."""
        state = self.state
        assert state is not None and self.game_id is not None
        try:
            after, events = self.engine.apply_str(state, text)
        except GameError as err:
            self.say(f"refused: {err}")
            return
        actor = self.engine.current_player(state)
        if actor is not None:  # the seat's move is made: what it was told no longer applies
            self.station_words.pop(actor, None)
            self.seat_messages.pop(actor, None)
            if self.mapping.settings_per_action:
                self.controls.pop(actor, None)
        self._note_before()
        digest = self.engine.state_hash(after)
        outcome = self.engine.outcome(after)
        n = self.journal.append(self.game_id, text, digest, outcome.to_json() if outcome else None)
        self.state = after
        self.picker = None
        self.alerts.clear()
        texts = [self.spoken(text) for text in self.mapping.public_events(events)]
        shown = self.spoken(self.mapping.public_action(state, text))  # (selfplay prints it)
        self._log_through(None)  # anything left of an earlier action
        self._unlogged = list(zip(events, texts))
        self._logged.append(len(texts))  # the action's lines, struck through if it is undone
        self._publish({"kind": "game", "event": "action", "n": n, "action": shown,
                       "state_hash": digest, "events": texts, "seat": None, "private": False})
        self.mode = "animate"
        self.message = texts[-1] if texts else shown
        self.message_seat = None
        self.animation.play(self.mapping.frames(state, events, after), self._animation_done,
                            self._frame_shown)

    def _frame_shown(self, event: Event | None) -> None:
        """The log (the stage report, in BotWars) grows as the animation reaches each event."""
        self._log_through(event)
        self._publish_view()

    def _log_through(self, event: Event | None) -> None:
        """Log the action's lines up to ``event`` (all of them for None)."""
        while self._unlogged:
            shown, text = self._unlogged.pop(0)
            self.log.append(text)
            if shown is event and event is not None:
                return

    def _animation_done(self) -> None:
        self._log_through(None)
        self._enter_mode("action")
        assert self.state is not None
        self._base = self.mapping.picture(self.state)
        if self.mode == "program":
            waiting = self.engine.current_player(self.state)
            if waiting in self.confirmed:  # the engine's order reached a confirmed program
                self._apply(self.confirmed.pop(waiting)[0])
                return
        self._check_table()
        self._publish_view()

    def _cleared(self) -> None:
        """The board matches the game again: play goes on."""
        self.clearing.clear()
        self._enter_mode()
        self.say(f"the board is ready: {self._turn_words()}")
        self._check_table()
        self._publish_view()

    def _publish_view(self) -> None:
        self._publish({"kind": "game", "event": "view", "view": self.view(), "seat": None,
                       "private": False})

    def _enter_mode(self, boundary: str | None = None) -> None:
        """The mode the state asks for; ``boundary`` (after an action, a new or resumed game):
        stations the game emptied are cleared first, mode "clear" (clearing.py)."""
        state = self.state
        assert state is not None
        self._seat(*self._fit(state))  # partners may change stations between rounds
        decision = self.mapping.decision(state)
        self._forget_said(state)
        if boundary is not None and self.engine.outcome(state) is None:
            self._new_game_clearing = boundary == "new"
            self.clearing = self._clearing_due(boundary != "action")
        if self.clearing and self.engine.outcome(state) is None:
            self.mode = "clear"
            self.picker = None
            self._prioritise()
            self.say("; ".join(self.clear_words(s, public=True) for s in self.clearing)
                     + ": the blinking robots show where; then play goes on")
            if self.mapping.private_refusals():  # the tiles are named to their seat alone
                for seat in self.clearing:
                    self._tell(seat, self.clear_words(seat))
            return
        self.clearing.clear()
        if self.engine.outcome(state) is not None:
            self.mode = "over"
            self.confirmed.clear()
            self.say(self._outcome_words())
        elif decision is not None:
            self.mode = "decide"
            self.picker = Picker(decision, self.mapping.candidates(state, decision))
            self.say(f"{self.spoken(decision.prompt)}: touch a pulsing cell, or previous/next and confirm",
                     decision.player)
            self.seat_messages.pop(decision.player, None)  # the decider's phone says it in its now line
        else:
            self.mode = "program"
            self.picker = None
        acting = self.mapping.acting_seats(state)
        for seat in [s for s in self.confirmed if s not in acting]:  # its program no longer awaited
            del self.confirmed[seat]
        self.submitted -= set(acting) - set(self.confirmed)  # their next program is due
        self._prioritise()
        self._computers_move()

    def _forget_said(self, state: Any) -> None:
        """Words to a seat go once they no longer apply: only a seat still programming keeps
        its refusal (it has not been put right yet); everything else was about the state before."""
        still = set(self.mapping.acting_seats(state)) - set(self.confirmed)
        for seat in [s for s in self.seat_messages if s not in still]:
            del self.seat_messages[seat]

    def _prioritise(self, force: bool = False) -> None:
        """The acting seats' empty slots are scanned first: the next tile lands there.

        Only the empty ones: the board checks a priority slot that holds a tag
        only now and then, and (firmware as of this writing) misses departures
        when most of its priority slots hold tags; occupied slots are scanned
        in the ordinary rotation.
        """
        if self.state is None or self.seating is None:
            return
        empty = [k for seat in self.acting() for k in self.seating.slots_of(seat)
                 if self.table.reading(k) is None]
        if force or empty != self._priority:
            self._priority = empty
            self.board.set_priority(empty)

    def decide(self, choice: str, seat: int | None = None) -> None:
        """The decider's choice (from the board, the console, or the decider's seat view)."""
        if self.mode != "decide" or self.picker is None:
            raise SessionError("no decision is waiting")
        if seat is not None and seat != self.picker.decision.player:
            raise SessionError(f"this choice is {self.seat_name(self.picker.decision.player)}'s to make")
        if self.picker.pick(choice) is None:
            raise SessionError(f"{choice!r} is not a choice now; choices: "
                               f"{', '.join(self.picker.decision.choices)}")
        self._apply(choice)

    def set_control(self, seat: int, name: str, value: Any) -> None:
        """A seat's setting for its next program (e.g. BotWars' reboot), from its seat view."""
        self._check_seat(seat)
        known = {c["name"]: c for c in self.mapping.controls(self.state, seat, self.controls.get(seat, {}))}
        if name not in known:
            raise SessionError(f"no setting {name!r} now; settings: {', '.join(known) or 'none'}")
        if value not in known[name]["choices"]:
            raise SessionError(f"{name} takes one of {known[name]['choices']}, not {value!r}")
        self.controls.setdefault(seat, {})[name] = value
        self.awaiting.pop(seat, None)
        self._tell(seat, f"{known[name]['label']}: {value}")

    def undo(self) -> str:
        """Take back the last journaled action (kept in the journal, marked undone)."""
        if self.game_id is None:
            raise SessionError("no game to undo in")
        taken = self.journal.undo_last(self.game_id)
        if taken is None:
            raise SessionError("nothing to undo: no action yet")
        was = self.state
        _, state, _ = replay(self.journal, self.game_id)
        self._start(self.game_id, state)
        self._strike_last()
        back = self._take_back(was)
        undone = f"undone: {self.mapping.public_action(state, taken)}"
        if not back:
            self.say(f"{undone}; the slots already hold what the game wants")
        elif self.mapping.private_refusals():  # the tiles to put back are the seats' secrets
            for seat, fixes in back.items():
                self._tell(seat, "put back: " + "; ".join(fixes))
            self.say(f"{undone}; " + ", ".join(self.seat_name(s) for s in back)
                     + ": put your tiles back as your phone says")
        else:
            self.say(f"{undone}; put back: " + "; ".join(f"{self.seat_name(s)} " + "; ".join(fixes)
                                                           for s, fixes in back.items()))
        self._publish_view()  # every console strikes the undone lines at once
        return taken

    def _strike_last(self) -> None:
        """The undone action's lines stay in the log, marked (the journal keeps it too)."""
        lines = self._logged.pop() if self._logged else 0
        for i in range(len(self.log) - lines, len(self.log)):
            if i >= 0 and not self.log[i].startswith(UNDONE):
                self.log[i] = UNDONE + self.log[i]

    def _forget_log(self) -> None:
        """Another game: the log starts empty."""
        self.log.clear()
        self._logged.clear()

    # -- speed --------------------------------------------------------------------------
    def set_speed(self, step_s: float) -> None:
        """Seconds per animation step (0: no animation)."""
        if isinstance(step_s, bool) or not isinstance(step_s, (int, float)) or not 0 <= step_s <= 5:
            raise SessionError("speed is seconds per step, a number from 0 to 5")
        self.animation.step_s = float(step_s)

    def _next_table_speed(self, seat: int) -> None:
        """previous during an animation: the next of the table's speeds, for this and later turns."""
        names = list(TABLE_SPEEDS)
        now = min(names, key=lambda n: abs(TABLE_SPEEDS[n] - self.animation.step_s))
        name = names[(names.index(now) + 1) % len(names)]
        self.set_speed(TABLE_SPEEDS[name])
        self.say(f"animation {name} ({TABLE_SPEEDS[name]} s a step): previous changes it, "
                 "next skips", seat)

    def skip(self) -> None:
        self.animation.skip()

    def _schedule(self, delay: float, func: Callable[[], None]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (unit tests): callers poll instead
        loop.call_later(delay, func)

    # -- seats ---------------------------------------------------------------------------
    def _check_seat(self, seat: int) -> None:
        if self.seating is None or not 0 <= seat < self.seating.players:
            raise SessionError(f"no seat {seat} in this game")
