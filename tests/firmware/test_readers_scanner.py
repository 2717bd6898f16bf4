"""ReaderBank (payloads) and SlotScanner (debounce, priorities, errors) over the chip model."""

from __future__ import annotations

import json

from tests.mpy import run_mpy

SETUP = """
import json, gc
from bbfw.sim.spi_model import SimReaderField
from bbfw.drivers.ntag_reader import NtagReader
from bbfw.readers import ReaderBank
from bbfw.scanner import SlotScanner
from bbshared import tilepayload as tp
N = 8
f = SimReaderField(N, chain=True)
bank = ReaderBank([NtagReader(f.spi, f.cs(i)) for i in range(N)])
bank.init()
ev = []
err = []
def on_event(slot, present, uid, payload):
    ev.append([slot, present, uid.hex(), payload.hex() if payload else None])
def on_error(slot, code, text):
    err.append([slot, code, text])
sc = SlotScanner(bank, N, on_event, present_after=2, absent_after=3, on_error=on_error)
U1 = b'\\x04\\x00\\x00\\x00\\x00\\x00\\x01'
U2 = b'\\x04\\x00\\x00\\x00\\x00\\x00\\x02'
U3 = b'\\x04\\x00\\x00\\x00\\x00\\x00\\x03'
U4 = b'\\x04\\x00\\x00\\x00\\x00\\x00\\x04'
P1 = tp.encode(1, 7, 2, 1001)
"""


def run(code: str) -> dict:
    return json.loads(run_mpy(SETUP + code).strip().splitlines()[-1])


def test_payload_written_then_read_back_and_checked() -> None:
    r = run("""
f.place(0, U1)
blank = bank.read_payload(0)
st_blank = bank.status[0]
w = bank.write_payload(0, P1)
bank.poll(0)
p = bank.read_payload(0)
f.tag(0).mem[20] ^= 1          # corrupt the colour byte on the tag
bank.poll(0)
bad = bank.read_payload(0)
print(json.dumps({"blank": blank, "st_blank": st_blank, "w": w, "p": p.hex(),
                  "bad": bad, "st_bad": bank.status[0], "decoded": list(tp.decode(p))}))
""")
    assert r["blank"] is None and r["st_blank"] == 7  # NO_PAYLOAD
    assert r["w"] == 0
    assert r["decoded"] == [1, 7, 2, 1001]
    assert r["bad"] is None and r["st_bad"] == 8  # BAD_PAYLOAD


def test_arrival_after_two_reads_departure_after_three_misses() -> None:
    r = run("""
log = []
f.place(1, U1, P1)
sc.set_priority([1])
for i in range(4):
    sc.step(2)
    log.append(len(ev))
f.remove(1)
for i in range(4):
    sc.step(2)
    log.append(len(ev))
print(json.dumps({"log": log, "ev": ev}))
""")
    assert r["log"] == [0, 1, 1, 1, 1, 1, 2, 2]
    assert r["ev"][0] == [1, True, "04000000000001", r["ev"][0][3]]
    assert r["ev"][0][3].startswith("bb01010702")
    assert r["ev"][1] == [1, False, "04000000000001", None]


def test_a_flickering_read_does_not_make_an_event() -> None:
    r = run("""
sc.set_priority([2])
f.place(2, U1, P1)
sc.step(2)           # one read
f.remove(2)
sc.step(2); sc.step(2)
f.place(2, U1, P1)
sc.step(2); sc.step(2)  # arrives
f.remove(2); sc.step(2); sc.step(2)   # two misses only
f.place(2, U1, P1); sc.step(2)
print(json.dumps({"ev": [[e[0], e[1]] for e in ev]}))
""")
    assert r["ev"] == [[2, True]]


def test_swapped_tile_is_a_departure_then_an_arrival() -> None:
    r = run("""
sc.set_priority([3])
f.place(3, U1, P1)
for i in range(3): sc.step(2)
f.place(3, U2, tp.encode(1, 8, 2, 1002))
for i in range(6): sc.step(2)
print(json.dumps({"ev": [[e[0], e[1], e[2][-2:]] for e in ev]}))
""")
    assert r["ev"] == [[3, True, "01"], [3, False, "01"], [3, True, "02"]]


def test_priority_slots_are_polled_every_step_and_the_rest_round_robin() -> None:
    r = run("""
order = []
class Spy:
    status = bytearray(N); collided = bytearray(N)
    def poll(self, s):
        order.append(s)
    def read_payload(self, s):
        return None
s2 = SlotScanner(Spy(), N, on_event)
s2.set_priority([5, 4])
for i in range(3):
    s2.step(3)
a = order[:]
del order[:]
s2.set_priority([0, 1, 2, 3, 4])
for i in range(2):
    s2.step(3)
print(json.dumps({"a": a, "b": order}))
""")
    # budget 3: both priority slots, then one of the others in turn
    assert r["a"] == [5, 4, 0, 5, 4, 1, 5, 4, 2]
    # more priority slots than the budget: they rotate, one poll stays for the rest
    assert r["b"] == [0, 1, 5, 2, 3, 6]


def test_bad_tags_several_tags_and_dead_reader_are_reported_once() -> None:
    r = run("""
sc.set_priority([0, 1, 2, 3])
f.place(0, U1)                       # blank tag
f.place(1, U2, P1[:15] + b'\\x00')   # corrupt CRC
f.place(2, U3, P1)                   # (every tile its own UID: one UID in two slots is a fault)
f.add_second_tag(2, U4, P1)          # two tiles in one slot
f.kill(3)
for i in range(6):
    sc.step(5)
codes = sorted([e[0], e[1]] for e in err)
texts = sorted(e[2] for e in err)
f.revive(3)
f.place(3, U4, P1)
for i in range(3):
    sc.step(5)
print(json.dumps({"codes": codes, "texts": texts, "ev": sorted([e[0], e[1], e[3] is None] for e in ev),
                  "errs_after": len(err)}))
""")
    assert r["codes"] == [[0, 4], [1, 4], [2, 4], [3, 5]]
    assert r["texts"] == ["slot 0: tag has no tile payload", "slot 1: tile payload corrupt",
                          "slot 2: several tags in the slot", "slot 3: reader not answering"]
    # blank and corrupt tags still arrive (payload None) so the host can enrol or explain them
    assert r["ev"] == [[0, True, True], [1, True, True], [2, True, False], [3, True, False]]
    assert r["errs_after"] == 4


def test_tag_removed_during_the_payload_read_makes_no_arrival() -> None:
    r = run("""
sc.set_priority([4])
f.place(4, U1, P1)
tag = f.tag(4)
sc.step(2)                 # first read: WUPA + select
f.remove_after(4, 0)       # gone before the confirming read, which is the payload READ
sc.step(2)
mid = [bank.status[4], tag.frames]
for i in range(6):
    sc.step(2)
print(json.dumps({"ev": ev, "err": err, "mid": mid}))
""")
    assert r["mid"] == [1, 5]  # READ timed out; the tag had seen WUPA and 4 select frames
    assert r["ev"] == [] and r["err"] == []


def test_steady_state_scanning_allocates_nothing() -> None:
    r = run("""
f.place(1, U1, P1)
f.place(6, U2, P1)
f.kill(7)
sc.set_priority([0, 1, 2])
for i in range(20):
    sc.step(4)
def alloc_of(fn):   # bytes allocated by fn(); locals only, so nothing else counts
    gc.collect()
    a = gc.mem_alloc()
    fn()
    return gc.mem_alloc() - a
def loop():
    for i in range(500):
        sc.step(4)
d = alloc_of(loop)
print(json.dumps({"alloc": d, "polls": sc.polls, "present": list(sc.present)}))
""")
    assert r["present"] == [0, 1, 0, 0, 0, 0, 1, 0]
    assert r["alloc"] == 0
