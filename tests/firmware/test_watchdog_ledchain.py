"""Watchdog feeding policy, and the pure parts of the PIO WS2812 driver."""

from __future__ import annotations

import json

from tests.mpy import run_mpy


def run(code: str) -> dict:
    return json.loads(run_mpy("import json\n" + code).strip().splitlines()[-1])


def test_watchdog_feeds_only_while_every_task_checks_in() -> None:
    r = run("""
from bbfw.watchdog import Watchdog, NullWDT, make_wdt
now = [1000]
wdt = NullWDT()
wd = Watchdog(wdt, tasks=2, stale_ms=2000, clock=lambda: now[0])
fed = []
for step in range(7):
    now[0] += 500
    wd.checkin(0)
    if step < 2:
        wd.checkin(1)          # task 1 hangs after step 1
    fed.append(wd.feed())
print(json.dumps({"fed": fed, "count": wdt.fed, "stalled": wd.stalled,
                  "stand_in": type(make_wdt(5000)).__name__}))
""")
    assert r["fed"] == [True] * 6 + [False]  # 2.5 s since task 1 last checked in
    assert r["count"] == 6 and r["stalled"] == 1
    assert r["stand_in"] == "NullWDT"  # the unix port has no machine.WDT


def test_chain_segments_addresses_and_dreqs() -> None:
    r = run("""
from bbfw.drivers import ledchain as L
segs = L.segments([160, 160, 160, 157])
errs = []
for bad in ([], [10, 0], [1] * 9):
    try:
        L.segments(bad)
    except ValueError as e:
        errs.append(str(e))
print(json.dumps({"segs": segs, "sm": [L.chain_sm(i) for i in (0, 3, 4, 7)],
                  "txf": [L.pio_txf_addr(0, 0), L.pio_txf_addr(1, 2)],
                  "dreq": [L.dreq_pio_tx(0, 1), L.dreq_pio_tx(1, 3)],
                  "us": L.frame_us(637), "errs": errs}))
""")
    assert r["segs"] == [[0, 160], [160, 160], [320, 160], [480, 157]]
    assert r["sm"] == [[0, 0], [0, 3], [1, 0], [1, 3]]
    assert r["txf"] == [0x50200010, 0x50300018]
    assert r["dreq"] == [1, 11]
    assert r["us"] == 637 * 30 + 300
    assert len(r["errs"]) == 3
