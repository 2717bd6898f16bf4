"""MFRC522 driver against the register-level chip model and virtual NTAG213 tags."""

from __future__ import annotations

import pytest

from tests.firmware._mpyjson import run_json

pytestmark = pytest.mark.parametrize("chain", [False, True], ids=["direct-cs", "hc595-cs"])


def test_init_finds_every_reader_and_empty_slots_time_out(chain: bool) -> None:
    r = run_json("""
sts = [r.detect() for r in rs]
print(json.dumps({"inits": inits, "sts": sts, "v": rs[0].version()}))
""", chain)
    assert r["inits"] == [True] * 4
    assert r["sts"] == [1] * 4  # TIMEOUT
    assert r["v"] == 0x92


def test_reads_seven_byte_uid_and_payload(chain: bool) -> None:
    r = run_json("""
f.place(2, UID, b'tile payload 16b' + b'more')
st = rs[2].detect()
uid = bytes(rs[2].uid).hex()
st2 = rs[2].read(4)
data = bytes(rs[2].data)
st3 = rs[2].read(8)
print(json.dumps({"st": st, "uid": uid, "sak": rs[2].sak, "atqa": rs[2].atqa,
                  "st2": st2, "data": data.decode(), "st3": st3,
                  "more": bytes(rs[2].data[:4]).decode(), "others": [rs[i].detect() for i in (0, 1, 3)]}))
""", chain)
    assert r["st"] == 0 and r["uid"] == "041a2b3c4d5e6f"
    assert r["sak"] == 0x00 and r["atqa"] == 0x0044
    assert r["st2"] == 0 and r["data"] == "tile payload 16b"
    assert r["st3"] == 0 and r["more"] == "more"
    assert r["others"] == [1, 1, 1]


def test_write_then_read_back_and_nak_on_read_only_page(chain: bool) -> None:
    r = run_json("""
tag = f.place(1, UID)
rs[1].detect()
w = rs[1].write(6, b'ABCD')
nak = rs[1].write(0, b'\\xff\\xff\\xff\\xff')
rs[1].detect()
rd = rs[1].read(4)
print(json.dumps({"w": w, "nak": nak, "rd": rd, "page6": bytes(rs[1].data[8:12]).decode(),
                  "mem": bytes(tag.mem[24:28]).decode(), "uid_kept": bytes(tag.mem[0:3]).hex()}))
""", chain)
    assert r["w"] == 0 and r["page6"] == "ABCD" and r["mem"] == "ABCD"
    assert r["nak"] == 5  # NAK: pages 0-1 hold the UID
    assert r["uid_kept"] == "041a2b"


def test_tag_removed_mid_read_is_a_timeout_then_absent(chain: bool) -> None:
    r = run_json("""
f.place(0, UID, b'x' * 16)
st = rs[0].detect()
f.remove_after(0, 0)   # gone before the next frame
rd = rs[0].read(4)
again = rs[0].detect()
print(json.dumps({"st": st, "rd": rd, "again": again}))
""", chain)
    assert r == {"st": 0, "rd": 1, "again": 1}


def test_two_tags_collide_and_one_is_selected_through_both_cascade_levels(chain: bool) -> None:
    r = run_json("""
a = f.place(3, UID)
b = f.add_second_tag(3, b'\\x04\\x1a\\x2b\\x3c\\x4d\\x5e\\x70')   # differs at level 2 only
c_st = rs[3].detect()
first = bytes(rs[3].uid).hex()
coll = rs[3].collided
f.place(3, b'\\x04\\x10\\x00\\x00\\x00\\x00\\x01')
f.add_second_tag(3, b'\\x04\\x11\\x00\\x00\\x00\\x00\\x02')       # differs at level 1
st2 = rs[3].detect()
print(json.dumps({"st": c_st, "uid": first, "coll": coll, "st2": st2,
                  "uid2": bytes(rs[3].uid).hex(), "coll2": rs[3].collided}))
""", chain)
    assert r["st"] == 0 and r["coll"] is True
    # bits differing: 0x6f vs 0x70 - the first differing bit (bit 0) is 1 in 0x6f
    assert r["uid"] == "041a2b3c4d5e6f"
    assert r["st2"] == 0 and r["coll2"] is True and r["uid2"] == "04110000000002"


def test_dead_reader_returns_a_timeout_result_instead_of_hanging(chain: bool) -> None:
    r = run_json("""
f.place(1, UID)
f.kill(1)
st = rs[1].detect()
rd = rs[1].read(4)
f.kill(2, 0xFF)            # MISO pulled high instead
st2 = rs[2].detect()
f.revive(1)
print(json.dumps({"st": st, "rd": rd, "init": rs[1].init(), "st2": st2, "after": rs[1].detect()}))
""", chain)
    assert r["st"] == 6 and r["rd"] == 6 and r["st2"] == 6  # CHIP_TIMEOUT
    assert r["init"] is True and r["after"] == 0


def test_halted_tag_ignores_reqa_and_wakes_on_wupa(chain: bool) -> None:
    r = run_json("""
f.place(0, UID)
rs[0].detect()
h = rs[0].halt()
print(json.dumps({"h": h, "reqa": rs[0].detect(False), "wupa": rs[0].detect(True)}))
""", chain)
    assert r == {"h": 0, "reqa": 1, "wupa": 0}


def test_crc_a_matches_the_chips_coprocessor_and_the_standards_examples(chain: bool) -> None:
    # the driver's software CRC_A against the chip model's CalcCRC run by hand (MFRC522
    # data sheet 10.3.1.4) and ISO/IEC 14443-3 annex B's examples
    r = run_json("""
frame = b'\\x93\\x70\\x88\\x04\\x1a\\x2b\\xfd'
r = rs[0]
r._wreg(0x11, 0x3D)                  # ModeReg: CRC preset 0x6363
r._wreg(0x0A, 0x80)                  # flush the FIFO
for b in frame:
    r._wreg(0x09, b)
r._wreg(0x01, 0x03)                  # CalcCRC
chip = r._rreg(0x22) | (r._rreg(0x21) << 8)
print(json.dumps({"chip": chip, "soft": M.crc_a(frame, 7),
                  "zeros": M.crc_a(b'\\x00\\x00', 2), "example": M.crc_a(b'\\x12\\x34', 2)}))
""", chain)
    assert r["chip"] == r["soft"]
    assert r["zeros"] == 0x1EA0  # annex B: CRC_A of 00 00 is A0 1E
    assert r["example"] == 0xCF26  # and of 12 34, 26 CF


def test_empty_slot_poll_allocates_nothing_and_costs_17_spi_bytes(chain: bool) -> None:
    r = run_json("""
r = rs[0]
r.detect()
b0 = f.spi.bytes
r.detect()
per_poll = f.spi.bytes - b0
def alloc_of(fn):   # bytes allocated by fn(); locals only, so nothing else counts
    gc.collect()
    a = gc.mem_alloc()
    fn()
    return gc.mem_alloc() - a
def loop():
    for i in range(2000):
        r.detect()
d = alloc_of(loop)
print(json.dumps({"bytes": per_poll, "alloc": d}))
""", chain)
    assert r["bytes"] == 17  # five register writes and the FIFO's WUPA (12), one status read (5)
    assert r["alloc"] == 0


def test_faults_on_the_air_give_typed_results_and_the_reader_recovers(chain: bool) -> None:
    # the tag model's fault flag (ntag.FAULT_*): a noisy field, set as data
    r = run_json("""
from bbfw.sim.ntag import FAULT_NONE, FAULT_CRC, FAULT_BCC, FAULT_PARITY, FAULT_PROTOCOL
tag = f.place(0, UID, b'p' * 16)
def field_cycle():  # a failed exchange leaves the tag mid-protocol: a fresh start
    rs[0].antenna(False)
    rs[0].antenna(True)
    time.sleep_us(5100)  # the guard time: the tag takes up to 5 ms to accept WUPA
out = {"clean": rs[0].detect()}
tag.fault = FAULT_CRC                 # after select: the READ's CRC_A arrives damaged
out["read_crc"] = rs[0].read(4)
rs[0].halt()                          # (a selected tag ignores WUPA)
out["select_crc"] = rs[0].detect()    # the SAK's CRC_A too
tag.fault = FAULT_BCC
field_cycle()
out["bcc"] = rs[0].detect()
tag.fault = FAULT_PARITY
field_cycle()
out["parity"] = rs[0].detect()
tag.fault = FAULT_NONE
field_cycle()
out["between"] = rs[0].detect()
tag.fault = FAULT_PROTOCOL
out["read_protocol"] = rs[0].read(4)
tag.fault = FAULT_NONE
field_cycle()
out["again"] = rs[0].detect()
out["read"] = rs[0].read(4)
out["data"] = bytes(rs[0].data).hex()
f.place(1, UID, fault=FAULT_CRC)      # placed noisy
out["placed"] = rs[1].detect()
print(json.dumps(out))
""", chain)
    OK, CRC_ERROR, PROTOCOL_ERROR = 0, 3, 4  # drivers/mfrc522.py results
    assert r["clean"] == OK
    assert r["read_crc"] == CRC_ERROR and r["select_crc"] == CRC_ERROR
    assert r["bcc"] == PROTOCOL_ERROR  # the driver checks the BCC of each cascade level
    assert r["parity"] == PROTOCOL_ERROR and r["read_protocol"] == PROTOCOL_ERROR  # ErrorReg faults
    assert r["between"] == OK and r["again"] == OK and r["read"] == OK and r["data"] == (b"p" * 16).hex()
    assert r["placed"] == CRC_ERROR


def test_a_write_waits_for_the_tag_to_program_and_a_tag_pulled_meanwhile_fails_cleanly(chain: bool) -> None:
    r = run_json("""
import time
tag = f.place(1, UID)
rs[1].detect()
t0 = time.ticks_us()
w = rs[1].write(6, b'ABCD')
took = time.ticks_diff(time.ticks_us(), t0)
f.remove_after(1, 1)                 # it takes the next WRITE, then leaves while programming
pulled = rs[1].write(7, b'EFGH')
f.engine.slot_tags[1] = (tag,)       # laid back on the reader
again = rs[1].detect()
rd = rs[1].read(4)
print(json.dumps({"w": w, "took": took, "pulled": pulled, "again": again, "rd": rd,
                  "page6": bytes(rs[1].data[8:12]).decode()}))
""", chain)
    # the ACK comes only after the page is programmed (4.1 ms): the driver waits for it
    assert r["w"] == 0 and r["took"] >= 4100
    assert r["pulled"] == 1  # TIMEOUT: no ACK came, said as such, not "reader not answering"
    assert r["again"] == 0 and r["rd"] == 0 and r["page6"] == "ABCD"  # the tag still reads


def test_a_known_uid_is_selected_without_anticollision_and_another_tag_stays_silent(chain: bool) -> None:
    # ISO/IEC 14443-3: a PCD that knows the UID may SELECT it straight after WUPA;
    # a tag whose UID it is not gets no answer in and goes back to IDLE
    r = run_json("""
f.place(2, UID, b'tile payload 16b')
rs[2].detect()
rs[2].antenna(False)
rs[2].antenna(True)
import time
time.sleep_ms(6)   # the guard time: a tag just powered up answers nothing sooner
st = rs[2].reselect()
uid = bytes(rs[2].uid).hex()
rd = rs[2].read(4)
data = bytes(rs[2].data).hex()
f.place(2, b'\\x04\\x11\\x00\\x00\\x00\\x00\\x02')   # another tile in its place
other = rs[2].reselect()
full = rs[2].detect()
print(json.dumps({"st": st, "uid": uid, "rd": rd, "data": data,
                  "other": other, "full": full, "uid2": bytes(rs[2].uid).hex()}))
""", chain)
    assert r["st"] == 0 and r["uid"] == "041a2b3c4d5e6f"
    assert r["rd"] == 0 and bytes.fromhex(r["data"]) == b"tile payload 16b"  # selected: READ answers
    assert r["other"] == 1  # TIMEOUT: the SELECT named a UID nobody has
    assert r["full"] == 0 and r["uid2"] == "04110000000002"  # the new tag woke again: IDLE, not lost


def test_each_reader_keeps_its_own_timer_while_another_changes_its(chain: bool) -> None:
    # the driver writes a reader's timer reload only when that reader's setting changes:
    # a write after another reader's read and request must still get its 12 ms, not 0.175 ms
    r = run_json("""
f.place(1, UID)
f.place(2, b'\\x04\\x11\\x00\\x00\\x00\\x00\\x02', b'x' * 16)
rs[2].detect()
rs[2].read(4)                        # reader 2: the 0.5 ms timer
rs[1].detect()
first = rs[1].write(6, b'ABCD')      # reader 1: the 12 ms timer
rs[2].request()                      # reader 2: the 0.175 ms timer
second = rs[1].write(7, b'EFGH')     # reader 1's timer untouched: 12 ms still
print(json.dumps({"first": first, "second": second}))
""", chain)
    assert r["first"] == 0 and r["second"] == 0


def test_a_slow_host_gets_its_answers_late_never_lost(chain: bool) -> None:
    # slow is never wrong: the CPU away for 20 ms (longer than any timer and the
    # driver's wall-clock guard) between sending a frame and looking at the chip
    r = run_json("""
import time
class Slow(M.NtagReader):
    def _rreg(self, reg):
        if reg == 0x04:                  # ComIrqReg: the driver waits for the answer
            time.sleep_ms(20)
        return M.NtagReader._rreg(self, reg)
s = Slow(f.spi, f.cs(1))
s.init()
time.sleep_ms(6)                         # the field's guard time
f.place(1, UID)
sel = s.detect()
w = s.write(6, b'ABCD')                  # the ACK comes 4.1 ms after the frame
rd = s.read(4)
f.remove(1)
gone = s.detect()
print(json.dumps({"sel": sel, "w": w, "rd": rd, "page6": bytes(s.data[8:12]).decode(), "gone": gone}))
""", chain)
    assert r["sel"] == 0 and r["w"] == 0 and r["rd"] == 0 and r["page6"] == "ABCD"
    assert r["gone"] == 1  # TIMEOUT: nobody there, not "reader not answering"


def test_a_timer_shorter_than_the_answers_first_bits_hears_nobody(chain: bool) -> None:
    # ISO/IEC 14443-3: the ATQA starts 86-91 us after the WUPA, and the chip's timer stops
    # at its 5th bit (139 us): the driver's 175 us timer hears the tag, a 125 us one would not
    r = run_json("""
f.place(1, UID)
f.place(2, UID)
ok = rs[1].request()
rs[2]._timer(4)                      # reload 4: 5 ticks, 125 us
M.NtagReader.frame[0] = 0x52         # WUPA
short = rs[2]._transceive(1, 7, 0, 4)
print(json.dumps({"ok": ok, "short": short}))
""", chain)
    assert r["ok"] == 0  # OK: the ATQA came
    assert r["short"] == 1  # TIMEOUT: the timer ran out before the answer could stop it
