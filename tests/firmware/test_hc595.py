"""74HC595 chain driver: bit order through the shift-register model, /OE-gated selects."""

from __future__ import annotations

import json

from tests.mpy import run_mpy

SETUP = """
import json
from bbfw.sim.spi_model import SPIBus, ShiftRegModel
from bbfw.drivers.hc595 import HC595

class Rec:   # records what goes out on the wire
    def __init__(s): s.sent = []
    def write(s, b): s.sent.append(bytes(b).hex())

def oe_chain(n):   # a chain of n outputs with /OE wired, on the bus and shift-register models
    bus = SPIBus()
    sr = ShiftRegModel(n)
    bus.clock_into(sr)
    return bus, sr, HC595(bus, sr.latch_pin, sr.oe_pin, n)
"""


def run(code: str) -> dict:
    return json.loads(run_mpy(SETUP + code).strip().splitlines()[-1])


def test_bytes_go_out_farthest_chip_first_msb_first() -> None:
    r = run("""
rec = Rec()
class P:
    def value(s, v=None): pass
c = HC595(rec, P(), None, 24)
c.set(0, 0)    # chip 0, QA
c.set(15, 0)   # chip 1, QH
c.set(17, 0)   # chip 2, QB
c.latch()
print(json.dumps({"sent": rec.sent[-1]}))
""")
    # chip 2 byte first (bit 1 low), then chip 1 (bit 7 low), then chip 0 (bit 0 low)
    assert r["sent"] == "fd7ffe"


def test_outputs_land_on_the_right_pins_of_the_model_chain() -> None:
    r = run("""
bus = SPIBus()
sr = ShiftRegModel(20)
bus.clock_into(sr)
sr.oe_pin.value(0)    # /OE tied low: outputs always driven
c = HC595(bus, sr.latch_pin, None, 20)
lows = []
for i in (0, 7, 8, 13, 19):
    c.set(i, 0)
    c.latch()
    lows.append([j for j in range(20) if sr.output(j) == 0])
    c.set(i, 1)
    c.latch()
print(json.dumps({"lows": lows, "all_high": all(sr.output(j) for j in range(20))}))
""")
    assert r["lows"] == [[0], [7], [8], [13], [19]]
    assert r["all_high"] is True


def test_oe_gated_select_shifts_only_when_the_reader_changes() -> None:
    r = run("""
from bbfw.sim.spi_model import ChainSelect
bus, sr, c = oe_chain(16)
w0 = c.writes
cs = ChainSelect(c, sr.oe_pin, 9)
seen = []
for k in range(3):
    cs.value(0)
    seen.append([j for j in range(16) if sr.output(j) == 0])
    bus.write(b'\\x00\\x00')     # reader traffic also clocks the 595's shift stage
    cs.value(1)
    seen.append([j for j in range(16) if sr.output(j) == 0])
loads = c.writes - w0
ChainSelect(c, sr.oe_pin, 3).value(0)
other = [j for j in range(16) if sr.output(j) == 0]
print(json.dumps({"seen": seen, "loads": loads, "other": other, "after": c.writes - w0}))
""")
    assert r["seen"] == [[9], [], [9], [], [9], []]
    assert r["loads"] == 1  # the one-hot pattern was shifted once, then only /OE moved
    assert r["other"] == [3] and r["after"] == 2


def test_point_latches_one_reader_low_at_a_time_across_chips_with_outputs_off() -> None:
    r = run("""
bus, sr, c = oe_chain(36)
seen = []
for i in (5, 5, 13, 35, 0, 8, 7, 35):
    c.point(i)
    off = all(sr.output(j) for j in range(36))   # /OE high: every output Hi-Z (pulled up)
    sr.oe_pin.value(0)
    seen.append([off] + [j for j in range(36) if sr.output(j) == 0])
    sr.oe_pin.value(1)
print(json.dumps({"seen": seen, "loads": c.writes}))
""")
    assert r["seen"] == [[True, 5], [True, 5], [True, 13], [True, 35], [True, 0], [True, 8],
                         [True, 7], [True, 35]]
    assert r["loads"] == 1 + 7  # the chain's first load, then one each time the reader changed
