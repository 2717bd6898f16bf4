# Pure logic of the WS2812 chain driver (ws2812.py), kept apart so that it runs
# and is tested in the unix port, where rp2 does not exist.
#
#   segments(lengths) -> [(first_led, count), ...]   one per chain, in order
#   chain_sm(i) -> (pio, sm)          chains 0..3 on PIO0, 4..7 on PIO1
#   pio_txf_addr(pio, sm) -> int      TX FIFO register address (DMA write target)
#   dreq_pio_tx(pio, sm) -> int       DMA transfer request of that TX FIFO
#   frame_us(leds) -> int             time to send a chain plus the latch gap
# Addresses and DREQ numbers are the same on RP2040 and RP2350 for PIO0/PIO1
# (RP2040 datasheet 2.5.3.1 and 3.7; RP2350 datasheet 12.6 and 11.7).
from micropython import const

_PIO0_BASE = const(0x50200000)
_PIO_STRIDE = const(0x100000)  # PIO1 at 0x50300000 (PIO2 on RP2350 at 0x50400000)
_TXF0 = const(0x010)
US_PER_LED = const(30)  # 24 bits at 800 kbit/s
LATCH_US = const(300)  # WS2812B V5 needs > 280 us low to latch
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
    return leds * US_PER_LED + LATCH_US
