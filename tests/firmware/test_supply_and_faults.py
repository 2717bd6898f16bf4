"""GET_SUPPLY and the simulated board's wiring faults, in MicroPython: the rail read through
the HAL sags with the LEDs' current through the supply's source resistance; swapped, dead and
cross-reading readers and a reversed chain are what the control socket's hands meet."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from botboard.board import layouts, sim_faults
from tests.mpy import run_mpy

REF = layouts.load("ttb-small")

CODE = """
import json, gc
from bbfw.sim.box import Box
from bbfw import hal_sim
from bbshared import messages as m
hal = hal_sim.Hal(CONFIG, "0", None, FAULTS)
box = Box(CONFIG, hal=hal)
box.hello()
def supply():
    box.send(m.GET_SUPPLY)
    box.steps(2)
    return box.said(m.SUPPLY)[-1]
dark = supply()
box.send(m.SET_PALETTE, 1, bytes((255, 255, 255)))
box.send(m.SET_RANGE, 0, bytes((1, m.look(m.NO_FACING, m.SOLID))) * box.board.cell_count)
box.steps(3)
lit = supply()
box.send(m.SET_RANGE, 0, bytes((0, 0)) * box.board.cell_count)
box.send(m.SET_CELLS, bytes((0, 31, 1, m.look(m.NO_FACING, m.SOLID))))
box.steps(3)
leds = hal.faults.physical(hal.strip.buf, hal.config["chains"], 7)
lit_at = [p for p in range(61) if any(leds[21 * p:21 * p + 21])]
hearing = [hal.faults.readers_hearing(s) for s in range(24)]
gc.collect()
print(json.dumps({"dark": dark, "lit": lit, "lit_at": lit_at, "hearing": hearing,
                  "errors": box.errors()}))
"""


def run(tmp_path: Path, faults: list[str]) -> Any:
    config, doc = tmp_path / "board.json", tmp_path / "faults.json"
    config.write_text(json.dumps(REF.board_config()))
    doc.write_text(json.dumps(sim_faults.parse(faults, REF)))
    code = CODE.replace("CONFIG", repr(str(config))).replace("FAULTS", repr(str(doc)))
    return json.loads(run_mpy(code).strip().splitlines()[-1])


@pytest.mark.parametrize("supply", ["reference", "sagging"])
def test_the_rail_sags_with_the_led_current_through_the_source_resistance(tmp_path: Path, supply: str) -> None:
    r = run(tmp_path, ["sag"] if supply == "sagging" else [])
    model = sim_faults.supply(supply)
    (dark_mv, dark_ma, budget), (lit_mv, lit_ma, _) = r["dark"], r["lit"]
    assert budget == REF.power_ma and lit_ma > 0.9 * budget  # full white, clamped to the budget
    assert dark_ma == REF.led_count  # dark WS2812Bs draw about 1 mA each
    for mv, ma in ((dark_mv, dark_ma), (lit_mv, lit_ma)):  # within the estimate's rounding
        assert abs(mv - (model["open_mv"] - ma * model["source_mohm"] / 1000)) < 40
    assert (lit_mv < 4500) == (supply == "sagging")


def test_wiring_faults_as_the_hands_meet_them(tmp_path: Path) -> None:
    r = run(tmp_path, ["swap:0,1", "cross:9,10", "dead:7", "reverse:1"])
    assert r["hearing"][0] == [1] and r["hearing"][1] == [0] and r["hearing"][10] == [10, 9]
    assert r["hearing"][5] == [5]
    first, count = REF.chains[1]["first_cell"], REF.chains[1]["cells"]
    assert r["lit_at"] == [first + count - 1]  # the chain's first cell is at its far end
    assert [e[:2] for e in r["errors"] if e[0] == 5] == [[5, 7]]  # E_READER, the dead one, at boot


def test_the_pico_reads_vsys_with_the_diode_drop_or_a_divider_on_the_rail() -> None:
    from tests.firmware.test_hal_rp2 import run as run_rp2

    read = "machine.adc_u16.update({29: 31775, 27: 29789})\nprint(json.dumps(hal.supply_mv()))\n"
    # VSYS/3 at 1.6 V: VSYS 4.8 V, and the 1N5819's 0.3 V back on top
    assert abs(run_rp2(read, REF.board_config()) - 5100) <= 1  # (float rounding)
    cfg = REF.board_config()
    cfg["pins"] = {**cfg["pins"], "supply_adc": 27, "supply_divider": 3.0, "supply_offset_mv": 0}
    assert abs(run_rp2(read, cfg) - 4500) <= 1  # a 20 k / 10 k divider at 1.5 V: the rail itself
