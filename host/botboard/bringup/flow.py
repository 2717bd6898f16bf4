"""The guided first hour on a connected board: the steps, what the maker is asked, the answers.

One ``Bringup`` per daemon started by ``botboard bringup`` (no game runs meanwhile: the LEDs and
slots are the bringup's). It asks one thing at a time (``ask``, with a prompt in words):

- **leds**: it lights one cell; the maker clicks, on the arena the console draws from the layout,
  the cell that lit (or "nothing lit"). Per chain it asks the first two cells and the last: that
  tells a chain that is right, reversed or shifted; a chain that is none of these is asked cell
  by cell.
- **readers**: "lay a tile on slot N of station S": once a tag arrived and the readers holding
  one have stayed the same for a settle time, they are what hears that slot (one tile, moved
  from slot to slot: one action a slot).
- **buttons**: "press the confirm button of station S": the first press reported is that button.
- **supply**: the board reads its LED rail (GET_SUPPLY) dark, then at full white within its LED
  budget.

Then ``findings`` names the faults and the corrected layout is written beside the data
directory, with its diff. The console and the CLI answer through ``answer``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any, Protocol

from bbshared import messages as m

from ..board.layouts import BUTTON_ROLES, Layout
from ..board.tools import ToolError, brightest
from ..link.connection import BoardConnection, Message
from ..link.image import CellState
from . import findings, layout_file
from .findings import Coord, Finding, Reading

log = logging.getLogger("botboard.bringup")

STEPS = ("leds", "readers", "buttons", "supply")
SETTLE_S = 0.6  # a tile's readers: all that hear it, and none that heard the last slot, by then
SUPPLY_TRIES = 3
SUPPLY_WAIT_S = 2.0  # for a SUPPLY answer (unreliable both ways: asked again)
LIGHT_WAIT_S = 4.0  # for the renderer to draw full white (its estimate reaches the budget)


class BringupHost(Protocol):
    """What the flow needs of the daemon: the board, its layout, the live updates."""

    layout: Layout
    conn: BoardConnection | None

    def publish(self, event: dict[str, Any]) -> None: ...


class Bringup:
    def __init__(self, host: BringupHost, out: Path) -> None:
        self.host = host
        self.layout = host.layout
        self.out = out
        self.state = "ready"  # running, done, failed
        self.step = ""
        self.ask: dict[str, Any] = {}  # what the maker is asked now ({} when nothing)
        self.asked = 0  # numbers the asks: a client sees a new one
        self.prompt = "Press Start: the board lights cells, then asks for tiles and presses."
        self.findings: list[Finding] = []
        self.figures: dict[str, Any] = {}
        self.result: dict[str, Any] = {}  # path and diff of the corrected layout
        self.deploy_requested = asyncio.Event()
        self.boot_errors: dict[int, str] = {}  # reader -> the board's words about it
        self._answer: asyncio.Future[Any] | None = None
        self._present: set[int] = set()  # readers holding a tag now
        self._arrived = False  # a tag arrived since the slot was asked for
        self._changed_at = 0.0
        self._pressed: int | None = None
        self._supply_reply: asyncio.Future[Reading] | None = None
        self._task: asyncio.Task[None] | None = None

    # -- from the board ------------------------------------------------------------------
    def on_message(self, msg: Message) -> None:
        f = msg.fields
        if msg.type == m.SLOT:
            # the readers holding a tag now: a reader that hears the tile on the last slot and
            # on this one (a cross-read) never loses it on the way, so arrivals alone miss it
            if f["present"] == m.SLOT_EMPTY:
                self._present.discard(f["slot"])
            else:
                self._present.add(f["slot"])
                self._arrived = True
            self._changed_at = time.monotonic()
        elif msg.type == m.BUTTON and f["action"] == m.PRESS and self.ask.get("kind") == "button":
            if self._pressed is None:
                self._pressed = f["button"]
        elif msg.type == m.SUPPLY and self._supply_reply is not None and not self._supply_reply.done():
            self._supply_reply.set_result(Reading(f["rail_mv"], f["led_ma"]))
        elif msg.type == m.ERROR and f["code"] == m.E_READER:
            self.boot_errors[f["ref"]] = f["text"]

    # -- from the maker ------------------------------------------------------------------------
    def start(self, steps: list[str] | None = None) -> dict[str, Any]:
        steps = list(steps or STEPS)
        unknown = [s for s in steps if s not in STEPS]
        if unknown:
            raise ToolError(f"no bringup step {unknown[0]!r}: the steps are {', '.join(STEPS)}")
        if self.state == "running":
            raise ToolError("bringup is already running: answer its question, or restart the command")
        self._conn()
        self.state, self.findings, self.figures, self.result = "running", [], {}, {}
        self._task = asyncio.ensure_future(self._run(steps))
        return self.to_json()

    def answer(self, value: Any) -> dict[str, Any]:
        """The maker's answer: a cell's [q, r] for "which cell lit", or None: nothing lit, not
        heard, no press (skips the slot or button)."""
        if self._answer is None or self._answer.done():
            raise ToolError("bringup is not waiting for an answer now")
        if value is not None:
            if self.ask.get("kind") != "cell":
                raise ToolError("give a cell only when bringup asks which cell lit")
            try:
                value = (int(value[0]), int(value[1]))
            except (TypeError, ValueError, IndexError):
                raise ToolError(f"a cell is [q, r] (or [x, y]), not {value!r}") from None
            if value not in self.layout.cells:
                raise ToolError(f"no cell {list(value)} in layout {self.layout.id}")
        self._answer.set_result(value)
        return self.to_json()

    def request_deploy(self) -> dict[str, Any]:
        if not self.result:
            raise ToolError("nothing to deploy yet: bringup writes the corrected layout when it ends")
        if getattr(self.host, "sim", None) is not None:
            raise ToolError("the simulated board takes a layout when it starts: run `botboard run "
                            f"--layout {self.result['path']}` (with the same --fault options)")
        self.deploy_requested.set()  # the command stops the console and deploys (cli/bringup.py)
        return {"deploying": self.result["path"]}

    # -- the steps ---------------------------------------------------------------------------------
    async def _run(self, steps: list[str]) -> None:
        fixes: dict[str, Any] = {}
        try:
            for step in steps:
                self.step = step
                fixes.update(await getattr(self, f"_{step}")())
            self._finish(fixes)
            self.state = "done"
        except Exception as err:  # the maker reads it in the console: never a silent stop
            log.exception("bringup stopped")
            self.state, self.prompt, self.ask = "failed", f"bringup stopped: {err}", {}
        finally:
            self._dark()
            self._publish()

    async def _leds(self) -> dict[str, Any]:
        cells: list[Coord] = []
        for chain in range(len(self.layout.chains)):
            seen = {p: await self._which_cell(p) for p in findings.chain_probe(self.layout, chain)}
            if findings.chain_pattern(self.layout, chain, seen)[0] == "mixed":
                c = self.layout.chains[chain]
                for p in range(c["first_cell"], c["first_cell"] + c["cells"]):
                    if p not in seen:
                        seen[p] = await self._which_cell(p)
            chain_cells, found = findings.chain_cells(self.layout, chain, seen)
            cells += chain_cells
            self._found(found)
        return {"cells": cells}

    async def _which_cell(self, position: int) -> Coord | None:
        conn = self._conn()
        self._dark(but=position)
        conn.set_cells({position: self._white(conn)})
        answer: Coord | None = await self._ask({"kind": "cell", "position": position},
                                               "Click, on the arena, the cell that lit (or "
                                               "Nothing lit).")
        return answer

    async def _readers(self) -> dict[str, Any]:
        self._dark()
        heard: dict[tuple[int, int], set[int]] = {}
        for s, station in enumerate(self.layout.stations):
            for i in range(len(station.slots)):
                heard[(s, i)] = await self._hear(s, i)
        slots, found = findings.readers(self.layout, heard, self.boot_errors)
        self._found(found)
        return {"slots": slots}

    async def _hear(self, station: int, position: int) -> set[int]:
        self._arrived = False
        waiting = asyncio.ensure_future(self._ask(
            {"kind": "slot", "station": station, "position": position},
            f"Lay a tile on {findings.slot_name(self.layout, station, position)} (move it there "
            "from the last slot). Not heard after a few seconds? Press Not heard."))
        while not waiting.done():
            if self._arrived and self._present and time.monotonic() - self._changed_at >= SETTLE_S:
                waiting.cancel()
                return set(self._present)
            await asyncio.sleep(0.05)
        return set()  # the maker said: not heard

    async def _buttons(self) -> dict[str, Any]:
        pressed: dict[tuple[int, str], int | None] = {}
        for s, station in enumerate(self.layout.stations):
            for role in [r for r in BUTTON_ROLES if r in station.buttons]:
                self._pressed = None
                waiting = asyncio.ensure_future(self._ask(
                    {"kind": "button", "station": s, "role": role},
                    f"Press the {role} button of station {station.name} (or No press)."))
                while not waiting.done() and self._pressed is None:
                    await asyncio.sleep(0.02)
                waiting.cancel()
                pressed[(s, role)] = self._pressed
        table, found = findings.buttons(self.layout, pressed)
        self._found(found)
        return {"buttons": table}

    async def _supply(self) -> dict[str, Any]:
        conn = self._conn()
        self.ask, self.prompt = {"kind": "wait"}, "Measuring the LED supply: the arena lights full white."
        self._publish()
        self._dark()
        await asyncio.sleep(0.5)
        dark = await self._read_supply()
        white = self._white(conn)
        conn.set_cells({i: white for i in range(len(self.layout.cells))})
        deadline = time.monotonic() + LIGHT_WAIT_S
        lit = await self._read_supply()
        while lit.led_ma < dark.led_ma + (self.layout.power_ma - dark.led_ma) * 0.8 \
                and time.monotonic() < deadline:  # the renderer has not drawn it yet
            await asyncio.sleep(0.2)
            lit = await self._read_supply()
        self._dark()
        budget, found, self.figures = findings.supply(self.layout, dark, lit)
        self._found(found)
        return {"power_ma": budget}

    async def _read_supply(self) -> Reading:
        conn = self._conn()
        for _ in range(SUPPLY_TRIES):
            self._supply_reply = asyncio.get_running_loop().create_future()
            conn.send(m.GET_SUPPLY)
            try:
                return await asyncio.wait_for(self._supply_reply, SUPPLY_WAIT_S)
            except asyncio.TimeoutError:
                continue
        raise ToolError("the board does not answer GET_SUPPLY: its firmware predates the supply "
                        "check; update it with `botboard deploy`")

    def _finish(self, fixes: dict[str, Any]) -> None:
        before = self.layout.to_json()
        after = layout_file.corrected(self.layout, **fixes)
        layout_file.write(after, self.out)
        diff = layout_file.diff(before, after, str(self.out))
        self.result = {"path": str(self.out), "diff": diff, "changed": bool(diff)}
        self.ask, self.step = {}, "done"
        faults = len(self.findings)
        self.prompt = (f"Done: {faults} fault(s) found. The corrected layout is {self.out}" if faults
                       else f"Done: no fault found. The layout is written to {self.out} unchanged")

    # -- helpers --------------------------------------------------------------------------------------
    async def _ask(self, ask: dict[str, Any], prompt: str) -> Any:
        self.asked += 1
        self.ask, self.prompt = {**ask, "n": self.asked}, prompt
        self._answer = asyncio.get_running_loop().create_future()
        self._publish()
        try:
            return await self._answer
        finally:
            self._answer = None

    def _found(self, found: list[Finding]) -> None:
        self.findings += found
        self._publish()

    def _dark(self, but: int = -1) -> None:
        conn = self.host.conn
        if conn is not None and conn.image is not None:
            conn.set_cells({i: CellState() for i, c in enumerate(conn.image.cells)
                            if c != CellState() and i != but})

    @staticmethod
    def _white(conn: BoardConnection) -> CellState:
        # the palette entry nearest full white (the LED test's choice too)
        assert conn.image is not None  # _conn() checked it
        return CellState(brightest(conn.image.palette), m.NO_FACING, m.SOLID)

    def _conn(self) -> BoardConnection:
        conn = self.host.conn
        if conn is None or conn.state != "connected" or conn.image is None:
            state = conn.state if conn else "closed"
            raise ToolError(f"the board is not connected (link {state}): plug it in and wait for "
                            "the link, then start again")
        return conn

    def _publish(self) -> None:
        self.host.publish({"kind": "bringup", **self.to_json()})

    def to_json(self) -> dict[str, Any]:
        return {"state": self.state, "step": self.step, "steps": list(STEPS), "ask": self.ask,
                "prompt": self.prompt, "findings": [f.to_json() for f in self.findings],
                "figures": self.figures, "result": self.result, "layout": self.layout.id}
