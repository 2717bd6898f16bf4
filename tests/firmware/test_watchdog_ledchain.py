"""Watchdog feeding policy, and the pure parts of the PIO WS2812 driver."""

from __future__ import annotations

import json

from tests.mpy import run_mpy


def run(code: str) -> dict:
    return json.loads(run_mpy("import json\n" + code).strip().splitlines()[-1])


def test_watchdog_feeds_only_while_every_task_checks_in() -> None:
    r = run("""
from bbfw.watchdog import Watchdog, NullWDT, make_wdt, TASKS, INPUT_TASK, RENDER_TASK, LINK_TASK
now = [1000]
out = {}
for hung in (RENDER_TASK, LINK_TASK):
    wdt = NullWDT()
    wd = Watchdog(wdt, tasks=TASKS, stale_ms=2000, clock=lambda: now[0])
    fed = []
    for step in range(7):
        now[0] += 500
        for task in range(TASKS):
            if task != hung or step < 2:   # the hung task stops after step 1
                wd.checkin(task)
        fed.append(wd.feed())
    out[str(hung)] = {"fed": fed, "count": wdt.fed, "stalled": wd.stalled}
out["tasks"] = [TASKS, INPUT_TASK, RENDER_TASK, LINK_TASK]
out["stand_in"] = type(make_wdt(5000)).__name__
print(json.dumps(out))
""")
    assert r["tasks"] == [3, 0, 1, 2]  # input, render and the link task
    for hung in ("1", "2"):
        assert r[hung]["fed"] == [True] * 6 + [False]  # 2.5 s since the hung task last checked in
        assert r[hung]["count"] == 6 and r[hung]["stalled"] == int(hung)
    assert r["stand_in"] == "NullWDT"  # the unix port has no machine.WDT


def test_every_firmware_task_checks_in_with_the_watchdog(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the real Board tasks under asyncio: input, render and link each check in;
    # a link loop that stops checking in (stuck) stops the feeding
    from botboard.board import layouts

    config = tmp_path / "board.json"
    config.write_text(json.dumps(layouts.load("ttb-small").board_config()))
    r = run("""
import asyncio, time
from bbfw.sim.box import Box
from bbfw.watchdog import Watchdog, NullWDT, TASKS
box = Box(%r)
wdt = NullWDT()
wd = Watchdog(wdt, tasks=TASKS, stale_ms=300)
seen = {}
def checkin(task):
    seen[task] = seen.get(task, 0) + 1
    wd.checkin(task)
box.hal.watchdog_checkin = checkin
async def stuck_link():
    while box.board.running:   # a link loop hung in an await: no steps, no check-ins
        await asyncio.sleep_ms(50)
async def main():
    runner = asyncio.create_task(box.board.run())
    await asyncio.sleep_ms(400)
    healthy = wd.feed()
    box.board.link_task = stuck_link
    box.board.running = False
    await runner
    box.board.running = True   # run again with the link stuck
    runner = asyncio.create_task(box.board.run())
    await asyncio.sleep_ms(500)
    stuck = wd.feed()
    box.board.running = False
    await runner
    return healthy, stuck
healthy, stuck = asyncio.run(main())
print(json.dumps({"seen": sorted(seen), "healthy": healthy, "stuck": stuck, "stalled": wd.stalled}))
""" % str(config))
    assert r["seen"] == [0, 1, 2]
    assert r["healthy"] is True
    assert r["stuck"] is False and r["stalled"] == 2  # the link task


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
    assert r["us"] == 21_281 + 300  # 637 LEDs of 24 bits of at most 1392 ns, and the latch
    assert len(r["errs"]) == 3
