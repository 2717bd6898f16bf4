"""Table latency in the simulated board: tag placed -> acknowledgement, confirm -> first frame.

For each link (paced like a UART at --baud, and unpaced) the bench starts the
simulated board and a session of --game (2 players, a journal in a temporary
directory) and measures, over --samples repetitions:

* tag_to_ack: a virtual tag is put on one of the last acting seat's readers
  (control socket) until the board's cell memory shows the robot that slot
  programs acknowledging it;
* confirm_to_frame: confirm is pressed (a legal program lies in the slots;
  the other seats, if programming is simultaneous, have confirmed theirs)
  until the board shows the first frame of the turn's animation; the action
  is then undone for the next sample.

Every figure is split into link time (the frames' counted bytes at the baud
rate: 10 bits a byte, 0 when unpaced), host time (measured: the message's
arrival in the session to the cell update handed to the link, the journal's
committed write included) and firmware time (the rest: scanning, debouncing
and matrix scans, rendering, the control socket's polling resolution). The
host's CPU time over the same span (the event loop's thread) is reported
beside it (``*_host_cpu_ms_*``).

``--thinking process`` measures once more, paced, while a search player of the
measured seat thinks throughout in the session's thinking workers, as a
computer seat does (``*_paced_thinking``); ``--thinking thread`` thinks in a
thread of the host instead, as computer seats did before (for comparison).
``--pi-class`` runs it all under a CPU quota standing for a Raspberry Pi 3's
core (quota.py); the simulated board's firmware and relays stay outside it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import tempfile
import time
from typing import Any, Callable

from bbshared import frame
from bbshared import messages as m

from .. import games
from ..board import layouts
from ..link.connection import BoardConnection
from ..link.image import BoardImage, CellState
from ..players import Situation, make
from ..session.host import make_session
from ..session.selfplay import load_factor, random_program
from ..session.session import GameSession
from ..session.thinking import ThinkingPool
from .quota import PI_CLASS_SHARE, cpu_quota
from ..board.sim import SimBoard
from ..board.sim_control import SimControl
from ..cli import values


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None, help="the game at the table: "
                        + ", ".join(games.table_names()) + f" (default {games.default_name()})")
    parser.add_argument("--samples", type=values.COUNT, default=20, help="samples per figure (default 20)")
    parser.add_argument("--baud", type=values.BAUD, default=115200, help="paced link rate (default 115200)")
    parser.add_argument("--thinking", choices=("process", "thread"),
                        help="measure again while a search player thinks throughout, in a worker "
                             "process as at the table, or in a thread of the host (before)")
    parser.add_argument("--pi-class", action="store_true",
                        help=f"run under a CPU quota of {PI_CLASS_SHARE} CPU, a Pi 3's core (needs root)")


def _frame_bytes(mtype: int, payload_: bytes) -> int:
    return len(frame.build(1, mtype, 0, 0, payload_))


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


class _Probe:
    """Times, in the host, from a board message to the session's next cell update."""

    def __init__(self, session: GameSession) -> None:
        self.arrived = self.arrived_cpu = 0.0
        self.host_ms: list[float] = []
        self.host_cpu_ms: list[float] = []
        self.sent_payload = 0
        board = session.board
        original: Callable[[dict[int, CellState]], None] = board.set_cells

        image = getattr(getattr(board, "conn", None), "image", None)

        def timed(changes: dict[int, CellState]) -> None:
            shown = list(image.cells) if image is not None else []
            original(changes)
            if self.arrived:
                self.host_ms.append((time.perf_counter() - self.arrived) * 1000)
                self.host_cpu_ms.append((time.thread_time() - self.arrived_cpu) * 1000)
                # SET_CELLS carries only the cells that change: 4 bytes each
                self.sent_payload = 4 * sum(1 for i, c in changes.items()
                                            if i >= len(shown) or shown[i] != c)
                self.arrived = 0.0

        board.set_cells = timed  # type: ignore[method-assign]
        receive = session.on_message

        def on_message(msg: Any) -> None:
            if msg.type in (m.SLOT, m.BUTTON):
                self.arrived, self.arrived_cpu = time.perf_counter(), time.thread_time()
            receive(msg)

        session.on_message = on_message  # type: ignore[method-assign]


async def _cells(ctl: SimControl) -> bytes:
    return await ctl.cells()


async def _until_read(session: GameSession, slot: int, reading: Any, timeout: float = 5.0) -> None:
    """Until the session reads ``slot`` as ``reading`` (None: empty): a departure takes a
    rotation of the occupied slots to be seen."""
    start, timeout = time.perf_counter(), timeout * load_factor()
    while session.table.reading(slot) != reading:
        if time.perf_counter() - start > timeout:
            raise RuntimeError(f"slot {slot} was never read as {reading}: {_debug(session)}")
        await asyncio.sleep(0.01)


async def _until_changed(ctl: SimControl, before: bytes, timeout: float = 5.0) -> float:
    start, timeout = time.perf_counter(), timeout * load_factor()  # a loaded machine is slow
    while time.perf_counter() - start < timeout:
        if await ctl.cells() != before:
            return time.perf_counter()
    raise TimeoutError("the board never showed the change")


async def _until_shown(ctl: SimControl, cells: bytes, timeout: float = 2.0) -> None:
    """Until the board shows ``cells`` again (a frame already sent may still be on its way)."""
    start, timeout = time.perf_counter(), timeout * load_factor()
    while await ctl.cells() != cells and time.perf_counter() - start < timeout:
        await asyncio.sleep(0.02)


def _debug(session: GameSession) -> str:
    return f"{session.message} mode={session.mode} table={session.table.contents()}"


async def _lay(session: GameSession, ctl: SimControl, seat: int, tiles: list[Any]) -> None:
    """Put a program's tiles in a seat's slots (serial 1) and wait for the session to read them."""
    assert session.seating is not None
    slots = session.seating.slots_of(seat)
    for slot, tile in zip(slots, tiles):
        if tile is not None:
            await ctl.place(slot, *session.mapping.virtual_tag(tile, 1))
    while sum(1 for s in slots if session.table.reading(s)) < sum(1 for t in tiles if t is not None):
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.5)  # settled, acknowledgements faded


class _Thinker:
    """A search player of ``seat`` thinking again and again about the position it was given,
    in a worker process (as a computer seat does) or in a thread of the host."""

    def __init__(self, session: GameSession, seat: int, where: str) -> None:
        self.moves = 0
        self._task = asyncio.create_task(self._think(session.engine, session.state, seat, where))

    async def _think(self, engine: Any, state: Any, seat: int, where: str) -> None:
        player, pool = make("search", seed=1, budget_s=1.0), ThinkingPool(1)
        loop = asyncio.get_running_loop()
        try:
            while True:
                if where == "process":
                    _, player = await pool.think(player, engine, state, seat)
                else:
                    await loop.run_in_executor(None, player.choose, Situation.of(engine, state, seat))
                self.moves += 1
        finally:
            pool.close()

    def stop(self) -> int:
        self._task.cancel()
        return self.moves


async def _measure(game: str, baud: int | None, samples: int, thinking: str | None = None) -> dict[str, Any]:
    session_game = games.canonical(game)
    layout = layouts.load(games.table(session_game).default_layout(2))
    sim = SimBoard(layout.id, baud=baud)
    sim.start()
    conn = BoardConnection(sim.port, BoardImage.blank(len(layout.cells)))
    with tempfile.TemporaryDirectory() as tmp:
        session = make_session(layout, conn, tmp, step_s=0.2, game=session_game)
        conn.listeners.remove(session.on_message)
        probe = _Probe(session)
        conn.listeners.append(session.on_message)
        link = asyncio.create_task(conn.run())
        ctl = SimControl("127.0.0.1", sim.control_port)
        rng = random.Random(1)
        try:
            while conn.state != "connected":
                await asyncio.sleep(0.02)
            session.new_game(2, dict(games.declaration(session_game).quick_options), 1)
            await _decide_until_programming(session)
            assert session.seating is not None
            *others, seat = session.acting()
            for other in others:  # simultaneous programming: the others confirm first
                await _lay(session, ctl, other, random_program(session, other, rng))
                await _press(ctl, session.seating.button_of(other, "confirm"))
            program = _taken_at_first_confirm(session, seat, rng)
            settings = dict(session.controls.get(seat, {}))
            placed = [(pos, tile) for pos, tile in enumerate(program) if tile is not None][:2]
            slots = session.seating.slots_of(seat)
            thinker = _Thinker(session, seat, thinking) if thinking else None
            ack: list[float] = []
            ack_host: list[float] = []
            ack_cpu: list[float] = []
            at_rest = await ctl.cells()
            for i in range(samples):
                # the same tag back again and again would be flicker: take turns between two tiles
                # (a one-tile program, as Goblins' placing, between two copies of its tile)
                pos, tile = placed[i % len(placed)]
                tag = session.mapping.virtual_tag(tile, 1 + (i // len(placed)) % 2)
                before = await ctl.cells()
                t0 = time.perf_counter()
                await ctl.place(slots[pos], *tag)
                try:
                    ack.append((await _until_changed(ctl, before) - t0) * 1000)
                except TimeoutError:
                    raise RuntimeError(f"the tag's acknowledgement never showed: {_debug(session)}")
                ack_host.append(probe.host_ms[-1] if probe.host_ms else 0.0)
                ack_cpu.append(probe.host_cpu_ms[-1] if probe.host_cpu_ms else 0.0)
                await asyncio.sleep(0.45)  # the acknowledgement fades
                await ctl.remove(slots[pos])
                await asyncio.sleep(0.4)  # a hand takes longer than this to bring the next tile
                await _until_read(session, slots[pos], None)
                await _until_shown(ctl, at_rest)  # or the next tile's ack may be the frame still showing
            slot_bytes = _frame_bytes(m.SLOT, m.encode(m.SLOT, slots[0], 1, *tag))
            ack_bytes = _frame_bytes(m.SET_CELLS, bytes(4 * 1))
            await _lay(session, ctl, seat, program)
            confirm = session.seating.button_of(seat, "confirm")
            done = len(session.journal.actions(session.game_id or 0))
            frame_ms: list[float] = []
            frame_host: list[float] = []
            frame_cpu: list[float] = []
            frame_payload = 0
            for i in range(samples):
                await asyncio.sleep(0.6)  # settled, acknowledgements faded
                for name, value in settings.items():  # undo forgets them (Goblins: the tile's turn)
                    session.set_control(seat, name, value)
                def seen() -> None:
                    nonlocal frame_payload
                    frame_host.append(probe.host_ms[-1] if probe.host_ms else 0.0)
                    frame_cpu.append(probe.host_cpu_ms[-1] if probe.host_cpu_ms else 0.0)
                    frame_payload = max(frame_payload, probe.sent_payload)

                frame_ms.append(await confirm_to_frame(session, ctl, ctl, confirm, done, seen))
            button_bytes = _frame_bytes(m.BUTTON, m.encode(m.BUTTON, confirm, m.PRESS))
            first_frame_bytes = _frame_bytes(m.SET_CELLS, bytes(frame_payload))
            thoughts = thinker.stop() if thinker else 0
        finally:
            link.cancel()
            conn.close()
            ctl.close()
            session.journal.close()
            sim.stop()
    byte_ms = 10_000 / baud if baud else 0.0
    figures = _split("tag_to_ack", ack, ack_host, ack_cpu, (slot_bytes + ack_bytes) * byte_ms) | _split(
        "confirm_to_frame", frame_ms, frame_host, frame_cpu, (button_bytes + first_frame_bytes) * byte_ms)
    return figures | ({"moves_thought": thoughts} if thinking else {})


async def confirm_to_frame(session: GameSession, press: SimControl, watch: SimControl, confirm: int,
                           done: int, on_frame: Callable[[], None] = lambda: None) -> float:
    """Press confirm on ``press``'s board and time (ms) the first changed frame on ``watch``'s
    (``on_frame`` is called as it shows); then the action is undone for the next sample."""
    before = await watch.cells()
    t0 = time.perf_counter()
    await press.button(confirm, "press")
    elapsed = (await _until_changed(watch, before) - t0) * 1000
    on_frame()
    await press.button(confirm, "release")
    await asyncio.sleep(0.3)
    session.skip()
    await asyncio.sleep(0.1)
    if len(session.journal.actions(session.game_id or 0)) == done:
        raise RuntimeError(f"confirm was not taken: {_debug(session)}")
    session.undo()
    return elapsed


async def _decide_until_programming(session: GameSession) -> None:
    """Decisions before the first program (Goblins: the tiles kept) are taken on the phone."""
    await asyncio.sleep(0.5)
    while session.mode in ("decide", "animate"):
        if session.mode == "decide" and session.picker is not None:
            session.decide(session.picker.candidates[0].choice, session.picker.decision.player)
        session.skip()
        await asyncio.sleep(0.2)


def _taken_at_first_confirm(session: GameSession, seat: int, rng: random.Random) -> list[Any]:
    """A random legal program that needs no second confirm (Goblins: a loose tile asks one)."""
    assert session.seating is not None
    slots = session.seating.slots_of(seat)
    for _ in range(50):
        program = random_program(session, seat, rng)
        reading = session.mapping.read_station(session.state, seat, program, slots)
        verdict = session.mapping.judge(session.state, seat, reading, slots, session.controls.get(seat, {}))
        if verdict.ok and not verdict.second_confirm:
            break
    return program


async def _press(ctl: SimControl, button: int) -> None:
    await ctl.button(button, "press")
    await asyncio.sleep(0.1)
    await ctl.button(button, "release")
    await asyncio.sleep(0.3)


def _split(name: str, total: list[float], host: list[float], cpu: list[float],
           link_ms: float) -> dict[str, Any]:
    firmware = [max(0.0, t - h - link_ms) for t, h in zip(total, host)]
    return {f"{name}_ms_p50": _pct(total, 0.5), f"{name}_ms_p99": _pct(total, 0.99),
            f"{name}_link_ms": round(link_ms, 2),
            f"{name}_host_ms_p50": _pct(host, 0.5), f"{name}_host_ms_p99": _pct(host, 0.99),
            f"{name}_host_cpu_ms_p50": _pct(cpu, 0.5), f"{name}_host_cpu_ms_p99": _pct(cpu, 0.99),
            f"{name}_firmware_ms_p50": _pct(firmware, 0.5),
            f"{name}_firmware_ms_p99": _pct(firmware, 0.99),
            f"{name}_mean_ms": round(statistics.fmean(total), 2)}


def run(args: argparse.Namespace) -> dict[str, Any]:
    game = games.canonical(args.game or games.default_name())
    out: dict[str, Any] = {"game": game, "samples": args.samples, "baud": args.baud,
                           "layout": games.table(game).default_layout(2)}
    runs: list[tuple[str, int | None, str | None]] = [("paced", args.baud, None), ("unpaced", None, None)]
    if args.thinking:
        runs.append(("paced_thinking", args.baud, args.thinking))
        out["thinking_in"] = args.thinking
    with cpu_quota(PI_CLASS_SHARE) if args.pi_class else contextlib.nullcontext():
        for label, baud, thinking in runs:
            figures = asyncio.run(_measure(game, baud, args.samples, thinking))
            out.update({f"{k}_{label}": v for k, v in figures.items()})
    if args.pi_class:
        out["cpu_share"] = PI_CLASS_SHARE
    out["target_ms_p99_paced"] = 100 if args.pi_class else 50
    out["note"] = ("link: counted frame bytes at the baud rate; host: measured in the session (cpu: "
                   "the event loop thread's CPU time meanwhile); firmware: the rest, including the "
                   "control socket's polling (about 1 ms)")
    return out
