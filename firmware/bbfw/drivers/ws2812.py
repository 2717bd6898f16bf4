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
# parallel and the CPU is free: show() copies buf into the DMA's own buffer
# (no tearing while the renderer draws the next frame) and starts the DMA.
# The DMA writes single bytes into the TX FIFO; the RP2040/RP2350 bus
# replicates a byte write over all four lanes, so with autopull every 8 bits
# and left shift the state machine sends each byte MSB first.  No conversion
# loop, no allocation.  Pure parts (addresses, DREQs, timing) are in
# ledchain.py and tested in the unix port.
from machine import Pin
import rp2
import time

from .ledchain import segments, chain_sm, pio_txf_addr, dreq_pio_tx, frame_us

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *  # noqa: F401,F403  names of the PIO assembler


# 10 PIO cycles per bit at 8 MHz = 800 kbit/s: a 1 is high 7 cycles (875 ns),
# a 0 is high 2 cycles (250 ns), the rest of the 1.25 us low.
@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
             autopull=True, pull_thresh=8)
def _ws2812():
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()


class WS2812:
    def __init__(self, pins, lengths):
        segs = segments(lengths)
        if len(pins) != len(segs):
            raise ValueError("%d LED chain pins for %d chains" % (len(pins), len(segs)))
        total = sum(lengths)
        self.buf = bytearray(3 * total)
        self._out = bytearray(3 * total)
        out = memoryview(self._out)
        self._src = []
        self._dma = []
        self._ctrl = []
        self._txf = []
        for i in range(len(segs)):
            first, n = segs[i]
            pio, sm = chain_sm(i)
            s = rp2.StateMachine(4 * pio + sm, _ws2812, freq=8_000_000,
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
        self._out[:] = self.buf
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
