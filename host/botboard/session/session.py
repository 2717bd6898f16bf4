"""GameSession: Twin Tin Bots at the table.

Board messages come in (``on_message``: tags arriving and leaving slots,
buttons, touches, a board that (re)connects); the session keeps the game
state, turns a confirmed change of the active station's tiles into a legal
action (or refuses it in words and with blinking robots), journals every
accepted action before the board shows it, plays the turn on the LEDs, and
puts pending decisions on the board. The console calls ``new_game``,
``undo``, ``decide``, ``view``, ``set_speed`` and ``skip``.

Published to the console (``publish``), each a dict with ``"kind": "game"``:

* ``{"event": "action", "n", "action", "state_hash", "events": [texts]}``:
  an action was journaled (a turn or a decision);
* ``{"event": "message", "text", "seat"}``: something the players must read
  (a refusal, what to confirm, a held button...);
* ``{"event": "view", "view": view()}``: after every change worth redrawing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any, Callable, Protocol

from bbshared import messages as m

from .. import games
from ..games.base import GameError
from ..games.twintinbots import content as C
from ..games.twintinbots.state import State, final_scores, points
from ..layouts import Layout
from ..link.image import CellState
from . import leds, physical
from .animation import DEFAULT_STEP_S, TABLE_SPEEDS, Animation, frames
from .decisions import Picker
from .journal import Journal, replay
from .scene import Scene
from .seating import Seating
from .table import DOUBLE_WINDOW_S, FLICKER_WINDOW_S, Table
from .tiles import Registry, TileError

log = logging.getLogger("botboard.session")

ACK_S = 0.4  # a tile read shows on its robot this long
GAME = "twin-tin-bots"


class SessionError(ValueError):
    """A request the session cannot do now; the message says why."""


class BoardOut(Protocol):
    def set_cells(self, changes: dict[int, CellState]) -> None: ...

    def set_palette(self, rgb: list[tuple[int, int, int]]) -> None: ...

    def set_priority(self, slots: list[int]) -> None: ...


class GameSession:
    def __init__(self, layout: Layout, journal: Journal, board: BoardOut,
                 registry: Registry | None = None,
                 publish: Callable[[dict[str, Any]], None] | None = None,
                 step_s: float = DEFAULT_STEP_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.layout = layout
        self.journal = journal
        self.board = board
        self.registry = registry or Registry(None)
        self._publish = publish or (lambda event: None)
        self.clock = clock
        self.engine = games.get(GAME)
        self.table = Table()
        self.animation = Animation(self._show, step_s)
        self.game_id: int | None = None
        self.state: State | None = None
        self.seating: Seating | None = None
        self.bmap: leds.BoardMap | None = None
        self.mode = "idle"  # idle, program, animate, decide, over
        self.picker: Picker | None = None
        self.awaiting: tuple[str, Any] | None = None  # second confirm: ("pass"|"double", programs)
        self.message = "no game: start one from the console or with `botboard run --players N`"
        self.message_seat: int | None = None
        self.alerts: dict[int, CellState] = {}  # engine cell -> an alert drawn over the picture
        self.acks: dict[int, float] = {}  # robot id -> until when its tile acknowledgement shows
        self.held: dict[int, int] = {}  # button held down or stuck -> its seat (its robots blink)
        self.log: deque[str] = deque(maxlen=200)
        self._base: dict[int, CellState] = {}  # the current picture before overlays
        self._priority: list[int] | None = None  # the slots last sent with SET_PRIORITY
        self.board.set_palette(list(leds.PALETTE))

    # -- games ---------------------------------------------------------------------
    def new_game(self, players: int, options: dict[str, Any] | None = None, seed: int = 0) -> int:
        options = dict(options or {})
        try:
            state = self.engine.new_game(players, options, seed)
        except GameError as err:
            raise SessionError(str(err)) from err
        self._check_fits(state)
        game_id = self.journal.create_game(GAME, players, options, seed, self.layout.id)
        self._start(game_id, state)
        self.say(f"new game {game_id}: {players} players; {self._turn_words()}")
        return game_id

    def resume(self, game_id: int | None = None) -> bool:
        """Continue a journaled game (the latest unfinished one by default)."""
        game_id = game_id if game_id is not None else self.journal.latest_unfinished(GAME)
        if game_id is None:
            return False
        _, state, done = replay(self.journal, game_id)
        self._check_fits(state)
        self._start(game_id, state)
        self.say(f"game {game_id} resumed after {len(done)} actions; {self._turn_words()}")
        return True

    def _check_fits(self, state: State) -> None:
        if state.layout.arena.size > len(self.layout.cells):
            raise SessionError(f"{state.layout.players} players play on the big arena: start "
                               f"with --layout ttb-big (this board is {self.layout.id})")
        bases = [state.layout.arena.coords[c] for c in state.layout.bases]
        Seating(self.layout, bases)  # raises if there are too few stations

    def _start(self, game_id: int, state: State) -> None:
        self.animation.stop()
        self.game_id, self.state = game_id, state
        grid = state.layout.arena
        self.seating = Seating(self.layout, [grid.coords[c] for c in state.layout.bases])
        self.bmap = leds.BoardMap(self.layout, grid)
        self.awaiting = None
        self.alerts.clear()
        self._enter_mode()
        self._base = leds.picture(Scene.from_state(state))
        self._draw()
        self._check_table()

    # -- board input ----------------------------------------------------------------
    def on_message(self, msg: Any) -> None:
        """Listener for BoardConnection: decoded messages from the board."""
        f = msg.fields
        if msg.type == m.HELLO:
            self.table.reset()  # the census that follows says what the slots hold
            self._prioritise(force=True)
            if self.mode == "animate":
                self.animation.skip()  # a board back from an unplug shows the state now
        elif msg.type == m.SLOT:
            self.on_slot(f["slot"], bool(f["present"]), f["uid"], f["payload"])
        elif msg.type == m.BUTTON:
            self.on_button(f["button"], f["action"])
        elif msg.type == m.TOUCH:
            self.on_touch(f["cell"])
        elif msg.type == m.ERROR and f["code"] == m.E_BUTTON_STUCK:
            self.say(f"a button is stuck down (board key {f['ref']}): free it; it does nothing "
                     "while held")
            self._hold(f["ref"])

    def on_slot(self, slot: int, present: bool, uid: bytes, payload: bytes) -> None:
        now = self.clock()
        if not self.table.update(slot, present, uid, payload, now):
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
        if self.table.doubled(slot, now):
            self.say(f"{C.COLOURS[ref.seat]} slot {ref.name} holds two tiles: keep one", ref.seat)
            self._schedule(DOUBLE_WINDOW_S, self._check_table)  # the blinking stops once it reads steadily
        elif self.table.flickering(slot, now):
            self.say(f"{C.COLOURS[ref.seat]} slot {ref.name} keeps coming and going: push the "
                     "tile fully in, or take it out", ref.seat)
            self._schedule(FLICKER_WINDOW_S, self._check_table)
        elif present and self.mode == "program" and ref.seat == self.state.player:
            self._acknowledge(ref.seat, ref.robot, uid, payload)
        if ref.seat == self.state.player and self.mode == "program":
            self.awaiting = None  # a second confirm counts only for an unchanged station
        self._check_table()

    def _acknowledge(self, seat: int, robot: int, uid: bytes, payload: bytes) -> None:
        try:
            self.registry.identify(uid, payload)
        except TileError as err:
            self.say(f"{C.COLOURS[seat]}: {err}", seat)
            return
        self.acks[2 * seat + robot] = self.clock() + ACK_S
        self._schedule(ACK_S + 0.01, self._draw)

    def on_button(self, button: int, action: int) -> None:
        if self.seating is None or self.state is None:
            return
        try:
            seat, role = self.seating.button(button)
        except ValueError:
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
                self.say(f"{C.COLOURS[seat]}'s {role} button is held down: release it; "
                         "nothing happens while it is held", seat)
                self._hold(button)
            return
        if action != m.PRESS:
            return
        if self.mode == "decide":
            self._decision_button(seat, role)
        elif self.mode == "program":
            if seat != self.state.player:
                self.say(f"it is {C.COLOURS[self.state.player]}'s turn, not "
                         f"{C.COLOURS[seat]}'s", seat)
            elif role == "confirm":
                self.confirm()
            elif role == "cancel":
                self.awaiting = None
                self.say("cancelled: change your tiles, then press confirm", seat)
        elif self.mode == "animate":
            if role == "confirm" or role == "next":
                self.skip()
            elif role == "previous":
                self._next_table_speed(seat)
        elif self.mode == "over" and role in ("previous", "next"):
            self._show_scores()

    def on_touch(self, board_cell: int) -> None:
        if self.mode != "decide" or self.picker is None or self.bmap is None:
            return
        cell = self.bmap.to_engine.get(board_cell)
        if cell is None:
            return
        several = sum(1 for c in self.picker.candidates if c.cell == cell) > 1
        chosen = self.picker.touch(cell)
        if chosen is None:
            self.say("that hex is not one of the choices: touch a pulsing hex",
                     self.picker.decision.player)
        elif several:
            self.say(f"selected: {chosen.words}; touch again for the other, or press confirm",
                     self.picker.decision.player)
            self._draw()
        else:
            self.decide(chosen.choice)

    # -- programming ---------------------------------------------------------------
    def confirm(self) -> None:
        """The active player pressed confirm: read their station and act on it."""
        state, seating = self.state, self.seating
        if state is None or seating is None or self.mode != "program":
            return
        seat = state.player
        slots = seating.slots_of(seat)
        now = self.clock()
        unsure = [s for s in slots if self.table.flickering(s, now) or self.table.doubled(s, now)]
        if unsure:
            names = ", ".join(seating.slot(s).name for s in unsure)  # type: ignore[union-attr]
            self._refuse(f"slot {names} does not read steadily (a tile half in, or two tiles): "
                         "fix it, then confirm", unsure)
            return
        wait = self.table.settle_in(slots, now)
        if wait > 0:  # a tile just moved: read it once it has settled
            self._schedule(wait, self.confirm)
            return
        first = state.turns < state.layout.players
        can_double = not first and not state.dm_used[seat]
        reading = physical.read_station(self.table, seating, self.registry, seat)
        verdict = physical.judge(state, seat, reading, seating, first, can_double)
        if not verdict.ok:
            self._refuse(verdict.message, list(verdict.wrong_slots))
            return
        assert verdict.action is not None
        if verdict.second_confirm:
            key = (verdict.second_confirm, reading.programs)
            if self.awaiting != key:
                self.awaiting = key
                self.say(verdict.message, seat)
                return
        self.awaiting = None
        self._apply(self.engine.action_to_str(state, verdict.action))

    def _refuse(self, message: str, slots: list[int]) -> None:
        assert self.state is not None and self.seating is not None
        self.awaiting = None
        self.say(f"refused: {message}", self.state.player)
        self._mark_slots(slots)
        self._draw()

    def _mark_slots(self, slots: list[int]) -> None:
        """Wrong slots blink red: on the robot each one programs (slots carry no LEDs)."""
        assert self.state is not None and self.seating is not None
        if not slots:
            return
        scene = Scene.from_state(self.state)
        for slot in slots:
            ref = self.seating.slot(slot)
            if ref is not None:
                cell, look = leds.robot_mark(scene, 2 * ref.seat + ref.robot, "alert", m.BLINK)
                self.alerts[cell] = look

    def _hold(self, button: int) -> None:
        """A button held down or stuck: its station's robots blink until it is released."""
        if self.seating is None:
            return
        try:
            seat, _ = self.seating.button(button)
        except ValueError:
            return
        if seat is not None:
            self.held[button] = seat
            self._check_table()

    def _check_table(self) -> None:
        """Show what to fix: tiles that differ from the game outside the active player's
        turn, tiles that cannot count (unknown, another colour), slots that do not read
        steadily, buttons held down."""
        state, seating = self.state, self.seating
        if state is None or seating is None:
            return
        self.alerts.clear()
        now = self.clock()
        problems = []
        marked: list[int] = []  # slots whose robot blinks
        for seat in range(state.layout.players):
            marked += [s for s in seating.slots_of(seat)
                       if self.table.doubled(s, now) or self.table.flickering(s, now)]
            if seat in self.held.values():
                marked += seating.slots_of(seat)[::3]  # A1 and B1: both robots
            reading = physical.read_station(self.table, seating, self.registry, seat)
            if seat == state.player and self.mode == "program":
                marked += reading.problems
                if reading.problems:
                    problems.append(f"{C.COLOURS[seat]}: " + "; ".join(reading.problems.values()))
                continue
            want = physical.seat_programs(state, seat)
            wrong = physical.differing_slots(seating, seat, want, reading.programs)
            wrong += [s for s in reading.problems if s not in wrong]
            if wrong:
                marked += wrong
                fixes = physical.undo_words(want, reading.programs) or list(reading.problems.values())
                why = "while the robots run" if self.mode == "animate" else "out of turn"
                problems.append(f"{C.COLOURS[seat]}'s tiles moved {why}: " + ", ".join(fixes))
        self._mark_slots(marked)  # one scene for all of them
        if problems:
            self.say("; ".join(problems))
        self._draw()

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
        digest = self.engine.state_hash(after)
        outcome = self.engine.outcome(after)
        n = self.journal.append(self.game_id, text, digest, outcome.to_json() if outcome else None)
        self.state = after
        self.picker = None
        self.alerts.clear()
        texts = [e.text for e in events]
        self.log.extend(texts)
        self._publish({"kind": "game", "event": "action", "n": n, "action": text,
                       "state_hash": digest, "events": texts})
        self.mode = "animate"
        self.message = texts[-1] if texts else text
        self.animation.play(frames(state, events, after), self._animation_done)

    def _animation_done(self) -> None:
        self._enter_mode()
        assert self.state is not None
        self._base = leds.picture(Scene.from_state(self.state))
        self._check_table()
        self._publish({"kind": "game", "event": "view", "view": self.view()})

    def _enter_mode(self) -> None:
        state = self.state
        assert state is not None
        decision = self.engine.pending(state)
        if self.engine.outcome(state) is not None:
            self.mode = "over"
            self.say(self._outcome_words())
        elif decision is not None:
            self.mode = "decide"
            self.picker = Picker(state, decision)
            self.say(f"{decision.prompt}: touch a pulsing hex, or previous/next and confirm",
                     decision.player)
        else:
            self.mode = "program"
            self.picker = None
        self._prioritise()

    def _prioritise(self, force: bool = False) -> None:
        """The active player's empty slots are scanned first: the next tile lands there.

        Only the empty ones: the board checks a priority slot that holds a tag
        only now and then, and (firmware as of this writing) misses departures
        when most of its priority slots hold tags; occupied slots are scanned
        in the ordinary rotation.
        """
        if self.state is None or self.seating is None:
            return
        empty = [k for k in self.seating.slots_of(self.state.player)
                 if self.table.reading(k) is None]
        if force or empty != self._priority:
            self._priority = empty
            self.board.set_priority(empty)

    def decide(self, choice: str) -> None:
        """The decider's choice (from the board or the console)."""
        if self.mode != "decide" or self.picker is None:
            raise SessionError("no decision is waiting")
        if self.picker.pick(choice) is None:
            raise SessionError(f"{choice!r} is not a choice now; choices: "
                               f"{', '.join(self.picker.decision.choices)}")
        self._apply(choice)

    def _decision_button(self, seat: int, role: str) -> None:
        assert self.picker is not None
        decider = self.picker.decision.player
        if seat != decider:
            self.say(f"this choice is {C.COLOURS[decider]}'s to make", seat)
            return
        if role in ("previous", "next"):
            chosen = self.picker.step(-1 if role == "previous" else 1)
            self.say(f"selected: {chosen.words} (confirm to choose it)", seat)
            self._draw()
        elif role == "confirm":
            self.decide(self.picker.selected.choice)

    def undo(self) -> str:
        """Take back the last journaled action (kept in the journal, marked undone)."""
        if self.game_id is None:
            raise SessionError("no game to undo in")
        taken = self.journal.undo_last(self.game_id)
        if taken is None:
            raise SessionError("nothing to undo: no action yet")
        _, state, _ = replay(self.journal, self.game_id)
        self._start(self.game_id, state)
        self.say(f"undone: {taken}; put the tiles back as the blinking robots show")
        return taken

    # -- speed --------------------------------------------------------------------------
    def set_speed(self, step_s: float) -> None:
        """Seconds per animation step (0: no animation)."""
        if not 0 <= float(step_s) <= 5:
            raise SessionError("speed is seconds per step, from 0 to 5")
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

    # -- drawing ----------------------------------------------------------------------
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
        assert self.state is not None
        scene = Scene.from_state(self.state)
        now = self.clock()
        for rid, until in list(self.acks.items()):
            if until <= now:
                del self.acks[rid]
            elif rid in scene.robots:
                cell, look = leds.robot_mark(scene, rid, "choice", m.SOLID)
                picture[cell] = look
        if self.mode == "decide" and self.picker is not None:
            for i, cand in enumerate(self.picker.candidates):
                effect = m.SPIN if i == self.picker.index else m.PULSE
                picture[cand.cell] = CellState(leds.INDEX["choice"], picture[cand.cell].facing,
                                               effect)
        picture.update(self.alerts)

    def _show_scores(self) -> None:
        if self.state is None or self.bmap is None:
            return
        scene = Scene.from_state(self.state)
        self.board.set_cells(self.bmap.board(leds.score_view(scene, list(self.state.delivered))))
        self.say("scores: " + ", ".join(f"{C.COLOURS[s]} {v}" for s, v in
                                        enumerate(final_scores(self.state))))
        self._schedule(3.0, self._draw)

    def _schedule(self, delay: float, func: Callable[[], None]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (unit tests): callers poll instead
        loop.call_later(delay, func)

    # -- words ---------------------------------------------------------------------------
    def say(self, text: str, seat: int | None = None) -> None:
        self.message, self.message_seat = text, seat
        log.info("%s", text)
        self._publish({"kind": "game", "event": "message", "text": text, "seat": seat})

    def _turn_words(self) -> str:
        assert self.state is not None
        if self.mode == "over":
            return self._outcome_words()
        if self.mode == "decide" and self.picker is not None:
            return self.picker.decision.prompt
        first = self.state.turns < self.state.layout.players
        what = ("place one order on each robot" if first
                else "change one thing in your program (or confirm twice to pass)")
        return f"{C.COLOURS[self.state.player]} to play: {what}, then press confirm"

    def _outcome_words(self) -> str:
        assert self.state is not None
        outcome = self.engine.outcome(self.state)
        if outcome is None:
            return ""
        names = " and ".join(C.COLOURS[w] for w in outcome.winners) or "nobody"
        return f"game over ({outcome.reason}): {names} won"

    def view(self) -> dict[str, Any]:
        """The console's JSON: scores, crystals, hands (sizes), countdown, decision, log."""
        state = self.state
        if state is None:
            return {"game": GAME, "game_id": None, "phase": "idle", "message": self.message}
        n = state.layout.players
        colours = C.COLOURS[:n]
        decision = self.engine.pending(state)
        outcome = self.engine.outcome(state)
        pending = None
        if decision is not None and self.picker is not None:
            pending = {**decision.to_json(), "who": colours[decision.player],
                       "selected": self.picker.selected.choice}
        return {
            "game": GAME, "game_id": self.game_id, "phase": self.mode, "players": n,
            "turn": colours[state.player], "current_player": self.engine.current_player(state),
            "turns": state.turns, "round": state.turns // n + 1,
            "scores": {c: points(state.delivered[s]) for s, c in enumerate(colours)},
            "final_scores": {c: v for c, v in zip(colours, final_scores(state))},
            "delivered": {c: dict(zip(("blue", "green", "pink"), state.delivered[s]))
                          for s, c in enumerate(colours)},
            "hands": {c: len(state.hands[s]) for s, c in enumerate(colours)},
            "double_modification_used": {c: state.dm_used[s] for s, c in enumerate(colours)},
            "programs": {f"{c} {'AB'[k]}": [C.TILE_CODES[t] for t in state.programs[2 * s + k]]
                         for s, c in enumerate(colours) for k in (0, 1)},
            "track": len(state.track),
            "countdown": state.countdown if state.countdown >= 0 else None,
            "pending": pending, "awaiting_second_confirm": self.awaiting[0] if self.awaiting else None,
            "outcome": outcome.to_json() if outcome else None, "over": outcome is not None,
            "winner": [colours[w] for w in outcome.winners] if outcome else None,
            "message": self.message, "message_for": colours[self.message_seat]
            if self.message_seat is not None and self.message_seat < n else None,
            "log": list(self.log)[-50:], "speed": self.animation.step_s,
            "state_hash": self.engine.state_hash(state),
            "stations": {colours[s]: self.layout.stations[st].name
                         for s, st in enumerate(self.seating.station_of)} if self.seating else {},
        }
