"""The Pico HAL (bbfw/hal_rp2.py) in the unix port, on stand-ins for machine and rp2
(firmware/bbfw/sim/rp2stubs): pins from the config, the LED chains, binary-safe
serial, the watchdog and the REPL handoff."""

from __future__ import annotations

import json
from pathlib import Path

from botboard.board import layouts
from tests.mpy import run_mpy

STUBS = Path(__file__).resolve().parents[2] / "firmware" / "bbfw" / "sim" / "rp2stubs"


def run(code: str, config: dict, stdin: bytes = b"") -> dict:
    path = Path("/tmp") / f"bb-rp2-{abs(hash(code)) % 100000}.json"
    path.write_text(json.dumps(config))
    prefix = ("import sys\nsys.path.insert(0, %r)\nimport json, machine, rp2\n"
              "from bbfw import hal_rp2\nhal = hal_rp2.Hal(%r)\n" % (str(STUBS), str(path)))
    try:
        return json.loads(run_mpy(prefix + code, stdin=stdin).strip().splitlines()[-1])
    finally:
        path.unlink()


def test_the_pico_hal_builds_the_board_from_the_config() -> None:
    cfg = layouts.load("ttb-big").board_config()
    r = run("""
b = hal.make_buttons(lambda k, a: None, lambda k, c, t: None)
print(json.dumps({"sms": [e[1:] for e in rp2.log if e[0] == "sm"],
                  "spi": [e[1:] for e in machine.log if e[0] == "spi"],
                  "leds": len(hal.strip.buf) // 3, "slots": hal.readers.count,
                  "alive": sum(hal.readers.alive), "keys": b.keys,
                  "irq": [e[1:] for e in machine.log if e[0] == "irq"],
                  "errors": hal.boot_errors}))
""", cfg)
    assert r["sms"] == [[0, 2], [1, 3]]  # one PIO state machine per chain, on GP2 and GP3
    assert r["spi"] == [[0, 10_000_000]]
    assert r["leds"] == 637 and r["slots"] == 36 and r["keys"] >= 24 + 91
    assert r["alive"] == 0  # nobody answers: the scanner reports each
    # the length check listens on each chain's sense pin (GP8, GP9) and lets it go again;
    # no LED answers on the stubs' sense wires, so both chains are reported short
    assert r["irq"] == [[8, True], [8, False], [9, True], [9, False]]
    assert [e[:2] for e in r["errors"]] == [[10, 0], [10, 1]]
    assert "LED chain 1 (GP3) is shorter than the 315 LEDs configured" in r["errors"][1][2]


def test_serial_is_binary_safe_and_the_repl_handoff_restores_it() -> None:
    cfg = layouts.load("ttb-small").board_config()
    r = run("""
buf = bytearray(16)
n = hal.read_into(buf)
tasks = hal.extra_tasks(None)
hal.release(True)
print(json.dumps({"n": n, "data": bytes(buf[:n]).hex(), "tasks": len(tasks),
                  "wdt": [e[1] for e in machine.log if e[0] == "wdt"],
                  "mem32": [[e[1], e[2] & (1 << 30)] for e in machine.log if e[0] == "mem32"]}))
""", cfg, stdin=b"\x03\x00\x01")
    assert r["n"] == 3 and r["data"] == "030001"  # Ctrl-C is just a byte
    assert r["tasks"] == 1 and r["wdt"] == [8000]
    assert r["mem32"] == [[0x40058000, 0]]  # watchdog ENABLE cleared for mpremote


def test_reading_the_serial_line_allocates_nothing() -> None:
    """Found on the emulated Pico: read(1) made a bytes object of every byte the host sent."""
    cfg = layouts.load("ttb-small").board_config()
    r = run("""
import gc
def measure():  # in a function: new globals would grow the module's dict
    buf = bytearray(64)
    for _ in range(2):  # the first calls may allocate once (poll's result tuple and the like)
        hal.read_into(buf)
    gc.collect()
    before = gc.mem_alloc()
    n = 0
    for _ in range(20):
        n += hal.read_into(buf)
    return {"n": n, "allocated": gc.mem_alloc() - before}
print(json.dumps(measure()))
""", cfg, stdin=bytes(range(1, 256)) * 6)
    assert r["n"] == 20 * 64  # the loop did read
    # read(1) allocated 64 bytes per byte read here (81,984 in all); what is left is
    # a one-off of the unix port's poll object, not per byte
    assert r["allocated"] <= 64


def test_a_refused_config_gives_an_empty_board_and_the_reason() -> None:
    r = run("""
print(json.dumps({"cells": hal.config["cells"], "errors": hal.boot_errors}))
""", {"layout": "x", "cells": 3})
    assert r["cells"] == 0
    assert r["errors"][0][0] == 7 and "lacks 'leds_per_cell'" in r["errors"][0][2]


def test_the_picos_readers_share_one_driver_whose_chip_select_is_the_chains_oe_pin() -> None:
    # the reference wiring on the chip models: every reader's NSS through the 74HC595
    # chain, the driver's chip select the /OE pin itself; each slot reads its own tile
    cfg = layouts.load("ttb-big").board_config()
    path = Path("/tmp") / "bb-rp2-shared.json"
    path.write_text(json.dumps(cfg))
    try:
        out = run_mpy("""
import sys
sys.path.insert(0, %r)
import json, machine
from bbfw.sim.spi_model import SimReaderField
from bbfw.sim.box import uid, PAYLOAD
from bbfw import hal_rp2
field = SimReaderField(36, chain=True)
pins = hal_rp2.PINS
machine.wire(field.spi, {pins["cs_latch"]: field.shift.latch_pin, pins["cs_oe"]: field.shift.oe_pin})
hal = hal_rp2.Hal(%r)
bank = hal.readers
for s in (0, 9, 35):
    field.place(s, uid(s), PAYLOAD)
got = {}
for s in (9, 0, 35, 1):
    bank.field(s, True)
    u = bank.poll(s)
    got[s] = bytes(u).hex() if u else None
    got[s + 100] = bank.read_payload(s) == PAYLOAD if u else None
print(json.dumps({"alive": sum(bank.alive), "got": got, "contention": field.spi.contention,
                  "want": {s: uid(s).hex() for s in (0, 9, 35)}}))
""" % (str(STUBS), str(path)), heap="256K")  # 36 chip models beside the board
    finally:
        path.unlink()
    r = json.loads(out.strip().splitlines()[-1])
    assert r["alive"] == 36 and r["contention"] == 0
    want = r["want"]
    assert r["got"] == {"9": want["9"], "0": want["0"], "35": want["35"], "1": None,
                        "109": True, "100": True, "135": True, "101": None}
