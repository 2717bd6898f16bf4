"""Host tools around the firmware: the mpy-cross build, deploy's REPL handoff
against the simulated board, the layout drawings, the firmware benchmark."""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path

import pytest

from botboard.board import deploy, firmware_build, layouts
from botboard.bench import firmware as bench
from botboard.hardware.draw import svg
from botboard.board.sim import SimBoard
from ..patience import scaled, until, wait_for


def test_the_board_build_holds_the_firmware_and_no_simulator_code() -> None:
    build = firmware_build.build(board_only=True)
    mods = set(build.modules)
    assert {"bbfw/app.mpy", "bbfw/hal_rp2.mpy", "bbfw/drivers/ws2812.mpy",
            "bbshared/link.mpy", "bbshared/messages.mpy"} <= mods
    assert not any(m.startswith("bbfw/sim/") or m == "bbfw/hal_sim.mpy" for m in mods)
    assert all((build.directory / m).read_bytes()[:1] == b"M" for m in mods)  # .mpy header
    assert build.main.name == "main.py"
    # unchanged sources: the same cache directory, nothing compiled again
    assert firmware_build.build(board_only=True).directory == build.directory


def test_deploy_copies_modules_main_and_config_in_order(tmp_path: Path) -> None:
    build = firmware_build.build(board_only=True)
    cmds = deploy.copy_commands(build.directory, build.main, tmp_path / "board.json")
    assert cmds[0][0] == "exec" and "('bbfw', 'bbshared')" in cmds[0][1]
    assert cmds[1][:3] == ["fs", "cp", "-r"] and cmds[1][-1] == ":"
    assert cmds[2][-1] == ":main.py" and cmds[3][-1] == ":board.json" and cmds[4] == ["reset"]


def test_deploy_reports_a_failing_mpremote_step(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    monkeypatch.setattr(deploy, "handoff", lambda port: None)
    seen: list[str] = []

    def runner(cmd: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(cmd, 1, "", "could not enter raw repl")

    with pytest.raises(deploy.DeployError, match="mpremote failed while checking the board's "
                       "MicroPython: could not enter raw repl"):
        deploy.deploy("/dev/null-port", "ttb-small", progress=seen.append, runner=runner)
    assert seen[0].startswith("compiling") and any("no firmware answered" in s for s in seen)


@pytest.mark.parametrize("answer,words", [
    ("micropython 1.21.0 1542", "runs micropython 1.21.0; the firmware needs MicroPython 1.22.0 or newer"),
    ("circuitpython 9.1.0 6", "runs circuitpython 9.1.0"),
    ("micropython 1.40.0 7", "loads .mpy format 7, but this mpy-cross writes format 6"),
    (">>> ", "did not say which MicroPython it runs"),
])
def test_deploy_checks_the_boards_micropython_before_copying(monkeypatch: pytest.MonkeyPatch,
                                                             answer: str, words: str) -> None:
    import subprocess

    monkeypatch.setattr(deploy, "handoff", lambda port: None)
    sent: list[list[str]] = []

    def runner(cmd: list[str]) -> subprocess.CompletedProcess[str]:
        sent.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, answer + "\n", "")

    with pytest.raises(deploy.DeployError, match=words):
        deploy.deploy("/dev/null-port", "ttb-small", progress=lambda s: None, runner=runner)
    assert len(sent) == 1 and sent[0][3] == "exec"  # nothing was copied or removed


def test_deploy_copies_after_a_board_that_runs_a_fit_micropython(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    monkeypatch.setattr(deploy, "handoff", lambda port: None)
    sent: list[list[str]] = []
    said: list[str] = []

    def runner(cmd: list[str]) -> subprocess.CompletedProcess[str]:
        sent.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, "micropython 1.24.1 518\n", "")  # 518 & 0xFF = 6

    deploy.deploy("/dev/null-port", "ttb-small", progress=said.append, runner=runner)
    assert [c[3] for c in sent] == ["exec", "exec", "fs", "fs", "fs", "reset"]
    assert any("MicroPython 1.24.1, .mpy format 6" in s for s in said)


def test_handoff_stops_the_simulated_firmware() -> None:
    board = SimBoard("ttb-small")
    board.start()
    try:
        assert deploy.handoff(board.port, timeout=scaled(5)) == firmware_build.version()
        wait_for(lambda: board.proc and board.proc.poll() is not None, 5, "the firmware to stop")
        assert board.proc is not None and board.proc.poll() == 0  # the loop ended, cleanly
    finally:
        board.stop()


def test_handoff_to_a_silent_port_says_nothing_answered() -> None:
    master, slave = os.openpty()
    try:
        assert deploy.handoff(os.ttyname(slave), timeout=scaled(0.3)) is None
    finally:
        os.close(master)
        os.close(slave)


def test_handoff_to_a_missing_port_is_a_clear_error() -> None:
    with pytest.raises(deploy.DeployError, match="cannot open /dev/no-such-board"):
        deploy.handoff("/dev/no-such-board")


@pytest.mark.parametrize("name", layouts.names())
def test_every_layout_is_drawn_with_its_cells_chains_and_slots(name: str) -> None:
    layout = layouts.load(name)
    text = svg(layout)
    assert text.count("<polygon") == len(layout.cells)
    for n, chain in enumerate(layout.chains):
        assert f"chain {n} GP{chain['pin']}" in text
    for station in layout.stations:
        assert f">{station.name}<" in text
    last = layout.slot_count - 1
    assert re.search(rf"\b{last} \({last // 8}\.Q{'ABCDEFGH'[last % 8]}\)", text)


def test_every_layout_makes_a_board_config_the_firmware_accepts() -> None:
    from tests.mpy import run_mpy

    configs = [layouts.load(n).board_config() for n in layouts.names()]
    out = run_mpy("from bbfw import config\nimport json\nfor c in %s:\n    config.check(c)\n"
                  "print('ok')" % repr(configs))
    assert out.strip().endswith("ok")
    assert all(c["chains"][0][0] == 2 for c in configs)  # LED chains from GP2 (pinout.md)


def test_every_layout_carries_the_power_budget_of_hardware_power_md() -> None:
    # the budgets are data in the layout files; power.md's supply table states the same figures
    table = (layouts.ROOT / "hardware" / "power.md").read_text()
    for name in sorted(p.stem for p in layouts.LAYOUT_DIR.glob("*.json")):  # the reference boards
        layout = layouts.load(name)
        assert layout.board_config()["power_ma"] == layout.power_ma > 0
        assert re.search(rf"\| `{name}` \| {layout.power_ma:,} mA \|", table), name


def test_a_layout_without_a_sane_power_budget_is_refused_saying_what_to_do() -> None:
    doc = json.loads((layouts.LAYOUT_DIR / "ttb-small.json").read_text())
    del doc["power_ma"]
    with pytest.raises(layouts.LayoutError, match="no power_ma: give the LED current budget"):
        layouts.from_json(doc)
    for bad in (0, -5, 70000, "5000", True):
        doc["power_ma"] = bad
        with pytest.raises(layouts.LayoutError, match="power_ma must be the LED current budget in mA"):
            layouts.from_json(doc)


def test_the_firmware_refuses_a_board_config_with_a_bad_power_budget() -> None:
    from tests.mpy import run_mpy

    cfg = layouts.load("goblins").board_config()
    out = run_mpy("from bbfw import config\nc = %r\nc['power_ma'] = -1\ntry:\n    config.check(c)\n"
                  "    print('accepted')\nexcept config.ConfigError as e:\n    print(e)" % cfg)
    assert out.strip().splitlines()[-1] == "'power_ma' must be a number 0..65535, not -1"


def test_firmware_bench_allocates_nothing_per_iteration_and_reports_its_figures() -> None:
    """The bench's own figures on the unix port: no allocation per main-loop iteration, the bytes
    per event. Its 32-bit (webassembly) heap figures are left out here (--no-heap32): they are
    checked in test_heap32.py. 500 iterations (not 2000): a byte allocated per iteration would
    still show 500 times over. --quick: the interpreter times are rough (a tenth of the calls,
    once, and a third of the poll order recorded), which took most of this test's time; the
    counts asserted are exact either way."""
    args = argparse.Namespace(layout="ttb-small", iterations=500, pico_loop_us=bench.PICO_LOOP_US,
                              pico2_loop_us=bench.PICO2_LOOP_US, no_bisect=True, no_heap32=True,
                              quick=True)
    r = bench.run(args)
    assert r["alloc_per_iteration_bytes"] == 0
    assert r["per_event"]["led_bytes_per_frame"] == 3 * 427
    assert r["per_event"]["empty_slot_poll"]["spi_bytes"] == 22  # 17 to the reader + 5 to the 595s
    assert r["per_event"]["link_bytes_slot_arrival"] == 37
    assert r["frame_rate_fps"] > 0 and r["tag_to_event_ms_worst"] > 0
    for chip in ("rp2040", "rp2350"):  # the field schedule priced from the recorded poll order
        schedule = r["field_schedule"][chip]
        assert 0 < schedule["acting_ms"] <= schedule["any_slot_ms"], schedule
        assert schedule["with_a_key_held"]["acting_ms"] >= schedule["acting_ms"]


def test_the_simulated_board_reports_a_config_for_another_layout_over_the_link() -> None:
    import asyncio

    from bbshared import messages as m
    from botboard.link.connection import BoardConnection

    board = SimBoard("ttb-big", hardware="ttb-small")
    board.start()

    async def errors() -> list[tuple[int, int]]:
        conn = BoardConnection(board.port)
        try:
            info = await conn.connect(5)
            assert info.layout == "ttb-big"
            said = lambda: [(msg.fields["code"], msg.fields["ref"]) for msg in conn.trace  # noqa: E731
                            if msg.type == m.ERROR]
            await until(lambda: {(7, 24), (10, 0), (10, 1)} <= set(said()), 10, "the layout's errors")
            return said()
        finally:
            conn.close()

    try:
        got = asyncio.run(errors())
    finally:
        board.stop()
    assert (7, 24) in got and (10, 0) in got and (10, 1) in got
