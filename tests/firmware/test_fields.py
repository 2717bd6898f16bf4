"""Readers that never hear their neighbours: the simulated board with the coupling model
(firmware/bbfw/sim/coupling.py) at the reference pitch, the firmware's field groups, the
ISO 14443-3 guard time and a UID heard by two readers, in the real MicroPython port."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bbshared import messages as m
from botboard.board import layouts
from tests.firmware._mpyjson import run_json
from tests.mpy import run_mpy

BOARD = """
import json
from bbfw.sim.box import Box
from bbshared import messages as m, tilepayload as tp
U = b'\\x04\\x51\\x62\\x73\\x84\\x95'
def uid(i): return U + bytes((i,))
def tile(i): return tp.encode(1, 1 + i % 6, 2, 100 + i)
box = Box(CONFIG)
box.hello()
f = box.field
bank = box.hal.readers
most_on = 0
seen = []  # (slot, state, uid) of every SLOT, each once (a flapping slot must not fill the heap)
errors = []
def run(n):
    global most_on
    for _ in range(n):
        box.steps(1)
        most_on = max(most_on, sum(bank.on))
        for s in box.said(m.SLOT):
            s = [s[0], s[1], bytes(s[2]).hex()]
            if s not in seen:
                seen.append(s)
        errors.extend(e[:3] for e in box.errors() if e[:2] not in [x[:2] for x in errors])
        box.forget()
def slots():
    return seen
"""


def _config(tmp_path: Path, layout: str, schedule: bool) -> str:
    cfg: dict[str, Any] = layouts.load(layout).sim_config()
    if not schedule:
        del cfg["fields"]  # the firmware keeps every field on, as before the schedule
    path = tmp_path / "board.json"
    path.write_text(json.dumps(cfg))
    return str(path)


def _board(tmp_path: Path, code: str, schedule: bool = True, layout: str = "ttb-small") -> Any:
    # the chip models of the coupled field share the 64-bit heap with the board: the heap of
    # the bench's simulated runs (bench/firmware.py UNIX_HEAP_K); the Pico's is measured apart
    out = run_mpy(BOARD.replace("CONFIG", repr(_config(tmp_path, layout, schedule))) + code,
                  timeout=120, heap="256K")
    return json.loads(out.strip().splitlines()[-1])


FULL_STATION = """
box.send(m.SET_PRIORITY, bytes(range(6)))          # the north station acts
for s in range(6):
    f.place(s, uid(s), tile(s))                    # every slot of it full
at = [(a + b) / 2 for a, b in zip(f.engine.coupling.at(7), f.engine.coupling.at(8))]
f.place_at(at[0], at[1], uid(40), tile(40))        # a tile half-way between two east slots
run(300)
print(json.dumps({"slots": slots(), "most_on": most_on, "errors": [e[:2] for e in errors]}))
"""


@pytest.mark.parametrize("schedule", [True, False], ids=["field-groups", "all-fields-on"])
def test_a_full_station_and_a_tile_between_two_slots_give_no_event_for_an_empty_slot(
        tmp_path: Path, schedule: bool) -> None:
    r = _board(tmp_path, FULL_STATION, schedule)
    # a SLOT for a slot that holds no tile, or with another slot's tile
    wrong = [[s, st, u] for s, st, u in r["slots"]
             if st != m.SLOT_EMPTY and (s >= 6 or u != f"045162738495{s:02x}")]
    if schedule:
        # each tile read by its own reader alone; the tile between two slots is no slot's
        arrived = sorted(s for s, st, _ in r["slots"] if st == m.SLOT_TAG)
        assert arrived == list(range(6)) and wrong == []
        assert r["errors"] == []
        assert r["most_on"] <= 7  # fields on at once: the slots one turn polls (budget 6 + 1)
    else:
        # the same board with every field on: neighbours hear each other's tiles
        assert wrong, r["slots"]


def test_a_uid_heard_by_two_readers_is_a_fault_not_a_move(tmp_path: Path) -> None:
    r = _board(tmp_path, """
box.send(m.SET_PRIORITY, bytes(range(6, 12)))
f.place(6, uid(1), tile(1))
run(30)
first = list(slots())
seen.clear()
f.place(10, uid(1), tile(1))    # the same UID (a cloned tag, or one tile heard twice)
run(60)
print(json.dumps({"first": first, "then": slots(), "errors": errors}))
""")
    assert [6, m.SLOT_TAG] in [s[:2] for s in r["first"]]
    assert [[10, m.SLOT_CROSS]] == [s[:2] for s in r["then"]]  # said once; no departure from 6
    [(code, ref, text)] = r["errors"]
    assert code == m.E_CROSS_READ and ref == 10
    assert text == "slot 10: hears the tile of slot 6 too"  # the host says what to do (SLOT_CROSS)


@pytest.mark.parametrize("coupled", [False, True], ids=["per-slot", "coupling-model"])
def test_the_chip_model_keeps_the_guard_time(coupled: bool) -> None:
    # A request sooner than 5 ms after the field came on gets no answer, so a firmware that
    # does not wait fails here as it would on a board (ISO/IEC 14443-3, 5).
    place = ("from bbfw.sim.coupling import Coupling\n"
             "f.engine.coupling = Coupling(%r, [[0, 0], [50, 0], [100, 0], [150, 0]])\n"
             % layouts.load("ttb-small").sim_config()["coupling"]) if coupled else ""
    r = run_json(place + """
import time
f.place(1, UID)
rs[1].antenna(False)
rs[1].antenna(True)
soon = rs[1].detect()
rs[1].antenna(False)
rs[1].antenna(True)
time.sleep_us(5100)
later = rs[1].detect()
print(json.dumps({"soon": soon, "later": later}))
""")
    assert r == {"soon": 1, "later": 0}  # TIMEOUT, then OK


def test_weak_links_lose_and_garble_frames_at_the_model_rate() -> None:
    # A tag 70 mm from a reader (hearing margin 1.4, under the model's 2): weak. Of many
    # WUPAs, some are lost and some garbled, at about the rates coupling.json states,
    # and the same seed gives the same run.
    model = layouts.load("ttb-small").sim_config()["coupling"]
    code = """
from bbfw.sim.coupling import Coupling
from bbfw.sim.ntag import Ntag213
c = Coupling(%r, [[0, 0], [70, 0]])
t = Ntag213(b'\\x04\\x01\\x02\\x03\\x04\\x05\\x06')
c.place(t, 0, 0)
c.field(0, 1)
c.field(1, 1)
import time
time.sleep_us(5100)
lost = garbled = valid = 0
for _ in range(2000):
    if c.link(1, t):
        lost += 1
    elif c.garble:
        garbled += 1
        valid += c.garble == 2
print(json.dumps({"lost": lost, "garbled": garbled, "valid": valid, "own": c.link(0, t),
                  "heard": [len(h) for h in c.heard]}))
""" % model
    a = json.loads(run_mpy("import json\n" + code).strip().splitlines()[-1])
    b = json.loads(run_mpy("import json\n" + code).strip().splitlines()[-1])
    assert a == b  # seeded
    assert a["heard"] == [1, 1] and a["own"] == 0
    assert abs(a["lost"] / 2000 - model["weak_silent"]) < 0.05
    rate = model["weak_garbled"] * model["rxgain_garble_factor"][4]  # the chip's reset gain
    assert abs(a["garbled"] / 2000 - rate) < 0.04
    assert 0 < a["valid"] < a["garbled"]


def test_a_second_tile_on_a_known_one_is_seen_when_its_field_comes_back(tmp_path: Path) -> None:
    # under the field groups a tile's check selects it by its known UID (no anticollision);
    # a tile laid on it must still be heard: it answers the REQA after that select
    r = _board(tmp_path, """
box.send(m.SET_PRIORITY, bytes(range(6)))
f.place(8, uid(8), tile(8))
run(60)
first = list(slots())
f.add_second_tag(8, uid(9), tile(9))
run(60)
several = list(slots())
errs = list(errors)
f.remove(8)
f.place(8, uid(8), tile(8))                      # the second tile taken away again
seen.clear()
run(60)
print(json.dumps({"first": first, "several": several, "errors": errs, "after": slots()}))
""")
    assert [8, m.SLOT_TAG, "04516273849508"] in r["first"]
    assert [8, m.SLOT_SEVERAL] in [s[:2] for s in r["several"]]
    assert [m.E_BAD_TAG, 8, "slot 8: several tags in the slot"] in r["errors"]
    assert [8, m.SLOT_TAG] in [s[:2] for s in r["after"]]  # the trouble is over: the tile counts again


def test_a_tile_is_written_after_its_field_was_off(tmp_path: Path) -> None:
    # a tile whose field went off is known by its UID; a write must select it (WUPA +
    # SELECT), not leave it idle with the second-tile check's REQA: an idle tag answers no WRITE
    r = _board(tmp_path, """
f.place(8, uid(8), tile(8))
run(60)
bank.poll(8)
bank.field(8, False)                              # its group's turn is over: the tag loses power
known = bank._selected[8]
st = bank.write_payload(8, tile(3))
left_on = bank.on[8]                              # left as the scanner had it: off
bank.field(8, True)
again = bank.read_payload(8)
print(json.dumps({"known": known, "st": st, "again": again == tile(3), "on": left_on}))
""")
    assert r["known"] == 2  # readers._KNOWN: the case under test
    assert r["st"] == 0 and r["again"]
    assert r["on"] == 0  # the scanner switches off only the fields it switched on


def test_a_tile_taken_from_a_waiting_station_is_seen_within_a_round_of_its_checks(
        tmp_path: Path) -> None:
    # the acting station's zone and the others take turns on their own; the others' tiles
    # are checked once in the 5-step cycle, and a slot whose tile missed a check is looked
    # at in each turn of its group until it is gone: one round of the checks (15 tiles of
    # a group, one a cycle: 150 steps), then absent_after - 1 turns of its group, not three
    # rounds (450)
    r = _board(tmp_path, """
pings = [0]
def talking(n):  # the host pings now and then, as the daemon does: no 3 s of silence
    for _ in range(n):
        pings[0] += 1
        if pings[0] % 50 == 0:
            box.send(m.PING, 1)
        run(1)
box.send(m.SET_PRIORITY, bytes(range(6)))
for s in range(6, 36):
    f.place(s, uid(s), tile(s))
talking(400)
arrived = sorted(s for s, st, _ in slots() if st == m.SLOT_TAG)
seen.clear()
f.remove(20)
steps = 0
while not slots() and steps < 450:
    talking(1)
    steps += 1
print(json.dumps({"arrived": arrived, "steps": steps, "then": slots()}))
""", layout="ttb-big")
    assert r["arrived"] == list(range(6, 36))
    assert [s[:2] for s in r["then"]] == [[20, m.SLOT_EMPTY]]
    assert r["steps"] <= 150 + 2 * 2 + 5
