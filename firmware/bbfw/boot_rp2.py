# The Pico's boot (hal_rp2.Hal): the readers, the LED strip and the LED
# chains' sensing, built and checked once.  Apart from the HAL so that this
# code leaves the heap once the board is up (hal_rp2._BOOT_ONLY).
#
#   make_readers(spi, pins, cfg) -> ReaderBank   (initialised)
#   make_strip(cfg, lengths) -> WS2812, or a stand-in for a config without chains
#   chain_short(strip, chains) -> per chain True / False / None (selftest.check)
from machine import Pin

from .drivers.hc595 import HC595
from .drivers.ntag_reader import NtagReader
from .drivers.ws2812 import WS2812
from .readers import ReaderBank, SharedReaders


def make_readers(spi, p, cfg):
    slots = cfg["slots"]
    oe = Pin(p["cs_oe"], Pin.OUT, value=1)
    chain = HC595(spi, Pin(p["cs_latch"], Pin.OUT, value=0), oe, max(slots, 1))
    # one driver for every reader, its chip select the /OE pin itself (a
    # GPIO write in C: SharedReaders points the chain at the slot)
    # the field groups, gain/drive and zones are used once, here: out of the config kept
    bank = ReaderBank(SharedReaders(NtagReader(spi, oe), chain, slots), cfg.pop("fields", None),
                      cfg.pop("rf", None), cfg.pop("zones", None))
    bank.init()
    return bank


def make_strip(cfg, lengths):
    chains = cfg["chains"]
    if not chains:
        return _NoStrip()
    return WS2812([c[0] for c in chains], lengths)


def chain_short(strip, chains):
    # A chain whose config names a sense pin (the last LED's DOUT wired back
    # to a GPIO): send exactly the configured LEDs - nothing may come out of
    # the end; then one LED more - something must.
    result = []
    for i, c in enumerate(chains):
        if len(c) < 4:
            result.append(None)
            continue
        pin = Pin(c[3], Pin.IN, Pin.PULL_DOWN)
        seen = [0]

        def edge(_, seen=seen):
            seen[0] += 1
        pin.irq(edge, Pin.IRQ_RISING)
        exact = _sense(strip, i, 0, seen)
        extra = _sense(strip, i, 1, seen)
        pin.irq(None)
        result.append(bool(exact or not extra))
    return result


def _sense(strip, chain, extra, seen):
    import time

    while strip.busy():
        pass
    seen[0] = 0
    strip.send_chain(chain, extra)
    while strip.busy():
        pass
    time.sleep_ms(1)
    return seen[0]


class _NoStrip:
    # a board whose config was refused: nothing to light
    buf = bytearray(0)

    def show(self):
        return True

    def busy(self):
        return False
