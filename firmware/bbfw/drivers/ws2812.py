# WS2812B LED chains driven by rp2 PIO state machines fed by DMA (rp2 only).
#
#   strip = WS2812(pins, lengths)     pins: GPIO numbers, one per chain;
#                                     lengths: LEDs on each chain
#   strip.buf                         3 bytes per LED, GRB, all chains in order
#   strip.show() -> bool              starts sending and returns at once; False
#                                     (nothing sent) while the last frame is
#                                     still going out or latching
#   strip.busy() -> bool
#   strip.send_chain(i, extra)        chain i only, dark, with `extra` LEDs more
#                                     than configured (boot check of the length)
#
# Why not neopixel.write: it bit-bangs with interrupts masked for 30 us per
# LED (19 ms for 637 LEDs), which starves USB and the readers.  Here each
# chain has its own state machine and DMA channel, so chains go out in
# parallel and the CPU is free: show() starts the DMA reading buf itself (no
# second copy: 1.9 KB of heap for the big arena), so buf must not be drawn
# into while busy(): the board's render step waits for it (no tearing).
# The DMA writes single bytes into the TX FIFO; the RP2040/RP2350 bus
# replicates a byte write over all four lanes, so with autopull every 8 bits
# and left shift the state machine sends each byte MSB first.  No conversion
# loop, no allocation.  Pure parts (addresses, DREQs, timing) are in
# ledchain.py and tested in the unix port.
from machine import Pin
import rp2
import time
from micropython import const

from .ledchain import segments, chain_sm, pio_txf_addr, dreq_pio_tx, frame_us

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F401,F403  names of the PIO assembler


# Bit timing.  Each time must suit both parts a chain may hold (Worldsemi
# datasheets, "data transfer time"): the classic WS2812B (T0H 0.4, T1H 0.8,
# T0L 0.85, T1L 0.45 us, each +-150 ns) and the WS2812B-V5 of the BOM (T0H
# 220-380 ns; T1H, T0L and T1L 580-1000 ns).  Both hold in T0H 250-380,
# T1H 650-950, T0L 700-1000 and T1L 580-600 ns; T1L's 20 ns is what binds.
# The state machine runs at 62.5 MHz, 16 ns a cycle: system clock / 2 on a
# Pico (125 MHz, an integer divider, exact and without jitter).  On a Pico 2
# (150 MHz) the divider is 2 + 102/256 (62.54 MHz, +0.065 %): a fractional
# divider makes each PIO cycle 2 or 3 system cycles, so any time is within one
# system cycle (6.7 ns) of nominal (RP2040 datasheet 3.5.5; the RP2350's is alike).
# Worst cases (Pico | Pico 2) and the distance to the nearer common edge:
_PIO_HZ = const(62_500_000)
_T0H = const(20)  # 320 | 313-320 ns: 60 ns under the V5's 380 ns maximum
_T1H = const(50)  # 800 | 793-800 ns: the classic nominal, 143 ns from its 650 ns minimum
_T0L = const(53)  # 848 | 847-853 ns: 147 ns from the classic 700 ns minimum
_T1L = const(37)  # 592 | 587-593 ns: 8 | 6.7 ns from the V5's 580 min and classic 600 max;
#                   the best either board can do (system cycles of 8 and 6.7 ns)
# The low that ends every bit is T1L; a 0 adds _T0L - _T1L to it.  One
# instruction lasts at most 16 cycles (4 delay bits beside 1 side-set bit), so
# the phases are split over several: 8 of a PIO's 32 instruction slots.
# tests/firmware/test_ws2812_pio.py runs this program in a PIO emulator and
# checks every time against both windows.
@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
             autopull=True, pull_thresh=8)
def _ws2812():
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[15]                       # low 16: the next bit, MSB first
    nop().side(0)[15]                           # low 16
    nop().side(0)[_T1L - 33]                    # low 5: T1L
    nop().side(1)[_T0H - 17]                    # high 4
    jmp(not_x, "zero").side(1)[15]              # high 16: T0H
    nop().side(1)[14]                           # high 15
    jmp("bitloop").side(1)[_T1H - _T0H - 16]    # high 15: T1H
    label("zero")
    nop().side(0)[_T0L - _T1L - 1]              # low 16, then T1L from bitloop: T0L
    wrap()


class WS2812:
    def __init__(self, pins, lengths):
        segs = segments(lengths)
        if len(pins) != len(segs):
            raise ValueError("%d LED chain pins for %d chains" % (len(pins), len(segs)))
        total = sum(lengths)
        self.buf = bytearray(3 * total)
        out = memoryview(self.buf)
        self._src = []
        self._dma = []
        self._ctrl = []
        self._txf = []
        for i in range(len(segs)):
            first, n = segs[i]
            pio, sm = chain_sm(i)
            s = rp2.StateMachine(4 * pio + sm, _ws2812, freq=_PIO_HZ,
                                 sideset_base=Pin(pins[i]))
            s.active(1)
            d = rp2.DMA()
            self._ctrl.append(d.pack_ctrl(size=0, inc_write=False,
                                          treq_sel=dreq_pio_tx(pio, sm)))
            self._dma.append(d)
            self._src.append(out[3 * first:3 * (first + n)])
            self._txf.append(pio_txf_addr(pio, sm))
        self._frame_us = frame_us(max(lengths))
        self._started = time.ticks_us()
        self.frames = 0

    def busy(self):
        for d in self._dma:
            if d.active():
                return True
        return time.ticks_diff(time.ticks_us(), self._started) < self._frame_us

    def show(self):
        if self.busy():
            return False
        for i in range(len(self._dma)):
            src = self._src[i]
            self._dma[i].config(read=src, write=self._txf[i], count=len(src),
                                ctrl=self._ctrl[i], trigger=True)
        self._started = time.ticks_us()
        self.frames += 1
        return True

    def send_chain(self, i, extra=0):
        n = len(self._src[i]) + 3 * extra
        self._blank = bytearray(n)  # boot only; kept until the DMA is done
        self._dma[i].config(read=self._blank, write=self._txf[i], count=n,
                            ctrl=self._ctrl[i], trigger=True)
        self._started = time.ticks_us()
