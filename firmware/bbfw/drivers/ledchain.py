# Pure logic of the WS2812 chain driver (ws2812.py), kept apart so that it runs
# and is tested in the unix port, where rp2 does not exist.
#
#   segments(lengths) -> [(first_led, count), ...]   one per chain, in order
#   chain_sm(i) -> (pio, sm)          chains 0..3 on PIO0, 4..7 on PIO1
#   pio_txf_addr(pio, sm) -> int      TX FIFO register address (DMA write target)
#   dreq_pio_tx(pio, sm) -> int       DMA transfer request of that TX FIFO
#   frame_us(leds) -> int             time to send a chain (at most) plus the latch gap
# Addresses and DREQ numbers are the same on RP2040 and RP2350 for PIO0/PIO1
# (RP2040 datasheet 2.5.3.1 and 3.7; RP2350 datasheet 12.6 and 11.7).
from micropython import const

_PIO0_BASE = const(0x50200000)
_PIO_STRIDE = const(0x100000)  # PIO1 at 0x50300000 (PIO2 on RP2350 at 0x50400000)
_TXF0 = const(0x010)
BIT_NS = const(1392)  # the longest bit, a 1: T1H + T1L = 87 PIO cycles of 16 ns (ws2812.py)
LATCH_US = const(300)  # WS2812B-V5 needs > 280 us low to latch (the classic part > 50 us)
MAX_CHAINS = const(8)


def segments(lengths):
    if not 1 <= len(lengths) <= MAX_CHAINS:
        raise ValueError("1..%d LED chains, got %d" % (MAX_CHAINS, len(lengths)))
    out = []
    first = 0
    for n in lengths:
        if n <= 0:
            raise ValueError("an LED chain needs at least one LED, got %d" % n)
        out.append((first, n))
        first += n
    return out


def chain_sm(i):
    return i // 4, i % 4


def pio_txf_addr(pio, sm):
    return _PIO0_BASE + pio * _PIO_STRIDE + _TXF0 + 4 * sm


def dreq_pio_tx(pio, sm):
    return 8 * pio + sm


def frame_us(leds):
    # worst case, every bit a 1 (a 0 takes 1168 ns); 24 bits an LED
    return (leds * 24 * BIT_NS + 999) // 1000 + LATCH_US
