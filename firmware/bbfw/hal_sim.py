# The simulated board's HAL, for the MicroPython unix port.
#
# Serial is stdin/stdout (the launcher, `botboard sim`, joins them to a
# pseudo-terminal). The drivers are the real board's: the MFRC522 driver
# talks SPI to register-level chip models with virtual NTAG213 tags, the
# button-matrix driver scans model pins, and the LED strip is a model that
# keeps what was last shown. Tiles, button presses and cell touches come in
# through a control socket on 127.0.0.1 (one JSON object per line, answered
# by one JSON line: sim/control.py), which is also how tests and the console
# read back what the LEDs show.
#
# The simulated hardware is built from the board config, or from another
# config (HARDWARE_PATH: what the board really has) to test a board.json
# written for a different layout: readers beyond the hardware's never answer,
# LED chains shorter than configured are found by the boot checks.
#
# Wiring faults of a new board (sim/faults.py: swapped, dead and cross-reading
# readers, a reversed LED chain, a sagging supply) come from FAULTS_PATH.
#
# Usage: micropython firmware/main.py CONFIG_PATH CONTROL_PORT [HARDWARE_PATH|- [FAULTS_PATH]]
import select
import sys

import asyncio
from bbshared import messages as m

from . import config as board_config
from . import selftest
from .drivers.buttons import ButtonMatrix
from .drivers.ntag_reader import NtagReader
from .readers import ReaderBank
from .sim.spi_model import SimPin, SimReaderField


class ModelStrip:
    # What a WS2812 chain would show: `buf` is drawn into and show() sends
    # it; the renderer calls show() right after drawing, in the same step, so
    # buf is what the LEDs show whenever another task looks (no second copy:
    # 1.9 KB for the big arena).
    # `fitted` is the LEDs really on each chain (a sense wire on the last LED
    # tells the firmware whether a chain is shorter than configured).
    def __init__(self, leds, fitted=()):
        self.buf = bytearray(3 * leds)
        self.fitted = fitted
        self.frames = 0

    def chain_short(self, configured):
        f = self.fitted
        return [f[i] < configured[i] if i < len(f) else True for i in range(len(configured))]

    def show(self):
        self.frames += 1

    def busy(self):
        return False  # shown at once


class PinColumns:
    # ButtonMatrix's columns read one Pin-like at a time (the simulated board)
    def __init__(self, pins):
        self._pins = pins

    def __len__(self):
        return len(self._pins)

    def read(self):
        raw = 0
        bit = 1
        for p in self._pins:
            if p.value() == 0:
                raw |= bit
            bit <<= 1
        return raw


class PinRows:
    # a matrix's row pins, with all_low(busy) as hc595.Rows has it: a row
    # asked for after it finds the others high again (on the 595 chain a
    # row's load raises the others)
    def __init__(self, pins):
        self._pins = pins
        self._low = False

    def __len__(self):
        return len(self._pins)

    def __getitem__(self, i):
        if self._low:
            self._low = False
            for p in self._pins:
                p.value(1)
        return self._pins[i]

    def all_low(self, busy):
        for r in range(len(self._pins)):
            self._pins[r].value(1 if busy is not None and busy[r] else 0)
        self._low = True


class ModelMatrix:
    # The pins of a button matrix with virtual switches: a column reads low
    # while a pressed key's row is driven low, as through the real diodes.
    def __init__(self, keys, cols=8):
        self.cols = cols
        self.down = bytearray(keys)
        self.row_pins = [SimPin(1) for _ in range((keys + cols - 1) // cols)]
        self.rows = PinRows(self.row_pins)
        self.col_pins = [_ColumnPin(self, c) for c in range(cols)]


class _ColumnPin:
    def __init__(self, matrix, col):
        self._m = matrix
        self._c = col

    def value(self, v=None):
        m = self._m
        for r in range(len(m.row_pins)):
            key = r * m.cols + self._c
            if key < len(m.down) and m.down[key] and not m.row_pins[r].value():
                return 0
        return 1

    def __call__(self, v=None):
        return self.value()




class Hal:
    input_period_ms = 2  # the simulated board shares a CPU: no busy polling
    def __init__(self, config_path=None, control_port=None, hardware_path=None, faults_path=None):
        if config_path is None:  # run as the firmware: main.py CONFIG PORT [HARDWARE [FAULTS]]
            argv = sys.argv
            config_path = argv[1] if len(argv) > 1 else "board.json"
            control_port = argv[2] if len(argv) > 2 else 0
            hardware_path = argv[3] if len(argv) > 3 and argv[3] != "-" else None
            faults_path = argv[4] if len(argv) > 4 else None
        path = config_path
        self.control_port = int(control_port or 0)
        # app.Board loads rare.py when needed; compiled from source mid-game
        # it would need large free blocks: here it is compiled at boot, while
        # the heap is empty, and stays (forget() keeps everything)
        from . import rare  # noqa: F401

        self._control = None
        if self.control_port:
            # the control socket's code, loaded only when there is one (tests
            # that drive a Board directly never compile it), and at once,
            # before the heap fills and fragments
            from .sim import control

            self._control = control
        hw_path = hardware_path
        cfg, refused = board_config.load_or_refuse(path)
        self.config = cfg
        self.boot_errors = [(m.E_CONFIG, 0, refused)] if refused else []
        hw = board_config.load(hw_path) if hw_path else cfg
        slots = cfg["slots"]
        # the coupling model's figures and the readers' places (sim only: not kept)
        self.field = SimReaderField(min(hw["slots"], slots), coupling=cfg.pop("coupling", None),
                                    slot_mm=cfg.pop("slot_mm", None))
        from .sim import faults

        self.faults = faults.load(faults_path)
        for reader in self.faults.dead:
            self.field.kill(reader)
        # a configured slot the hardware lacks: a chip select wired to nothing
        self.readers = ReaderBank([NtagReader(self.field.spi, self.field.cs(i) if i < hw["slots"]
                                           else SimPin(1)) for i in range(slots)],
                                  cfg.pop("fields", None), cfg.pop("rf", None),
                                  cfg.pop("zones", None))  # used once
        self.readers.init()
        self.strip = ModelStrip(cfg["cells"] * cfg["leds_per_cell"], board_config.chain_leds(hw))
        self.boot_errors += selftest.check(
            cfg, self.readers.alive, self.strip.chain_short(board_config.chain_leds(cfg)))
        cells = cfg["cells"] if cfg.get("touch") else 0
        self.matrix = ModelMatrix(cfg["buttons"] + cells)
        self._stdin = sys.stdin.buffer
        self._stdout = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self.buttons = None

    def forget(self, names):
        pass  # the unix port's modules stay: tests build one board after another

    def supply_mv(self):
        # the simulated LED rail at what the strip shows now (sim/faults.py)
        return self.faults.supply_mv(self.strip.buf)

    # -- serial -----------------------------------------------------------
    def read_into(self, buf):
        # Bytes waiting on the serial line, without blocking; None once closed.
        # ipoll, not poll: it allocates nothing (the main loop must not)
        n = 0
        poll = self._poll
        while n < len(buf):
            ev = 0
            for _, ev in poll.ipoll(0):
                pass
            if not ev & select.POLLIN:
                if ev & (select.POLLHUP | select.POLLERR):
                    return n or None
                break
            b = self._stdin.read(1)
            if not b:
                return n or None
            buf[n] = b[0]
            n += 1
        return n

    async def wait_readable(self, timeout_ms):
        # until the host writes, or timeout_ms: an idle simulated board does
        # not spin (it shares the machine with the host and the tests)
        try:
            await asyncio.wait_for_ms(self._stdin_readable(), timeout_ms)
        except asyncio.TimeoutError:
            pass

    def _stdin_readable(self):
        yield asyncio.core._io_queue.queue_read(self._stdin)  # what StreamReader waits on

    def write(self, data):
        self._stdout.write(data)
        self._stdout.flush()

    # -- inputs -----------------------------------------------------------
    def make_buttons(self, on_key, on_error):
        return ButtonMatrix(self.matrix.rows, PinColumns(self.matrix.col_pins), on_key, on_error=on_error,
                            stuck_ms=self.config.get("stuck_ms", 30000))

    def watchdog_checkin(self, task):
        pass  # no watchdog on the unix port

    def release(self, handoff):
        # the REPL message: the unix port has no REPL on this port, just stop
        self._stdout.flush()

    def extra_tasks(self, board):
        if self._control is not None:
            return [self._control.serve(self, board)]
        return []
