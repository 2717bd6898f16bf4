"""Maker tools and the board mirror: what the console and the CLI call on the daemon.

- **Mirror**: the console shows what the board *reports* it shows, not what the
  host meant to send. ``mirror_loop`` asks the board for its state (GET_STATE)
  shortly after the host changed any cell, and every few seconds anyway; each
  complete STATE reply is published as a ``cells`` event.
- **Slots**: every SLOT/ERROR message from the board updates a per-slot table
  (what tag is in each slot, its decoded payload, read count, last error): the
  stations panel and the reader test read it.
- **LED test**: light each LED of each cell, then each whole cell, in chain
  order, through ordinary ``set_cells`` (the board renders the states), then
  put back what was shown before.
- **Settings**: brightness and the LED power limit through SET_CONFIG.
- **Simulated board**: virtual tiles in and out, buttons, touches, unplug and
  replug (hands and cables, through its control socket).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from bbshared import messages as m
from bbshared import tilepayload

from ..games import registry
from ..link.fields import census_holds
from ..link.image import CellState
from ..link.connection import BoardConnection, Message
from .layouts import Layout
from .sim import SimBoard
from .sim_control import PATIENCE_S, SimControl, SimControlError
from .sim_faults import physical_order


class ToolsHost(Protocol):
    """What the tools need of the daemon that owns them (the daemon is one; tests may pass others)."""

    layout: Layout
    conn: BoardConnection | None
    sim: SimBoard | None
    sim_control: SimControl | None

    def publish(self, event: dict[str, Any]) -> None: ...

log = logging.getLogger("botboard.tools")

MIRROR_TICK_S = 0.02  # how soon after a change the host asks the board what it shows
MIRROR_REFRESH_S = 5.0  # and how often anyway, to catch anything else
LED_STEP_MS = 60  # default time each LED test step stays lit
BUTTON_ACTIONS = {m.PRESS: "press", m.RELEASE: "release", m.LONG_PRESS: "long"}
SLOT_TROUBLE = {m.SLOT_UNREADABLE: "a tag answers but cannot be read cleanly (detuned, "
                                   "half in the slot, or damaged)",
                m.SLOT_SEVERAL: "several tags in the slot",
                m.SLOT_CROSS: "its reader hears the tile of another slot (ERROR names it)"}


class ToolError(ValueError):
    """A tool request that cannot be done now; the message says why and what to do."""


@dataclass
class SlotReading:
    """What the board last reported about one slot."""

    present: bool = False
    uid: str = ""
    payload: str = ""
    tile: dict[str, Any] | None = None  # decoded payload: game, kind, colour, serial; or an enrolled tag's words
    problem: str = ""  # why the tag is not a valid tile, if it is not
    reads: int = 0  # arrivals seen since the daemon started
    changed: float = 0.0  # time.time() of the last report
    # the reader's error counters since the board booted (READER_STATS): answers
    # with a bad CRC, bit collisions, over-temperature episodes; hot: 1 while over
    reader: dict[str, int] = field(default_factory=dict)
    # the simulated board only: whether a hand (the console, a test) laid a tile on this slot
    # where it physically is, whichever reader hears it (a miswired board's readers may not)
    placed: bool | None = None

    def to_json(self) -> dict[str, Any]:
        doc = {"present": self.present, "uid": self.uid, "payload": self.payload,
               "tile": self.tile, "problem": self.problem, "reads": self.reads,
               "changed": round(self.changed, 3), "reader": dict(self.reader)}
        if self.placed is not None:
            doc["placed"] = self.placed
        return doc


@dataclass
class LedTest:
    running: bool = False
    step: int = 0
    steps: int = 0
    phase: str = ""  # "leds" or "cells"
    cell: int = -1
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"running": self.running, "step": self.step, "steps": self.steps,
                "phase": self.phase, "cell": self.cell}


_OTHER_GAME = re.compile(r"a tile of game (\d+), not of this board's game (\d+)")


def board_words(text: str) -> str:
    """A board's error text with the games it numbers named (the firmware knows only ids)."""
    return _OTHER_GAME.sub(lambda found: f"a tile of {registry.title_of_tile_id(int(found[1]))}, not of "
                           f"{registry.title_of_tile_id(int(found[2]))}: take it out", text)


def describe_tile(payload: bytes) -> tuple[dict[str, Any] | None, str]:
    """(decoded tile, "") or (None, why it is not a tile) for a tag's payload."""
    if not payload:
        return None, "no tile payload (a blank or foreign tag): write or enroll it"
    try:
        game, kind, colour, serial = tilepayload.decode(payload)
    except ValueError as err:
        return None, str(err)
    return {"game": registry.name_of_tile_id(game) or f"game {game}", "game_id": game,
            "kind": kind, "colour": colour, "serial": serial}, ""


def tile_words(session: Any, uid: bytes, payload: bytes) -> str:
    """A tag's tile in words: the game's name for it, else its payload's fields, else why not."""
    mapping = getattr(session, "mapping", None)
    if mapping is not None:
        try:
            return str(mapping.tile_words(mapping.identify(uid, payload)))
        except ValueError:  # the game's TileError: not one of its tiles; say the fields
            pass
    tile, problem = describe_tile(payload)
    if tile is None:
        return problem
    return f"{tile['game']} tile: kind {tile['kind']}, colour {tile['colour']}, serial {tile['serial']}"


def enrolled_tile(session: Any, uid: bytes, payload: bytes) -> dict[str, Any] | None:
    """``{"words"}`` of a tag without a tile payload that the game has enrolled; None if it has not."""
    mapping = getattr(session, "mapping", None)
    if mapping is None or payload:
        return None
    try:
        return {"words": f"{mapping.tile_words(mapping.identify(uid, payload))} (enrolled tag)"}
    except ValueError:  # the game's TileError: not enrolled
        return None


def brightest(palette: list[tuple[int, int, int]]) -> int:
    """The palette entry nearest to full white (the LED test lights cells with it)."""
    return max(range(len(palette)), key=lambda i: (sum(palette[i]), min(palette[i])), default=1)


def virtual_uid(game: int, kind: int, colour: int, serial: int) -> bytes:
    """A stable 7-byte NTAG-like UID (0x04 = NXP) for a virtual tile."""
    return bytes((0x04, game & 0xFF, kind & 0xFF, colour & 0xFF)) + (serial & 0xFFFFFF).to_bytes(3, "big")


class BoardTools:
    """Daemon-side helpers; one per daemon, created when the board link is."""

    def __init__(self, daemon: ToolsHost) -> None:
        self.daemon = daemon
        self.slots = [SlotReading() for _ in range(daemon.layout.slot_count)]
        self.buttons: dict[int, str] = {}  # button -> last action
        self.settings: dict[str, int] = {}
        self.led_test = LedTest()
        self.shown_at = 0.0  # time of the last complete STATE
        self._polled: list[CellState] | None = None  # the image when we last asked
        self._polled_at = 0.0
        self._state_parts: set[int] = set()
        self._last_frame: Message | None = None  # the newest frame already published

    # -- board messages -------------------------------------------------------
    def on_message(self, msg: Message) -> None:
        f = msg.fields
        if msg.type == m.SLOT and 0 <= f["slot"] < len(self.slots):
            self._on_slot(f["slot"], f["present"], f["uid"], f["payload"], msg.t)
        elif msg.type == m.ERROR and f["code"] in (m.E_BAD_TAG, m.E_READER) \
                and 0 <= f["ref"] < len(self.slots):
            self.slots[f["ref"]].problem = board_words(f["text"])
            self._publish_slot(f["ref"])
        elif msg.type == m.READER_STATS:
            self._on_reader_stats(f["readers"])
        elif msg.type == m.BUTTON:
            self.buttons[f["button"]] = BUTTON_ACTIONS.get(f["action"], str(f["action"]))
            self.daemon.publish({"kind": "button", "button": f["button"],
                                 "action": self.buttons[f["button"]]})
        elif msg.type == m.CENSUS_DONE:  # a slot outside the census is empty
            for slot, reading in enumerate(self.slots):
                if reading.present and not census_holds(f["present"], slot):
                    self._on_slot(slot, m.SLOT_EMPTY, b"", b"", msg.t)
        elif msg.type == m.HELLO:
            self._polled = None  # a (re)connected board: ask again
        elif msg.type == m.STATE:
            self._on_state(f["start"], f["total"], len(f["cells"]) // 2)

    def _on_slot(self, slot: int, state: int, uid: bytes, payload: bytes, t: float) -> None:
        reading = self.slots[slot]
        reading.present, reading.changed = bool(state), t
        if state in SLOT_TROUBLE:
            reading.uid, reading.payload, reading.tile = uid.hex(), "", None
            reading.problem = SLOT_TROUBLE[state]
        elif state:
            reading.reads += 1
            reading.uid, reading.payload = uid.hex(), payload.hex()
            reading.tile, reading.problem = describe_tile(payload)
            if reading.tile is not None:  # the game's own name for it, for the console's slots
                reading.tile["words"] = tile_words(getattr(self.daemon, "session", None), uid, payload)
            else:  # a blank tag the game knows by its uid: shown as that tile
                reading.tile = enrolled_tile(getattr(self.daemon, "session", None), uid, payload)
                reading.problem = "" if reading.tile else reading.problem
        else:
            reading.uid = reading.payload = reading.problem = ""
            reading.tile = None
        self._publish_slot(slot)

    def _on_reader_stats(self, readers: dict[int, dict[str, int]]) -> None:
        for slot, reading in enumerate(self.slots):
            counts = readers.get(slot, {})  # a reader not named has nothing to count
            if counts == reading.reader:
                continue
            if reading.reader.get("hot") and not counts.get("hot") \
                    and "over temperature" in reading.problem:
                reading.problem = ""  # it cooled down and reads again
            reading.reader = dict(counts)
            self._publish_slot(slot)

    def _publish_slot(self, slot: int) -> None:
        self.daemon.publish({"kind": "slot", "slot": slot, "reading": self.slots[slot].to_json()})

    def _on_state(self, start: int, total: int, count: int) -> None:
        self._state_parts.update(range(start, start + count))
        if len(self._state_parts) >= total:  # a whole picture: publish it
            self._state_parts.clear()
            self.shown_at = time.time()
            self.daemon.publish({"kind": "cells", **self.cells_json()})

    # -- mirror ---------------------------------------------------------------
    def cells_json(self) -> dict[str, Any]:
        """What the board shows, each cell where its LEDs are: on the simulated board, where they
        physically are (a chain wired backwards lights its cells in reverse), so a miswired chain
        is seen in the console as on a real board."""
        conn = self.daemon.conn
        shown = conn.shown if conn else []
        sim = self.daemon.sim
        if sim is not None and sim.faults.get("reverse"):
            shown = [shown[i] for i in physical_order(sim.faults, sim.layout.chains, len(shown))]
        palette = conn.image.palette if conn and conn.image else []
        return {"cells": [[c.palette, c.facing, c.effect] for c in shown],
                "palette": ["#%02x%02x%02x" % rgb for rgb in palette],
                "at": round(self.shown_at, 3)}

    async def mirror_loop(self) -> None:
        """Ask the board what it shows soon after the host changes anything.

        Each tick also publishes the frames traced since the last one, in both
        directions (listeners only see what comes in), as one ``frames`` event.
        """
        while True:
            await asyncio.sleep(MIRROR_TICK_S)
            self._publish_new_frames()
            conn = self.daemon.conn
            if conn is None or conn.state != "connected" or conn.image is None:
                continue
            now = time.monotonic()
            if self._polled != conn.image.cells or now - self._polled_at > MIRROR_REFRESH_S:
                self._polled, self._polled_at = list(conn.image.cells), now
                conn.ask_state()

    def _publish_new_frames(self) -> None:
        conn = self.daemon.conn
        if conn is None or not conn.trace:
            return
        fresh: list[Message] = []
        for msg in reversed(conn.trace):  # newest first, back to the last one published
            if msg is self._last_frame:
                break
            fresh.append(msg)
        self._last_frame = conn.trace[-1]
        if fresh:
            self.daemon.publish({"kind": "frames",
                                 "messages": [self.frame_json(msg) for msg in reversed(fresh)]})

    def frame_json(self, msg: Message) -> dict[str, Any]:
        """A decoded frame for the trace; a SLOT also says the tile its payload is (as the
        game names it when a game is on, else the payload's fields), not only its hex."""
        doc = msg.to_json()
        if msg.type == m.SLOT and msg.fields["payload"]:
            doc["tile"] = tile_words(getattr(self.daemon, "session", None), msg.fields["uid"],
                                     msg.fields["payload"])
        return doc

    # -- settings ---------------------------------------------------------------
    def set_config(self, name: str, value: int) -> dict[str, int]:
        keys = {"brightness": (m.CONFIG_BRIGHTNESS, 255), "power_ma": (m.CONFIG_POWER_MA, 65535)}
        if name not in keys:
            raise ToolError(f"unknown setting {name!r}: use one of {', '.join(keys)}")
        key, top = keys[name]
        if name == "power_ma":  # the board keeps it within what the supply gives, and says so
            top = self.daemon.layout.power_ma
            if isinstance(value, int) and not isinstance(value, bool) and not 1 <= value <= top:
                raise ToolError(f"power_ma must be 1..{top} mA: the supply of layout "
                                f"{self.daemon.layout.id} gives {top} mA (power_ma in its layout "
                                "file, hardware/power.md); lower it to dim the arena")
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
            raise ToolError(f"{name} must be a whole number 0..{top}, not {value!r}")
        self._connected().configure(key, value)  # kept: re-sent after a reconnect or reboot
        self.settings[name] = value
        return dict(self.settings)

    def _connected(self) -> Any:
        conn = self.daemon.conn
        if conn is None or conn.state != "connected":
            state = conn.state if conn else "closed"
            raise ToolError(f"the board is not connected (link {state}): plug it in or wait "
                            "for the reconnect")
        return conn

    # -- LED test ------------------------------------------------------------------
    def led_steps(self) -> list[tuple[str, int, int]]:
        """(phase, cell, facing) in chain order: each LED of each cell, then each cell.

        A cell's centre is the step with no facing; a facing step lights that
        side LED brightest (the board renders the facing side towards white).
        """
        order = [cell for chain in self.daemon.layout.chains
                 for cell in range(chain["first_cell"], chain["first_cell"] + chain["cells"])]
        leds = [("leds", cell, facing) for cell in order for facing in (m.NO_FACING, *range(6))]
        return leds + [("cells", cell, m.NO_FACING) for cell in order]

    def start_led_test(self, step_ms: int = LED_STEP_MS, phase: str = "all") -> dict[str, Any]:
        if self.led_test.running:
            raise ToolError("the LED test is already running: stop it first")
        if not 5 <= step_ms <= 5000:
            raise ToolError(f"step_ms must be 5..5000, not {step_ms}")
        if phase not in ("all", "leds", "cells"):
            raise ToolError(f"phase must be all, leds or cells, not {phase!r}")
        self._connected()
        steps = [s for s in self.led_steps() if phase in ("all", s[0])]
        self.led_test = LedTest(running=True, steps=len(steps))
        self.led_test.task = asyncio.ensure_future(self._run_led_test(steps, step_ms / 1000))
        return self.led_test.to_json()

    def stop_led_test(self) -> dict[str, Any]:
        if self.led_test.task is not None:
            self.led_test.task.cancel()
        return self.led_test.to_json()

    async def _run_led_test(self, steps: list[tuple[str, int, int]], step_s: float) -> None:
        conn = self._connected()
        before = list(conn.image.cells)
        white = brightest(conn.image.palette)  # the session owns the palette: find its white
        test = self.led_test
        try:
            for n, (phase, cell, facing) in enumerate(steps, 1):
                effect = m.SOLID
                conn.set_cells({i: CellState() for i, c in enumerate(conn.image.cells)
                                if c != CellState() and i != cell} |
                               {cell: CellState(white, facing, effect)})
                test.step, test.phase, test.cell = n, phase, cell
                if n == 1 or n % 7 == 0 or n == len(steps):
                    self.daemon.publish({"kind": "led_test", **test.to_json()})
                await asyncio.sleep(step_s)
        finally:
            conn.set_cells(dict(enumerate(before)))
            test.running = False
            self.daemon.publish({"kind": "led_test", **test.to_json()})

    # -- simulated board --------------------------------------------------------------
    def _sim(self) -> Any:
        if self.daemon.sim_control is None:
            raise ToolError("this needs the simulated board; a real board is attached "
                            "(use your hands)")
        return self.daemon.sim_control

    async def place_tile(self, slot: int, game: int = 1, kind: int = 0, colour: int = 2,
                         serial: int = 1, blank: bool = False) -> dict[str, Any]:
        """Put a virtual tile (or a blank tag) into a slot of the simulated board."""
        uid = virtual_uid(game, kind, colour, serial)
        return await self.place_tag(slot, uid, None if blank else tilepayload.encode(game, kind, colour, serial))

    async def place_tag(self, slot: int, uid: bytes, payload: bytes | None) -> dict[str, Any]:
        """Put a virtual tag with ``payload`` (None: blank) into a slot of the simulated board."""
        self._check_slot(slot)
        await self._sim_call(self._sim().place(slot, uid, payload))
        self._hand(slot, True)
        return {"slot": slot, "uid": uid.hex(), "payload": payload.hex() if payload else ""}

    async def remove_tile(self, slot: int) -> dict[str, Any]:
        self._check_slot(slot)
        await self._sim_call(self._sim().remove(slot))
        self._hand(slot, False)
        return {"slot": slot}

    def _hand(self, slot: int, placed: bool) -> None:
        """A hand laid a tile on (or took it off) the physical slot: the console's slot button
        takes it back from there, even when a miswired reader reports it elsewhere."""
        self.slots[slot].placed = placed
        self._publish_slot(slot)

    async def press(self, button: int, action: str = "click") -> dict[str, Any]:
        if not 0 <= button < self.daemon.layout.button_count:
            raise ToolError(f"no button {button}: this layout has buttons "
                            f"0..{self.daemon.layout.button_count - 1}")
        if action not in ("click", "long", "press", "release"):
            raise ToolError(f"action must be click, long, press or release, not {action!r}")
        await self._sim_call(self._sim().button(button, action))
        return {"button": button, "action": action}

    async def touch(self, cell: int) -> dict[str, Any]:
        if not 0 <= cell < len(self.daemon.layout.cells):
            raise ToolError(f"no cell {cell}: this layout has cells 0..{len(self.daemon.layout.cells) - 1}")
        if not self.daemon.layout.touch:
            raise ToolError(f"layout {self.daemon.layout.id} has no touch pads")
        await self._sim_call(self._sim().touch(cell))
        return {"cell": cell}

    def plug(self, plugged: bool) -> dict[str, Any]:
        """Pull or put back the simulated board's cable."""
        self._sim()
        sim, conn = self.daemon.sim, self.daemon.conn
        assert sim is not None and conn is not None
        if plugged and sim.master < 0:
            sim.plug()
            conn.port_name = sim.port  # a new pty: the host finds it where the cable went
        elif not plugged and sim.master >= 0:
            sim.unplug()
        self.daemon.publish({"kind": "plug", "plugged": plugged})
        return {"plugged": sim.master >= 0, "port": sim.port}

    @property
    def plugged(self) -> bool | None:
        sim = self.daemon.sim
        return None if sim is None else sim.master >= 0

    def _check_slot(self, slot: int) -> None:
        if not 0 <= slot < len(self.slots):
            raise ToolError(f"no slot {slot}: this layout has slots 0..{len(self.slots) - 1}")

    async def _sim_call(self, call: Any) -> None:
        try:
            # as patient as the control socket's client: a click given up on is a press lost
            await asyncio.wait_for(call, PATIENCE_S + 5)
        except (SimControlError, asyncio.TimeoutError) as err:
            raise ToolError(f"the simulated board did not do it: "
                            f"{err or f'no answer in {PATIENCE_S + 5:.0f} s'}") from err

    # -- summary ----------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"slots": [s.to_json() for s in self.slots], "buttons": self.buttons,
                "settings": self.settings, "led_test": self.led_test.to_json(),
                "plugged": self.plugged, "simulated": self.daemon.sim is not None}
