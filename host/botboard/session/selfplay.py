"""Playing without people: virtual hands at the simulated board.

``Hands`` does what players do at the table, through the simulated board's
control socket only: put virtual tagged tiles into the virtual readers, take
them out, press buttons, touch hexes. It looks at the table the way people
do (what the board reports, what the session says), and may ask the engine
which moves are legal to pick one, but it never gives the session an action:
the session reads every move from the slots, as at a real table.
"""

from __future__ import annotations

import asyncio
import sys
import random
import time
from dataclasses import dataclass
from typing import Any

from bbshared import messages as m

from ..link.connection import BoardConnection
from ..patience import load_factor  # the one rule for waits (also the tests')
from ..board.sim_control import SimControl, SimControlError
from .mapping import TileError
from .session import GameSession

HOLD_S = 0.05  # a press held this long (the simulated board holds it until its scan has seen it)
PHONE_OVER = 6  # more choices than this on one cell are picked on the phone, as a player would
WAIT_S = 20.0  # longest wait for the board or the session before giving up, on an idle machine


def random_program(session: GameSession, seat: int, rng: random.Random, phone: Any = None) -> list[Any]:
    """A random legal program's tiles for ``seat``; what tiles cannot say (a VOLT die's face and
    key) is set as the seat's phone would set it (``phone``: the game its phone talks to)."""
    settings: dict[str, Any] = {}
    tiles = session.mapping.random_program(session.state, seat, rng, settings)
    for name, value in settings.items():
        (phone or session).set_control(seat, name, value)
    return tiles


@dataclass(frozen=True)
class Place:
    """Where a seat's hands play: its table's board, that board's control, its phone's game."""
    conn: BoardConnection
    ctl: SimControl
    phone: Any

class SelfplayError(RuntimeError):
    pass


class BoardRestarted(SelfplayError):
    """The board went away and came back while a hand was at work: look again."""


class Hands:
    """``places``: seats that play at another table (remote play) and where; the others play
    at ``conn``'s board, their phones talking to ``session``."""

    def __init__(self, session: GameSession, conn: BoardConnection, control: SimControl,
                 seed: int, wait_s: float = WAIT_S, places: dict[int, Place] | None = None) -> None:
        self.session = session
        self.places = places or {}
        self.here = Place(conn, control, session)
        self.wait_s = wait_s  # longest wait for the board or the session (a damaged link needs more)
        self.conn = conn
        self.ctl = control
        self.rng = random.Random(seed)
        self.alive: Any = lambda: True  # False once the board is known dead (selfplay's own sim)
        self.reported: list[tuple[int, int]] = []  # (button, action) the board reported
        for conn_ in {id(p.conn): p.conn for p in [self.here, *self.places.values()]}.values():
            conn_.listeners.append(self._hear)

    def at(self, seat: int) -> Place:
        return self.places.get(seat, self.here)

    def _hear(self, msg: Any) -> None:
        if msg.type == m.BUTTON:
            self.reported.append((msg.fields["button"], msg.fields["action"]))

    # -- looking ------------------------------------------------------------------
    async def until(self, predicate: Any, what: str, timeout: float | None = None,
                    across_restarts: bool = False, since: int | None = None) -> None:
        """Wait for ``predicate``; BoardRestarted if the board is or was away meanwhile
        (what a hand did or waited for may be lost with it: a press while the cable is
        out is), unless the wait is meant to span restarts. ``since``: the connection
        (``conn.reconnects``) the hand's work began on, if before this wait."""
        waited = (self.wait_s if timeout is None else timeout) * load_factor()
        deadline = time.monotonic() + waited
        connection = self.conn.reconnects if since is None else since
        while not predicate():
            if not self.alive():  # nothing will come: say so now, not at the deadline
                raise SelfplayError(f"the board or its link stopped while waiting for {what}")
            if not across_restarts and (self.conn.reconnects != connection
                                        or self.conn.state != "connected"):
                raise BoardRestarted(f"the board was away while waiting for {what}")
            if time.monotonic() > deadline:
                raise SelfplayError(f"waited {waited:.0f} s for {what} in vain; the session says: "
                                    f"{self.session.message}")
            await asyncio.sleep(0.01)

    def held(self, slot: int) -> Any:
        """The tile a slot holds as the session reads it (None: empty or unreadable)."""
        reading = self.session.table.reading(slot)
        if reading is None:
            return None
        try:
            return self.session.mapping.identify(reading.uid, reading.payload)
        except TileError:
            return None

    def ready(self) -> bool:
        s = self.session
        return self.conn.state == "connected" and s.mode in ("clear", "program", "decide", "over")

    # -- hands ----------------------------------------------------------------------
    async def set_station(self, seat: int, want: list[Any]) -> None:
        """Make a station's slots hold ``want``: take out what differs, then put in."""
        seating = self.session.seating
        assert seating is not None
        table, mapping = self.session.table, self.session.mapping
        slots = seating.slots_of(seat)
        connection = self.conn.reconnects  # a board replaced meanwhile holds none of the kept tiles
        keep = [self.held(slot) == want[pos] and want[pos] is not None
                for pos, slot in enumerate(slots)]
        emptied = []
        for pos, slot in enumerate(slots):
            if not keep[pos] and table.reading(slot) is not None:
                await self.at(seat).ctl.remove(slot)
                emptied.append(slot)
        await self._see_taken_out(seat, emptied)
        # (a board replaced meanwhile reads its slots again: a kept slot may read nothing yet)
        in_use = {reading.uid for pos, slot in enumerate(slots)
                  if keep[pos] and (reading := table.reading(slot)) is not None}
        for pos, slot in enumerate(slots):
            if keep[pos] or want[pos] is None:
                continue
            for serial in range(1, 10):  # two tiles of one kind are two tags
                uid, data = mapping.virtual_tag(want[pos], serial)
                if uid not in in_use:
                    break
            in_use.add(uid)
            await self._take_from_elsewhere(seat, slots, uid)
            await self.at(seat).ctl.place(slot, uid, data)
        name = self.session.seat_name(seat)
        await self.until(lambda: [self.held(s) for s in slots] == want,
                         f"the {name} station to read {[str(t) for t in want]}", since=connection)

    async def _take_from_elsewhere(self, seat: int, slots: list[int], uid: bytes) -> None:
        """A tile is in one place: one still lying in another station's slot (a card dealt
        again, a tile handed over) is taken from there first, as a hand would, and the board
        must see it go (a UID heard at two slots at once is a cross-read fault, not two tiles)."""
        seating = self.session.seating
        assert seating is not None
        table = self.session.table
        for other in range(seating.layout.slot_count):
            reading = table.reading(other)
            if other in slots or reading is None or reading.uid != uid:
                continue
            ref = seating.slot(other)
            owner = ref.seat if ref is not None else seat
            await self.at(owner).ctl.remove(other)
            await self._see_taken_out(owner, [other])
        # a tile left on this board in a station that now plays at another table (remote
        # play: the seats changed stations) lies there still: a hand takes it away too
        place = self.at(seat)
        for other in place.phone.slots_here_holding(uid):
            if other not in slots:
                await place.ctl.remove(other)
                await self.until(lambda: other not in place.phone.slots_here_holding(uid),
                                 f"the board to see the tile taken out of slot {other}")

    async def _see_taken_out(self, seat: int, emptied: list[int]) -> None:
        """A hand takes a tile out before putting another in, and looks that the board saw it.

        A departure the board missed is retried as a person would: put the
        tile back, take it out again.
        """
        table = self.session.table
        for attempt in range(4):
            try:
                await self.until(lambda: all(table.reading(k) is None for k in emptied),
                                 f"the {self.session.seat_name(seat)} station to see tiles taken out",
                                 timeout=2.0 if attempt < 3 else self.wait_s)
                return
            except BoardRestarted:
                raise
            except SelfplayError:
                if attempt == 3:
                    raise
            for slot in emptied:
                reading = table.reading(slot)
                if reading is not None:
                    await self.at(seat).ctl.place(slot, reading.uid, reading.payload)
                    await asyncio.sleep(0.3 * load_factor())  # held long enough for a busy board's scan
                    await self.at(seat).ctl.remove(slot)

    async def press(self, seat: int, role: str) -> None:
        """Press and release as a finger does; both must be reported. The simulated board
        keeps a released key down until its scan has seen the press: however busy the
        machine, a press is never lost, and never held into a long press."""
        assert self.session.seating is not None
        button = self.session.seating.button_of(seat, role)
        self.reported.clear()
        ctl = self.at(seat).ctl
        await ctl.button(button, "press")
        await asyncio.sleep(HOLD_S)
        await ctl.button(button, "release")
        await self.until(lambda: (button, m.RELEASE) in self.reported or not self.alive(),
                         f"the board to report the {role} button's press and release")

    # -- playing ----------------------------------------------------------------------
    async def restore_others(self, acting: list[int]) -> None:
        """Put back any station that does not hold what the game says (a restarted board)."""
        session = self.session
        assert session.seating is not None
        for seat in range(session.seating.players):
            if seat in acting or seat in session.confirmed or not session.seating.holds(seat) \
                    or session.is_computer(seat):
                continue  # (a station partners share is put right once; the computer's holds none)
            want = session.mapping.station_tiles(session.state, seat)
            if [self.held(s) for s in session.seating.slots_of(seat)] != want:
                await self.set_station(seat, want)

    async def play_turn(self) -> None:
        """Every seat that may program does: lays a random legal program, confirms."""
        session = self.session
        assert session.game_id is not None
        acting = session.acting()
        # counted before the hands move: a computer seat may play while they put stations back
        done = len(session.journal.actions(session.game_id))
        await self.restore_others(acting)
        if all(session.is_computer(seat) for seat in acting):
            await self._computer_moves(done)
            return
        for seat in [s for s in acting if not session.is_computer(s)]:
            if session.mode != "program" or seat not in session.acting():
                return  # the game moved on (the last confirm played the turn)
            done = len(session.journal.actions(session.game_id))
            await self.set_station(seat, random_program(session, seat, self.rng, self.at(seat).phone))
            await self.press(seat, "confirm")
            deadline = time.monotonic() + self.wait_s * load_factor()
            refused = False
            while seat in session.acting() and len(session.journal.actions(session.game_id)) == done:
                if seat in session.awaiting:
                    await self.press(seat, "confirm")  # the second confirm: pass, or the joker
                    await self.until(lambda: seat not in session.awaiting, "the second confirm")
                if refused and seat not in session.refusals:
                    # the refusal's cause went by itself (a tile that hands had just moved
                    # through the slot read unsteadily): a player presses confirm again
                    await self.press(seat, "confirm")
                refused = seat in session.refusals
                if time.monotonic() > deadline:
                    raise SelfplayError(f"{session.seat_name(seat)}'s program was not taken: "
                                        f"{session.seat_messages.get(seat) or session.message}")
                await asyncio.sleep(0.02)

    async def clear(self) -> None:
        """A round boundary: hands take off what the table asks for (clearing.py)."""
        session = self.session
        for seat in list(session.clearing):
            if session.mode == "clear" and seat in session.clearing:
                await self.set_station(seat, session.mapping.station_tiles(session.state, seat))
        await self.until(lambda: session.mode != "clear", "the table to see its stations cleared")

    async def _computer_moves(self, done: int) -> None:
        """The computer's seats are thinking: hands wait for the game to move on from ``done``
        actions."""
        session = self.session
        await self.until(lambda: len(session.journal.actions(session.game_id or 0)) > done
                         or session.mode == "over", "the computer's move")

    async def decide(self) -> None:
        session = self.session
        picker = session.picker
        assert picker is not None and session.bmap is not None and session.game_id is not None
        done = len(session.journal.actions(session.game_id))
        if session.is_computer(picker.decision.player):
            await self._computer_moves(done)
            return
        index = self.rng.randrange(len(picker.candidates))
        chosen = picker.candidates[index]
        alone = sum(1 for c in picker.candidates if c.cell == chosen.cell) == 1
        seat = picker.decision.player
        by_phone = (session.mapping.private_choices(picker.decision)
                    or (len(picker.candidates) > PHONE_OVER and not alone))
        if by_phone:  # as a player does with a secret or long list: on the seat's phone
            self.at(seat).phone.decide(chosen.choice, seat)
        elif alone and session.layout.touch:
            cell = session.bmap.to_board[chosen.cell]
            ctl = self.at(seat).ctl
            await ctl.request("touch", cell=cell, action="press")
            await asyncio.sleep(HOLD_S)
            await ctl.request("touch", cell=cell, action="release")
        else:
            while session.picker is picker and picker.selected.choice != chosen.choice:
                before = picker.index
                await self.press(seat, "next")
                await self.until(lambda: picker.index != before, "the selection to move")
            await self.press(seat, "confirm")
        await self.until(lambda: len(session.journal.actions(session.game_id or 0)) > done,
                         f"the decision {chosen.choice}")

    async def play(self, max_actions: int = 2000) -> None:
        """Play until the game is over (board restarts and refusals are lived through)."""
        session = self.session
        let_go, unanswered = False, 0
        for _ in range(max_actions):
            await self.until(self.ready, "the board and the session to be ready", 60,
                             across_restarts=True)
            if session.mode == "over":
                return
            try:
                if not let_go:  # hands let go of what they held when a killed host left them
                    await self._let_go()
                    let_go = True
                if session.mode == "clear":
                    await self.clear()
                elif session.mode == "decide":
                    await self.decide()
                else:
                    await self.play_turn()
                unanswered = 0
            except (SimControlError, ConnectionError, OSError) as err:
                unanswered += 1  # the board went away: wait for it, then look again
                if unanswered == 3:
                    raise SelfplayError(str(err)) from None
                await asyncio.sleep(0.5)
            except BoardRestarted:
                continue
            except SelfplayError:
                if self.conn.state == "connected" or not self.alive():
                    raise
        raise SelfplayError(f"no end after {max_actions} actions")

    async def _let_go(self) -> None:
        for button in range(self.session.layout.button_count):
            for place in {id(p.ctl): p for p in [self.here, *self.places.values()]}.values():
                await place.ctl.button(button, "release")


def progress(event: dict[str, Any]) -> None:
    """One line on stderr per action the game takes, as the table sees it (stdout keeps
    the summary alone, for scripts)."""
    if event.get("kind") == "game" and event.get("event") == "action":
        print(f"action {event['n'] + 1}: {event['action']}", file=sys.stderr, flush=True)


def summary(session: GameSession) -> dict[str, Any]:
    """What ``botboard selfplay`` prints of a finished game: the outcome, turns and hash."""
    assert session.game_id is not None
    engine, state = session.engine, session.state
    record = session.journal.game(session.game_id)
    replayed, turns = engine.new_game(record.players, record.options, record.seed), 0
    for row in session.journal.actions(session.game_id):
        action = engine.action_from_str(replayed, row["action"])
        turns += engine.is_turn(replayed, action)
        replayed, _ = engine.apply(replayed, action)
    outcome = engine.outcome(state)
    return {"game": session.game_id, "game_name": session.game,
            "winner": [session.seat_name(w) for w in outcome.winners] if outcome else None,
            "reason": outcome.reason if outcome else None, "turns": turns,
            "actions": len(session.journal.actions(session.game_id)),
            "state_hash": engine.state_hash(state), "players": record.players, "seed": record.seed}


async def run(players: int, seed: int, options: dict[str, Any], data_dir: str | None,
              layout_name: str | None = None, step_s: float = 0.0, port: str | None = None,
              control: str | None = None, resume: bool = False,
              game: str | None = None, wait_s: float = WAIT_S,
              computers: dict[int, str] | None = None, think_s: float = 2.0,
              chip: str | None = None) -> dict[str, Any]:
    """One selfplay game through a simulated board (``chip="rp2040"``: the emulated Pico);
    the summary ``botboard selfplay`` prints."""
    from .. import games
    from ..board import layouts
    from ..link.image import BoardImage
    from ..board.sim import SimBoard
    from .host import make_session

    layout = layouts.load(layout_name or games.table(game or games.default_name()).default_layout(players))
    sim: SimBoard | None = None
    slower = 1.0  # how much later than a Pico the board answers
    if port is None:
        if chip:
            from ..chip.board import ChipBoard

            sim = ChipBoard(layout.id)
            slower = ChipBoard.SLOWER
            wait_s *= slower
        else:
            sim = SimBoard(layout.id)
        try:
            sim.start()
        except RuntimeError as err:  # ChipError: no emulator, no image
            raise SelfplayError(str(err)) from err
        port, control = sim.port, f"127.0.0.1:{sim.control_port}"
    if control is None:
        raise SelfplayError("a board given with --port needs its --control HOST:PORT "
                            "(the simulated board prints it)")
    host, _, ctl_port = control.rpartition(":")
    conn = BoardConnection(port, BoardImage.blank(len(layout.cells)), patience=slower)
    session = make_session(layout, conn, data_dir, publish=progress, step_s=step_s, game=game)
    link = asyncio.create_task(conn.run())
    ctl = SimControl(host or "127.0.0.1", int(ctl_port))
    try:
        if not (resume and session.resume()):
            session.new_game(players, options, seed)
        session.set_computers(computers or {}, think_s)
        hands = Hands(session, conn, ctl, seed, wait_s)
        board_runs = (lambda: sim.proc is not None and sim.proc.poll() is None) if sim is not None \
            else (lambda: True)
        hands.alive = lambda: board_runs() and not link.done()
        try:
            await hands.play()
        except SelfplayError as err:
            if link.done() and not link.cancelled() and link.exception() is not None:
                raise SelfplayError(f"the link to the board failed: {link.exception()!r}") from err
            if sim is not None and sim.proc is not None and sim.proc.poll() is not None:
                raise SelfplayError(f"the simulated board died{sim.last_words()}") from err
            if sim is not None and sim.last_words():
                raise SelfplayError(f"{err}; the simulated firmware failed{sim.last_words()}") from err
            raise
        return summary(session)
    finally:
        link.cancel()
        conn.close()
        ctl.close()
        session.stop_thinking()
        session.journal.close()
        if sim is not None:
            sim.stop()
