# The real board's HAL: Raspberry Pi Pico (RP2040) or Pico 2 (RP2350).
#
# Same interface as hal_sim.Hal:
#   hal.config, hal.boot_errors       board.json, and what the boot checks found
#   hal.strip (.buf, .show()), hal.readers (ReaderBank)
#   hal.make_buttons(on_key, on_error) -> ButtonMatrix
#   hal.read_into(buf) -> n           serial bytes waiting, without blocking
#   await hal.wait_readable(ms); hal.write(data)
#   hal.watchdog_checkin(task); hal.extra_tasks(board); hal.release(handoff)
#   hal.forget(names)                 bbfw submodules used once may leave the heap
#   hal.supply_mv()                   the LED rail in mV (botboard bringup's supply check)
#
# Serial is the USB CDC port (sys.stdin / sys.stdout), made binary-safe by
# micropython.kbd_intr(-1): a 0x03 byte in a frame must not raise
# KeyboardInterrupt.  release() puts Ctrl-C back, so that after the REPL
# message mpremote finds a working REPL.
#
# Pins come from board.json ("pins", hardware/pinout.md); the defaults are
# the reference wiring.  Readers: SPI0 at 10 MHz, chip selects through a
# 74HC595 chain with /OE; matrix rows on a second 595 chain sharing SCK and
# MOSI, columns on GPIO inputs with pull-ups; LED chains on PIO + DMA.
import select
import sys

import asyncio
import micropython
from machine import Pin, SPI, mem32
from micropython import const

from .drivers.buttons import ButtonMatrix, GpioColumns
from .drivers.hc595 import HC595
from .watchdog import TASKS, Watchdog, make_wdt

CONFIG_PATH = "board.json"
PINS = {"sck": 18, "mosi": 19, "miso": 16, "cs_latch": 17, "cs_oe": 20, "rst": 21,
        "row_latch": 22, "cols": [10, 11, 12, 13, 14, 15, 26, 27], "safe": 28}
SPI_HZ = 10_000_000
WDT_MS = 8000  # the RP2040's limit is about 8.3 s
_BOOT_ONLY = ("config", "selftest", "boot_rp2")  # bbfw modules only Hal() uses
# The supply check's ADC (hardware/wiring.md, "Supply sense"): GP29 is ADC3,
# which the Pico wires to VSYS through its own 3:1 divider; the reference board
# feeds VSYS from the LED rail through a 1N5819, so the rail is VSYS plus that
# diode's drop (about 0.3 V at the Pico's 0.1 A: 1N5819 datasheet, VF curve).
# A board with a divider from the rail to ADC0..2 names its pin and ratio in
# board.json pins (supply_adc, supply_divider, supply_offset_mv: 0 there).
# The ADC's reference is the 3.3 V rail.
# (const: the numbers stay out of the heap; the Pico's 3:1 is written where it is used)
_SUPPLY_ADC = const(29)
_VSYS_DIODE_MV = const(300)
_ADC_MV = const(3300)
_ADC_SAMPLES = const(16)  # averaged: one read_u16 has a few LSB of noise
# WATCHDOG CTRL register (bit 30 ENABLE): RP2040 datasheet 4.7.6, RP2350 12.9.8
_WDT_CTRL = {"RP2040": 0x40058000, "RP2350": 0x400D8000}


class Hal:
    input_period_ms = 0  # poll the readers again as soon as the other tasks ran
    def __init__(self, config_path=CONFIG_PATH):
        micropython.kbd_intr(-1)  # from here on the USB serial carries binary frames
        from . import config as board_config  # boot only: forgotten below
        from . import boot_rp2, selftest

        cfg, refused = board_config.load_or_refuse(config_path)
        self.config = cfg
        self.boot_errors = [(7, 0, refused)] if refused else []  # E_CONFIG
        pins = dict(PINS)
        pins.update(cfg.get("pins", {}))
        self.pins = pins
        self.spi = SPI(0, baudrate=SPI_HZ, polarity=0, phase=0, sck=Pin(pins["sck"]),
                       mosi=Pin(pins["mosi"]), miso=Pin(pins["miso"]))
        Pin(pins["rst"], Pin.OUT, value=1)  # readers out of hard power-down
        self.readers = boot_rp2.make_readers(self.spi, pins, cfg)
        self.strip = boot_rp2.make_strip(cfg, board_config.chain_leds(cfg))
        short = boot_rp2.chain_short(self.strip, cfg["chains"])
        self.boot_errors += selftest.check(cfg, self.readers.alive, short)
        # the config checks and the hardware checks run once: their modules
        # leave the heap (about 3 KB) before the Board is built
        self.forget(_BOOT_ONLY)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._stdin = sys.stdin.buffer
        self._one = bytearray(1)
        self._stdout = sys.stdout.buffer
        self._watchdog = None

    @staticmethod
    def forget(names):
        # bbfw submodules leave the heap once nothing else holds them (the
        # names they interned stay); a later import loads them again
        package = sys.modules["bbfw"]
        for name in names:
            if sys.modules.pop("bbfw." + name, None) is not None and name in package.__dict__:
                delattr(package, name)

    def supply_mv(self):
        # rare (bringup only): machine.ADC is made for the call and let go
        from machine import ADC

        p = self.pins
        pin = p.get("supply_adc", _SUPPLY_ADC)
        adc = ADC(Pin(pin))
        total = 0
        for _ in range(_ADC_SAMPLES):
            total += adc.read_u16()
        mv = total * _ADC_MV * p.get("supply_divider", 3.0) / (65535 * _ADC_SAMPLES)
        return int(mv) + p.get("supply_offset_mv", _VSYS_DIODE_MV if pin == _SUPPLY_ADC else 0)

    # -- serial ---------------------------------------------------------------
    def read_into(self, buf):
        # ipoll and readinto one byte: never blocks, allocates nothing (read(1)
        # made a bytes object per byte: garbage, and collections, for every frame)
        n = 0
        poll = self._poll
        stdin = self._stdin
        one = self._one
        while n < len(buf):
            ev = 0
            for _, ev in poll.ipoll(0):
                pass
            if not ev & select.POLLIN:
                break
            if not stdin.readinto(one):
                break
            buf[n] = one[0]
            n += 1
        return n

    def wait_readable(self, timeout_ms):
        # awaited by the link task after every idle step, a thousand times a
        # second: the sleep itself, not an async def, whose every call makes a
        # coroutine object (garbage, and a collection every few seconds)
        return asyncio.sleep_ms(1)

    def write(self, data):
        self._stdout.write(data)

    # -- inputs -------------------------------------------------------------
    def make_buttons(self, on_key, on_error):
        cfg = self.config
        p = self.pins
        for c in p["cols"]:
            Pin(c, Pin.IN, Pin.PULL_UP)  # configured once; read as one register (GpioColumns)
        cols = GpioColumns(mem32, p["cols"])
        keys = cfg["buttons"] + (cfg["cells"] if cfg.get("touch") else 0)
        nrows = (keys + len(cols) - 1) // len(cols)
        rows_chain = HC595(self.spi, Pin(p["row_latch"], Pin.OUT, value=0), None, max(nrows, 1))
        return ButtonMatrix(rows_chain.rows(nrows), cols, on_key, on_error=on_error,
                            stuck_ms=cfg.get("stuck_ms", 30000))

    # -- watchdog -------------------------------------------------------------
    def watchdog_checkin(self, task):
        if self._watchdog is not None:
            self._watchdog.checkin(task)

    def extra_tasks(self, board):
        # started with the firmware's tasks, never in safe mode: a WDT cannot
        # be stopped by the API once it runs
        self._watchdog = Watchdog(make_wdt(WDT_MS), tasks=TASKS)  # input, render, link
        return [self._watchdog.run()]

    def release(self, handoff):
        micropython.kbd_intr(3)
        if handoff:
            _stop_watchdog()  # deploy copies files for longer than the timeout


def _stop_watchdog():
    # Clear ENABLE in the watchdog's CTRL register (the machine API has no stop).
    import machine

    chip = "RP2350" if "RP2350" in sys.implementation._machine else "RP2040"
    machine.mem32[_WDT_CTRL[chip]] &= ~(1 << 30)
