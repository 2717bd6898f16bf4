"""Reader error counters (ErrorReg) and over temperature, in MicroPython over the chip model:
the bank counts, the board reports them (READER_STATS, ERROR, LOG)."""

from __future__ import annotations

import json
from pathlib import Path

from bbshared import messages as m
from botboard.board import layouts
from botboard.link.fields import reader_stats
from tests.firmware.test_readers_scanner import run
from tests.mpy import run_mpy


def test_bank_counts_crc_errors_collisions_and_over_temperature() -> None:
    r = run("""
from bbfw.sim.ntag import FAULT_CRC
hot = []
bank.on_hot = lambda s, h: hot.append([s, h])
sc.set_priority([1, 2, 3])
f.place(1, U1, P1)
f.place(2, U2, P1, FAULT_CRC)        # every answer with a wrong CRC_A
f.place(3, U3, P1)                   # every tile its own UID (one UID in two slots is a fault)
f.add_second_tag(3, U4, P1)          # two tiles: the anticollision collides
for i in range(4):
    sc.step(4)
before = list(bank.errors)
f.overheat(1)                         # TempErr: the chip switches its antenna off
for i in range(5):
    sc.step(4)
during = [bank.hot[1], bank.errors[5], [e[:2] for e in ev if e[0] == 1]]
f.overheat(1, False)                  # cooled: TempErr clears, the antenna stays off
for i in range(3):
    sc.step(4)
print(json.dumps({"before": before, "during": during, "hot": hot, "hot_after": bank.hot[1],
                  "ev1": [e[:2] for e in ev if e[0] == 1], "errors": list(bank.errors[3:12])}))
""")
    crc, coll = r["before"][6], r["before"][10]
    assert crc >= 2 and r["before"][7:9] == [0, 0]  # slot 2: CRC errors only
    assert coll >= 1 and r["before"][9] == 0  # slot 3: collisions
    assert r["before"][3:6] == [0, 0, 0]  # slot 1 clean
    # over temperature: counted once, the tile gone (nothing answers), then back
    assert r["during"] == [1, 1, [[1, True], [1, False]]]
    assert r["hot"] == [[1, True], [1, False]]
    assert r["hot_after"] == 0 and r["ev1"] == [[1, True], [1, False], [1, True]]
    assert r["errors"][:3] == [0, 0, 1]


def test_the_board_reports_reader_errors_and_over_temperature(tmp_path: Path) -> None:
    config = tmp_path / "board.json"
    config.write_text(json.dumps(layouts.load("ttb-small").board_config()))
    out = run_mpy("""
import json
from bbfw.sim.box import Box, uid, PAYLOAD
from bbfw.sim.ntag import FAULT_CRC
from bbshared import messages as m
box = Box(%r)
box.hello()
box.send(m.GET_READER_STATS)
clean = [p.hex() for t, p in box.got if t == m.READER_STATS]
box.send(m.SET_PRIORITY, bytes([4, 5]))
box.field.place(4, uid(4), PAYLOAD, FAULT_CRC)
box.field.place(5, uid(5), PAYLOAD)
box.steps(10)
box.field.overheat(5)
box.forget()
n = 0
while [5, 0] not in [s[:2] for s in box.said(m.SLOT)] and n < 100:
    box.steps(1)
    n += 1
errors = box.errors()
box.forget()
box.send(m.GET_READER_STATS)
hot = [p.hex() for t, p in box.got if t == m.READER_STATS]
box.field.overheat(5, False)
box.steps(5)
logs = box.said(m.LOG)
slots = [s[:2] for s in box.said(m.SLOT)]
box.forget()
box.send(m.GET_READER_STATS)
cooled = [p.hex() for t, p in box.got if t == m.READER_STATS]
print(json.dumps({"clean": clean, "hot": hot, "cooled": cooled, "errors": errors,
                  "logs": logs, "slots": slots}))
""" % str(config))
    r = json.loads(out.strip().splitlines()[-1])
    assert r["clean"] == [""]  # no reader has anything to report
    hot = reader_stats(bytes.fromhex(r["hot"][0]))
    assert hot[5] == {"hot": 1, "crc_errors": 0, "collisions": 0, "over_temperature": 1}
    assert hot[4]["crc_errors"] >= 3 and hot[4]["hot"] == 0
    assert set(hot) == {4, 5}
    assert [e[:2] for e in r["errors"]] == [[m.E_READER, 5]]
    assert "over temperature" in r["errors"][0][2] and "cool" in r["errors"][0][2]
    assert [m.LOG_INFO, "slot 5: reader cooled, antenna on"] in r["logs"]
    assert r["slots"] == [[5, 1]]  # it reads again: the tile arrives anew
    cooled = reader_stats(bytes.fromhex(r["cooled"][0]))
    assert cooled[5]["hot"] == 0 and cooled[5]["over_temperature"] == 1
