"""Button matrix: debounce, press/release/long press, stuck keys, with a fake clock."""

from __future__ import annotations

import json

from tests.mpy import run_mpy

SETUP = """
import json, gc
from bbfw.drivers.buttons import ButtonMatrix
from bbfw.hal_sim import PinColumns
class Row:
    def __init__(s): s.v = 1
    def value(s, v=None):
        if v is None: return s.v
        s.v = v
class Col:   # reads low when a pressed key's row is driven low
    def __init__(s, c): s.c = c
    def value(s, v=None):
        for r in range(2):
            if rows[r].v == 0 and held[r * 3 + s.c]:
                return 0
        return 1
rows = [Row(), Row()]
cols = [Col(c) for c in range(3)]
held = [0] * 6
ev = []
errs = []
bm = ButtonMatrix(rows, PinColumns(cols), lambda k, a: ev.append([k, a]), debounce=3, long_ms=800,
                  stuck_ms=5000, on_error=lambda k, c, t: errs.append([k, c, t]))
t = 0
def scans(n, pattern=None):
    global t
    for i in range(n):
        if pattern:
            held[4] = pattern[i % len(pattern)]
        bm.scan(t)
        t += 5
"""


def run(code: str) -> dict:
    return json.loads(run_mpy(SETUP + code).strip().splitlines()[-1])


def test_press_at_once_release_after_debounce_and_bounces_ignored() -> None:
    r = run("""
scans(5)
held[4] = 1
scans(1)
b = list(ev)
scans(10, [1, 0, 1, 1, 0, 1])   # contact bounce while held: no new events
c = len(ev)
held[4] = 0
scans(2)
d = len(ev)
scans(3, [1, 0, 0])             # a bounce as it opens: still no new press
e = len(ev)
scans(1)
print(json.dumps({"b": b, "c": c, "d": d, "e": e, "ev": ev, "down": bm.down(4)}))
""")
    assert r["b"] == [[4, 1]]  # PRESS on the first scan that reads it down
    assert r["c"] == 1 and r["d"] == 1 and r["e"] == 1  # RELEASE waits for 3 agreeing scans
    assert r["ev"] == [[4, 1], [4, 2]] and r["down"] is False


def test_long_press_comes_once_then_release() -> None:
    r = run("""
scans(4)
held[1] = 1
scans(3)
pressed_at = t
while t - pressed_at < 1500:
    scans(1)
held[1] = 0
scans(3)
print(json.dumps({"ev": ev}))
""")
    assert r["ev"] == [[1, 1], [1, 3], [1, 2]]


def test_stuck_keys_are_reported_at_power_on_and_after_stuck_ms() -> None:
    r = run("""
held[0] = 1                  # down from power-on
scans(10)
held[5] = 1
scans(3)
t += 6000
scans(1)
scans(5)
held[0] = 0
scans(3)
print(json.dumps({"ev": ev, "errs": [[e[0], e[1]] for e in errs], "text": errs[0][2]}))
""")
    # key 0: no PRESS/RELEASE from a key down at power-on, one stuck report
    # key 5: a PRESS, a long press, then a stuck report after 5 s
    assert r["ev"] == [[5, 1], [5, 3]]
    assert r["errs"] == [[0, 6], [5, 6]]
    assert r["text"] == "button 0 stuck down"


def test_scanning_allocates_nothing() -> None:
    r = run("""
scans(5)
def alloc_of(fn):   # bytes allocated by fn(); locals only, so nothing else counts
    gc.collect()
    a = gc.mem_alloc()
    fn()
    return gc.mem_alloc() - a
def loop():
    for i in range(400):
        bm.scan(i * 5)
print(json.dumps({"alloc": alloc_of(loop)}))
""")
    assert r["alloc"] == 0


def test_a_595_chain_matrix_reads_its_quiet_rows_in_one_load_and_a_held_keys_row_alone() -> None:
    out = run_mpy("""
import json
from bbfw.drivers.buttons import ButtonMatrix
from bbfw.hal_sim import PinColumns
from bbfw.drivers.hc595 import HC595
from bbfw.sim.spi_model import SPIBus, ShiftRegModel
bus = SPIBus()
shift = ShiftRegModel(16)
bus.clock_into(shift)
shift.oe_pin.value(0)                      # /OE tied low: outputs always driven
chain = HC595(bus, shift.latch_pin, None, 15)
down = set()
class Col:
    def __init__(self, c): self.c = c
    def value(self, v=None):
        for r in range(15):
            if shift.output(r) == 0 and (r, self.c) in down:
                return 0
        return 1
ev = []
bm = ButtonMatrix(chain.rows(15), PinColumns([Col(c) for c in range(8)]),
                  lambda k, a: ev.append([k, a]), long_ms=100)
for t in range(5):
    bm.scan(t * 8)
w0 = chain.writes
bm.scan(40)
idle = chain.writes - w0
rows_low = [shift.output(r) for r in range(15)]
down.add((3, 2))
bm.scan(48)
pressed_on_first = list(ev)
w0 = chain.writes
bm.scan(56)
held = chain.writes - w0
for t in range(8, 20):
    bm.scan(t * 8)
down.add((5, 7))                           # another key, in a quiet row, while the first is held
bm.scan(20 * 8)
second = ev[-1]
down.discard((5, 7))
for t in range(21, 30):
    bm.scan(t * 8)
down.clear()
for t in range(30, 36):
    bm.scan(t * 8)
w0 = chain.writes
bm.scan(36 * 8)
print(json.dumps({"idle": idle, "low": rows_low, "held": held, "first": pressed_on_first,
                  "ev": ev, "idle_again": chain.writes - w0, "second": second}))
""")
    r = json.loads(out.strip().splitlines()[-1])
    assert r["idle"] == 1 and r["low"] == [0] * 15  # every row low in one load
    assert r["held"] == 2  # the quiet rows' look, then the held key's own row
    key = 3 * 8 + 2
    assert r["first"] == [[key, 1]]  # still pressed on the scan that first sees it
    assert r["second"] == [5 * 8 + 7, 1]  # a press in a quiet row, seen on its first scan
    assert [e for e in r["ev"] if e[0] == key] == [[key, 1], [key, 3], [key, 2]]  # long, release
    assert [e for e in r["ev"] if e[0] != key] == [[5 * 8 + 7, 1], [5 * 8 + 7, 2]]
    assert r["idle_again"] == 1


def test_the_picos_columns_are_read_at_once_from_gpio_in_in_runs_of_pins() -> None:
    # the reference wiring's columns GP10-15 and GP26-27 (two runs), read as the
    # SIO's GPIO_IN register; a pressed key pulls its column's GPIO low
    out = run_mpy("""
import json
from bbfw.drivers.buttons import ButtonMatrix, GpioColumns
GPIOS = [10, 11, 12, 13, 14, 15, 26, 27]
class Row:
    def __init__(self): self.v = 1
    def value(self, v=None):
        if v is None: return self.v
        self.v = v
rows = [Row() for _ in range(6)]
down = set()
class GpioIn:   # mem32: only the GPIO_IN word is read
    def __init__(self): self.reads = []
    def __getitem__(self, a):
        self.reads.append(a)
        v = 0x3FFFFFFF
        for r, c in down:
            if rows[r].v == 0:
                v &= ~(1 << GPIOS[c])
        return v
mem = GpioIn()
cols = GpioColumns(mem, GPIOS)
ev = []
bm = ButtonMatrix(rows, cols, lambda k, a: ev.append([k, a]))
for t in range(4):
    bm.scan(t * 8)
n = len(mem.reads)
down.add((3, 7))
down.add((5, 0))
bm.scan(40)
down.clear()
for t in range(6, 10):
    bm.scan(t * 8)
print(json.dumps({"len": len(cols), "runs": cols._runs, "per_scan": (len(mem.reads) - n) // 5,
                  "addrs": sorted(set(mem.reads)), "ev": ev}))
""")
    r = json.loads(out.strip().splitlines()[-1])
    assert r["len"] == 8 and r["runs"] == [[10, 0x3F, 0], [26, 0x3, 6]]
    assert r["addrs"] == [0xD0000004] and r["per_scan"] == 6  # one read a row
    assert sorted(r["ev"]) == [[3 * 8 + 7, 1], [3 * 8 + 7, 2], [5 * 8 + 0, 1], [5 * 8 + 0, 2]]


def test_the_simulated_boards_matrix_reads_its_quiet_rows_at_once_without_ghosts() -> None:
    # hal_sim's row pins (PinRows) on the model matrix, as the simulated board scans them:
    # after the quiet rows' look, a row read alone sees only its own keys
    out = run_mpy("""
import json
from bbfw.drivers.buttons import ButtonMatrix
from bbfw.hal_sim import ModelMatrix, PinColumns
mx = ModelMatrix(24)
ev = []
bm = ButtonMatrix(mx.rows, PinColumns(mx.col_pins), lambda k, a: ev.append([k, a]))
t = 0
def scans(n):
    global t
    for _ in range(n):
        bm.scan(t)
        t += 8
scans(5)
mx.down[2] = 1
scans(3)
mx.down[17] = 1                  # a second key, another row, while the first is held
scans(3)
mx.down[2] = 0
scans(5)
mx.down[17] = 0
scans(5)
print(json.dumps(ev))
""")
    ev = json.loads(out.strip().splitlines()[-1])
    assert ev == [[2, 1], [17, 1], [2, 2], [17, 2]]
