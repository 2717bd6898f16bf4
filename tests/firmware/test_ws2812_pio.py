"""The WS2812 PIO program, run cycle by cycle: every bit's high and low time lies inside both
Worldsemi datasheets' windows, on a Pico (125 MHz) and on a Pico 2 (150 MHz).

The program is the firmware's own: firmware/bbfw/drivers/ws2812.py is imported in the MicroPython
unix port over the rp2 stand-in (firmware/bbfw/sim/rp2stubs/rp2.py), whose asm_pio assembles the
decorated function with the rp2 port's encoding, and whose StateMachine records the frequency the
driver asks for. pioemu (rp2040-pio-emulator) runs the words; the side-set pin's runs of cycles
become nanoseconds through the clock divider the rp2 port programs for that frequency.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from pioemu import ShiftRegister, State, emulate

from botboard.bench import firmware as bench
from botboard.chip.waveform import CLASSIC, V5
from tests.mpy import run_mpy

STUBS = Path(__file__).resolve().parents[2] / "firmware" / "bbfw" / "sim" / "rp2stubs"
PICO_HZ = 125_000_000  # RP2040 system clock as MicroPython sets it
PICO2_HZ = 150_000_000  # RP2350
RP2040_200_HZ = 200_000_000  # the RP2040's certified maximum since pico-sdk 2.1.1, should a port use it
# Data through the chain: every bit pair, inside and across bytes.
DATA = bytes([0xAA, 0x00, 0xFF, 0x01, 0x80, 0x55])

# Windows in ns, (min, max), of both parts (the datasheets' figures: botboard/chip/waveform.py).
# What ws2812.py claims: every time at least this far (ns) inside both windows, jitter included.
CLAIMED_MARGIN_NS = {PICO_HZ: 8.0, PICO2_HZ: 6.6, RP2040_200_HZ: 5.0}

# The program before issue 17 (pico-examples' ws2812.pio at 8 MHz, 10 cycles a bit).
OLD_PROGRAM = """
@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
             autopull=True, pull_thresh=8)
def old():
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()
"""
# What the Raspberry Pi pioasm (and Adafruit's pioasm) make of that program: checks the stand-in.
OLD_WORDS = [0x6221, 0x1123, 0x1400, 0xA442]
OLD_HZ = 8_000_000


@dataclass(frozen=True)
class Program:
    words: list[int]
    execctrl: int
    shiftctrl: int
    sideset_init: object
    freq: int

    @property
    def wrap(self) -> tuple[int, int]:
        return (self.execctrl >> 7) & 31, (self.execctrl >> 12) & 31  # SMx_EXECCTRL (datasheet 3.7)

    @property
    def pull_thresh(self) -> int:
        return (self.shiftctrl >> 25) & 31 or 32  # SMx_SHIFTCTRL: 0 means 32


def _program(fields: dict) -> Program:
    return Program(fields["words"], fields["execctrl"], fields["shiftctrl"], fields["sideset"],
                   fields["freq"])


def _mpy_json(code: str) -> dict:
    prefix = "import sys, json\nsys.path.insert(0, %r)\nimport rp2\n" % str(STUBS)
    return json.loads(run_mpy(prefix + code).strip().splitlines()[-1])


FIELDS = 'json.dumps({"words": list(P[0]), "execctrl": P[3], "shiftctrl": P[4], "sideset": P[7], '


@pytest.fixture(scope="module")
def firmware() -> dict:
    """The driver's program and frequency, as the driver hands them to its StateMachine."""
    return _mpy_json("""
from bbfw.drivers import ws2812, ledchain
ws2812.WS2812([2], [1])
n, P, freq = rp2.machines[0]
print(%s"freq": freq, "bit_ns": ledchain.BIT_NS, "frame_637": ledchain.frame_us(637)}))
""" % FIELDS)


@pytest.fixture(scope="module")
def old() -> Program:
    return _program(_mpy_json(OLD_PROGRAM + "P = old\nprint(%s\"freq\": %d}))" % (FIELDS, OLD_HZ)))


def waveform(prog: Program, data: bytes) -> list[tuple[int, int]]:
    """Runs (level, PIO cycles) of the side-set pin while `data` goes out, ending in the low the
    state machine holds once the data run out."""
    assert prog.sideset_init == 2 and not prog.execctrl >> 30 & 1  # one side-set pin, not optional
    assert prog.shiftctrl >> 17 & 1 and not prog.shiftctrl >> 19 & 1  # autopull, shifting left
    target, top = prog.wrap
    # The DMA writes single bytes; the bus replicates a byte over all four lanes.
    state = State(transmit_fifo=deque(b * 0x01010101 for b in data))
    runs: list[list[int]] = []
    while True:
        state = _autopull(state, prog.pull_thresh)
        # the side-set of an OUT that waits for data takes effect all the same (datasheet 3.5.1)
        starved = _out_starved(prog, state)
        before, state = next(emulate(
            prog.words, stop_when=lambda _op, _s: False, initial_state=state, auto_pull=True,
            pull_threshold=prog.pull_thresh, shift_osr_right=False, side_set_count=1,
            wrap_target=target, wrap_top=top))
        level = state.pin_values & 1
        if runs and runs[-1][0] == level:
            runs[-1][1] += state.clock - before.clock
        else:
            runs.append([level, state.clock - before.clock])
        if starved:
            return [(level, n) for level, n in runs]


def _autopull(state: State, thresh: int) -> State:
    # The hardware refills an emptied OSR on or right after the OUT that empties it (RP2040
    # datasheet 3.7, SHIFTCTRL AUTOPULL), so no later OUT waits for it. pioemu 0.88 refills only
    # when the next OUT runs, a cycle of stall that the chip does not have: refill here first.
    if state.output_shift_register.counter < thresh or not state.transmit_fifo:
        return state
    fifo = deque(state.transmit_fifo)
    return replace(state, output_shift_register=ShiftRegister(fifo.popleft(), 0), transmit_fifo=fifo)


def _out_starved(prog: Program, state: State) -> bool:
    opcode = prog.words[state.program_counter]
    return opcode >> 13 == 3 and state.output_shift_register.counter >= prog.pull_thresh \
        and not state.transmit_fifo


def bits_of(data: bytes) -> list[int]:
    return [(b >> (7 - i)) & 1 for b in data for i in range(8)]


def pulses(runs: list[tuple[int, int]]) -> list[tuple[int, int | None]]:
    """(high, low) cycles of each bit; the last bit's low is the latch, open-ended."""
    if runs[0][0] == 0:
        runs = runs[1:]  # the line is low before the first bit
    assert runs[-1][0] == 0, "the line must idle low"
    out: list[tuple[int, int | None]] = []
    for i in range(0, len(runs), 2):
        out.append((runs[i][1], runs[i + 1][1] if i + 2 < len(runs) else None))
    return out


def divider_256(sys_hz: int, pio_hz: int) -> int:
    """SMx_CLKDIV as the rp2 port sets it for freq=pio_hz: 16.8 fixed point, in 1/256ths. Older
    ports truncate, newer ones round; for the clocks tested here both give the same."""
    assert sys_hz * 256 // pio_hz == round(sys_hz * 256 / pio_hz)
    return sys_hz * 256 // pio_hz


def span_ns(cycles: int, sys_hz: int, div: int) -> tuple[float, float]:
    """Shortest and longest time of `cycles` PIO cycles. A fractional divider makes each PIO cycle
    a whole number of system cycles, int(div) or one more, so that any run of them is within one
    system cycle of nominal (RP2040 datasheet 3.5.5); an integer divider has no such spread."""
    in_256ths = cycles * div  # of a system cycle
    shortest, longest = in_256ths // 256, -(-in_256ths // 256)
    return shortest * 1e9 / sys_hz, longest * 1e9 / sys_hz


def timings(prog: Program, data: bytes, sys_hz: int) -> list[tuple[str, float, float]]:
    """(name, shortest ns, longest ns) of every high and low time of every bit sent."""
    sent = pulses(waveform(prog, data))
    assert len(sent) == 8 * len(data)
    div = divider_256(sys_hz, prog.freq)
    out = []
    for bit, (high, low) in zip(bits_of(data), sent):
        out.append(("T%dH" % bit, *span_ns(high, sys_hz, div)))
        if low is not None:
            out.append(("T%dL" % bit, *span_ns(low, sys_hz, div)))
    return out


def margins(times: list[tuple[str, float, float]]) -> dict[str, float]:
    """For each time's name, the least distance (ns) inside both parts' windows; negative: outside."""
    worst: dict[str, float] = {}
    for name, shortest, longest in times:
        for part in (CLASSIC, V5):
            lo, hi = part[name]
            worst[name] = min(worst.get(name, 1e9), shortest - lo, hi - longest)
    return worst


@pytest.mark.parametrize("sys_hz", list(CLAIMED_MARGIN_NS))
def test_every_bit_sits_inside_both_datasheets_with_the_claimed_margin(firmware: dict, sys_hz: int) -> None:
    m = margins(timings(_program(firmware), DATA, sys_hz))
    assert set(m) == {"T0H", "T0L", "T1H", "T1L"}
    assert min(m.values()) >= CLAIMED_MARGIN_NS[sys_hz] - 1e-6, m
    # the binding one: T1L's common window is 20 ns wide (V5 580 min, classic 600 max)
    assert min(m, key=lambda k: m[k]) == "T1L"


def test_the_pico_divider_is_an_integer_and_the_pico_2_error_is_small(firmware: dict) -> None:
    assert divider_256(PICO_HZ, firmware["freq"]) == 2 * 256  # exact: no jitter at all
    div = divider_256(PICO2_HZ, firmware["freq"])
    assert div == 2 * 256 + 102  # 2.398: each PIO cycle is 2 or 3 system cycles
    assert abs(PICO2_HZ * 256 / div / firmware["freq"] - 1) < 0.001  # +0.065 %


def test_the_old_program_fails_the_v5s_low_time(old: Program) -> None:
    assert old.words == OLD_WORDS  # the stand-in assembles as pioasm does
    times = timings(old, DATA, PICO_HZ)
    t1l = [longest for name, _, longest in times if name == "T1L"]
    assert max(t1l) < 380 < V5["T1L"][0]  # 375 ns nominal, 368-376 with the 15.625 divider
    m = margins(times)
    assert m["T1L"] < -200 and m["T0H"] < 0  # and the 250 ns T0H dips under the classic minimum


def test_the_frame_time_follows_the_bit_period(firmware: dict) -> None:
    prog = _program(firmware)
    sent = pulses(waveform(prog, bytes([0xFF, 0x00, 0x00])))  # a 1-bit and a 0-bit with their lows
    ns_per_cycle = 1e9 / prog.freq
    one = (sent[0][0] + sent[0][1]) * ns_per_cycle
    zero = (sent[8][0] + sent[8][1]) * ns_per_cycle
    assert one == firmware["bit_ns"] and zero < one  # ledchain.BIT_NS is the longest bit
    assert firmware["frame_637"] == -(-637 * 24 * firmware["bit_ns"] // 1000) + 300
    assert bench.WS2812_NS_PER_LED == 24 * firmware["bit_ns"]  # the host benchmark's figure too
