"""Every layout's hardware keeps its headroom (hardware/make_power.py computes it, and the tables of
hardware/power.md, bom.md and wiring.md: tests/test_generated_docs.py keeps those in step)."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from botboard.board import layouts

HARDWARE = layouts.ROOT / "hardware"
FIRMWARE = layouts.ROOT / "firmware" / "bbfw"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_power", HARDWARE / "make_power.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_power"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


mp = _load()


def _doc(name: str) -> dict:
    return json.loads((HARDWARE / "layouts" / f"{name}.json").read_text())


def test_every_layout_keeps_20_percent_headroom_and_its_chains_under_80_percent_of_the_fuse() -> None:
    boards = mp.boards()
    assert sorted(b.id for b in boards) == sorted(p.stem for p in (HARDWARE / "layouts").glob("*.json"))
    for b in boards:
        assert mp.problems(b) == [], b.id
        name, rating = b.supply
        assert (rating - b.total_ma) / rating >= 0.20, (b.id, name)
        for chain in b.chains:
            assert chain.limit_ma <= 0.8 * 5000, b.id
        for station in b.stations:
            assert station.load_ma <= 0.8 * 2500, (b.id, station.name)


def test_every_reader_counts_and_its_transmitter_only_while_its_field_may_be_on() -> None:
    # NXP MFRC522 Table 1 maxima: every reader's digital and analog supply; the transmitter of
    # the fields the schedule may have on at once (a turn: the active station's 6 slots + 1)
    big = mp.board(_doc("ttb-big"))
    assert big.readers == 36 and big.fields_on == 7
    assert big.readers_3v3_ma == pytest.approx(36 * (6.5 + 10) + 7 * 100)
    assert big.readers_5v_ma > big.readers_3v3_ma * 3.3 / 5  # a step-down module loses some
    # a layout without slot places has no schedule: every field on, as before
    doc = _doc("ttb-big")
    for station in doc["stations"]:
        del station["slot_mm"]
    assert mp.board(doc).readers_3v3_ma == pytest.approx(36 * (6.5 + 10 + 100))


def test_the_counts_are_the_layouts_own() -> None:
    # the script reads the JSON itself (stdlib only): it must count as botboard's loader does
    for b in mp.boards():
        layout = layouts.load(b.id)
        assert b.leds == layout.led_count
        assert b.readers == layout.slot_count
        assert b.buttons == layout.button_count
        assert [c.cells for c in b.chains] == [c["cells"] for c in layout.chains]
        assert b.chain_ma == layout.chain_ma
        assert b.power_ma == layout.power_ma
        config = layout.board_config()
        keys = config["buttons"] + (config["cells"] if config["touch"] else 0)
        rows = -(-keys // len(layout.pins["cols"]))  # as firmware/bbfw/hal_rp2.py make_buttons
        assert b.row_595s == -(-rows // 8), b.id


def test_the_led_figures_are_the_firmwares() -> None:
    render = (FIRMWARE / "render.py").read_text()
    assert int(re.search(r"CHANNEL_MA = const\((\d+)\)", render)[1]) == mp.LED_CHANNEL_MA
    assert int(re.search(r"IDLE_MA = const\((\d+)\)", render)[1]) == mp.LED_IDLE_MA
    config = (FIRMWARE / "config.py").read_text()
    default = int(re.search(r"DEFAULT_CHAIN_MA = (\d+)", config)[1])
    doc = _doc("volt")
    doc.pop("chain_ma", None)
    assert mp.board(doc).chain_ma == default == int(mp.FUSE_MA * 0.8)


def test_the_big_arena_has_two_fuses_and_eight_injection_points() -> None:
    # the audit found four chains' worth of fuses written for an arena with two
    bom = (HARDWARE / "bom.md").read_text().split("<!-- END generated (bom.md)")[0]  # the layouts' table
    head = next(line for line in bom.splitlines() if line.startswith("| part |"))
    columns = [c.strip(" `") for c in head.strip("|").split("|")]
    rows = {line.split("|")[1].strip(): [c.strip() for c in line.strip("|").split("|")]
            for line in bom.splitlines() if line.startswith("| ")}
    big = columns.index("ttb-big")
    assert rows["fuse 5 A"][big] == "2"
    assert rows["capacitor 1000 uF 10 V"][big] == "8"
    wiring = (HARDWARE / "wiring.md").read_text()
    assert "| `ttb-big` | 0 | GP2 | 46 | 322 | 0, 100, 200, 300 | 5 A | 4 |" in wiring
    assert "| `ttb-big` | 1 | GP3 | 45 | 315 | 0, 100, 200, 300 | 5 A | 4 |" in wiring


def test_a_layout_that_outgrows_its_hardware_is_refused() -> None:
    hungry = _doc("ttb-big")
    hungry["power_ma"] = 20000
    assert mp.board(hungry).led_ma == 8000  # two chains of 4 A: the chain limits cap it
    hungry["stations"][0]["slots"] = list(range(100))
    assert any("no 5 V supply" in p for p in mp.problems(mp.board(hungry)))
    hot = _doc("ttb-big")
    hot["chain_ma"] = 4500  # 90 % of the 5 A fuse
    assert any("chain 0 may carry 4.50 A" in p for p in mp.problems(mp.board(hot)))
    crowded = _doc("goblins")
    crowded["stations"][0]["slots"] = list(range(40))
    station = mp.board(crowded).stations[0]
    assert station.regulators == 3 and station.load_ma <= 0.8 * 2500


def test_check_finds_stale_docs_and_a_rewrite_fixes_them(tmp_path: Path) -> None:
    shutil.copytree(HARDWARE / "layouts", tmp_path / "layouts")
    for doc in ("power.md", "bom.md", "wiring.md"):
        shutil.copy(HARDWARE / doc, tmp_path / doc)
    doc = copy.deepcopy(_doc("ttb-big"))
    doc["power_ma"] = 7000
    (tmp_path / "layouts" / "ttb-big.json").write_text(json.dumps(doc))
    assert mp.main(["--check"], tmp_path) == 1
    assert mp.main([], tmp_path) == 0
    assert mp.main(["--check"], tmp_path) == 0
    assert "| `ttb-big` | 7,000 mA | 7.00 A |" in (tmp_path / "power.md").read_text()


def test_a_doc_without_its_markers_is_an_error_naming_it(tmp_path: Path) -> None:
    shutil.copytree(HARDWARE / "layouts", tmp_path / "layouts")
    for doc in ("power.md", "bom.md"):
        shutil.copy(HARDWARE / doc, tmp_path / doc)
    (tmp_path / "wiring.md").write_text("# Wiring\n")
    with pytest.raises(ValueError, match="hardware/wiring.md: no generated block"):
        mp.generated(tmp_path)
    assert mp.main(["--check"], tmp_path) == 1
