"""`botboard deploy` end to end onto the emulated Pico, with the real mpremote.

The emulated Pico's flash chip (host/botboard/chip/node/flash.mjs) takes the erases and
page programs of MicroPython's filesystem, so a blank Pico formats its flash at its first
boot and keeps what mpremote copies across the reset that ends a deploy.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import serial

from botboard.board import deploy, firmware_build
from botboard.chip.board import ChipBoard
from botboard.resources import ROOT
from tests.chip.conftest import PATIENCE_S, control, needs_chip
from tests.patience import Deadline, scaled

# a hang guard only (pytest-timeout): the waits inside scale with load
pytestmark = [needs_chip, pytest.mark.timeout(3600)]
BOTBOARD = str(Path(sys.executable).parent / "botboard")
UNIQUE_ID = "e6605838834a2b21"  # the emulated W25Q16JV's (flash.mjs), read with 4Bh


def _repl_up(port: str) -> None:
    """Wait for a blank Pico's REPL: before it, its _boot.py may still be making the
    filesystem, and mpremote's Ctrl-C would stop that."""
    deadline = Deadline(PATIENCE_S)
    with serial.Serial(port, 115200, timeout=scaled(0.2)) as ser:
        seen = b""
        while b">>> " not in seen:
            assert not deadline.passed(), f"no REPL prompt on {port} after {deadline}: {seen[-200:]!r}"
            ser.write(b"\r")
            seen += ser.read(256)


def _mpremote(port: str, code: str) -> str:
    done = subprocess.run([deploy.mpremote(), "connect", port, "exec", code], capture_output=True,
                          text=True, timeout=scaled(PATIENCE_S))
    assert done.returncode == 0, done.stderr
    return done.stdout


def _probe(port: str) -> dict[str, object]:
    done = subprocess.run([BOTBOARD, "probe", "--port", port, "--timeout", f"{scaled(PATIENCE_S):.0f}"],
                          capture_output=True, text=True, timeout=scaled(2 * PATIENCE_S))
    assert done.returncode == 0, done.stderr
    info: dict[str, object] = json.loads(done.stdout)
    return info


def test_deploy_onto_a_blank_pico_then_probe_reports_the_version_and_layout() -> None:
    """A Pico that never had the firmware: MicroPython made an empty filesystem on its
    flash, deploy copies the firmware there, and after the reset the firmware answers."""
    board = ChipBoard("ttb-small", deployed=False)
    board.start()
    try:
        _repl_up(board.port)
        said = _mpremote(board.port, "import os, machine; print(os.listdir('/'), machine.unique_id().hex())")
        assert said.split() == ["[]", UNIQUE_ID]  # formatted and empty; 4Bh answered
        steps: list[str] = []
        deploy.deploy(board.port, "ttb-small", progress=steps.append)
        assert any("no firmware answered (safe mode or plain MicroPython)" in s for s in steps)
        assert steps[-1] == f"done: no firmware answered before; now {firmware_build.version()} " \
                            "(the board restarts with it)"
        info = _probe(board.port)
        assert info["firmware_version"] == firmware_build.version() and info["layout"] == "ttb-small"
        stats = control(board, "stats")
        assert [r["why"] for r in stats["resets"]] == ["machine.reset()"]  # mpremote's reset
        # the files came through the reset on the flash; the SDK waited out every BUSY
        assert stats["flash"]["ignored_busy"] == 0 and stats["flash"]["ignored_no_wel"] == 0
    finally:
        board.stop()


def test_deploy_over_a_stale_firmware_says_which_version_was_there(tmp_path: Path) -> None:
    """The board runs an older firmware: deploy asks it for the REPL, says what ran, and
    the board comes up with the new one."""
    stale = tmp_path / "firmware"
    shutil.copytree(ROOT / "firmware", stale, ignore=shutil.ignore_patterns("__pycache__"))
    init = stale / "bbfw" / "__init__.py"
    init.write_text(init.read_text().replace(f'"{firmware_build.version()}"', '"0.0.9-stale"'))
    assert firmware_build.version(stale) == "0.0.9-stale"
    board = ChipBoard("ttb-small", firmware=stale)
    board.start()
    try:
        assert _probe(board.port)["firmware_version"] == "0.0.9-stale"
        steps: list[str] = []
        deploy.deploy(board.port, "ttb-small", progress=steps.append)
        assert "  the firmware (0.0.9-stale) stopped; the REPL has the port" in steps
        assert steps[-1] == f"done: the board ran firmware 0.0.9-stale; now {firmware_build.version()} " \
                            "(the board restarts with it)"
        assert _probe(board.port)["firmware_version"] == firmware_build.version()
    finally:
        board.stop()


def test_deploy_in_safe_mode_finds_the_repl_left_to_mpremote() -> None:
    """GP28 held at power-on: the firmware does not start and leaves the REPL, so nothing
    answers the handoff and mpremote copies over the firmware that is there."""
    board = ChipBoard("ttb-small", safe_mode=True)
    board.start()
    try:
        _repl_up(board.port)
        steps: list[str] = []
        deploy.deploy(board.port, "ttb-small", progress=steps.append)
        assert any("no firmware answered" in s for s in steps) and steps[-1].startswith("done: ")
        _repl_up(board.port)  # still held: the reset comes back to safe mode's REPL
        said = _mpremote(board.port, "import os, bbfw; print(sorted(os.listdir('/')), bbfw.FIRMWARE_VERSION)")
        assert "'board.json'" in said and "'main.py'" in said and firmware_build.version() in said
    finally:
        board.stop()
