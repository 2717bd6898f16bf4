"""`botboard bringup` at the command line: the supply check names a sagging supply and writes
a layout that holds it; typed answers at a terminal; a wrong --fault is one line."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import time
import urllib.request
from pathlib import Path

from botboard.board import layouts
from botboard.board.sim import free_tcp_port

from ..simboard import BOTBOARD, wait_for
from ..patience import scaled

REF = layouts.load("ttb-small")


def bringup(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, "bringup", "--console-port", str(free_tcp_port()), *args],
                          capture_output=True, text=True, timeout=timeout)


def test_a_sagging_supply_is_named_and_the_layout_written_holds_the_rail(tmp_path: Path) -> None:
    out = tmp_path / "ttb-small.json"
    first = bringup("--fault", "sag", "--steps", "supply", "--start", "--exit", "--out", str(out))
    assert first.returncode == 0, first.stderr
    assert "FAULT undersized-supply: the LED rail falls from" in first.stdout
    assert '- "power_ma": 5000,' in first.stdout and f"corrected layout: {out}" in first.stdout
    budget = json.loads(out.read_text())["power_ma"]
    assert 0 < budget < REF.power_ma
    again = bringup("--layout", str(out), "--fault", "sag", "--steps", "supply", "--start", "--exit",
                    "--out", str(tmp_path / "again.json"))
    assert again.returncode == 0, again.stderr
    assert "FAULT" not in again.stdout and "no fault found" in again.stdout


def test_answers_typed_at_the_terminal(tmp_path: Path) -> None:
    """Enter starts and says 'no press'; the other buttons are pressed on the board."""
    port = free_tcp_port()
    main, side = pty.openpty()
    proc = subprocess.Popen([BOTBOARD, "bringup", "--console-port", str(port), "--steps", "buttons",
                             "--exit", "--out", str(tmp_path / "b.json")],
                            stdin=side, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(side)
    base = f"http://127.0.0.1:{port}"

    def flow() -> dict:  # type: ignore[type-arg]
        with urllib.request.urlopen(f"{base}/api/bringup", timeout=scaled(10)) as reply:
            return json.loads(reply.read())  # type: ignore[no-any-return]

    def press(button: int) -> None:
        req = urllib.request.Request(f"{base}/api/sim/button", json.dumps({"button": button}).encode(),
                                     {"content-type": "application/json"}, method="POST")
        urllib.request.urlopen(req, timeout=scaled(30)).close()

    try:
        wait_for(lambda: _answers(flow), 60, "the console")
        os.write(main, b"\n")  # start
        wait_for(lambda: flow()["ask"].get("kind") == "button", 20, "the first button")
        os.write(main, b"\n")  # no press: the first button is skipped
        done = 1
        while done < REF.button_count:
            ask = flow()["ask"]
            if ask.get("kind") == "button" and ask["n"] == done + 1:
                press(REF.stations[ask["station"]].buttons[ask["role"]])
                done += 1
            time.sleep(0.05)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
        os.close(main)
    assert proc.returncode == 0, stderr
    assert "FAULT dead-button: the confirm button of station north gave no press" in stdout
    assert stdout.count("FAULT") == 1


def _answers(flow) -> bool:  # type: ignore[no-untyped-def]
    try:
        return bool(flow())
    except OSError:
        return False


def test_a_fault_the_simulated_board_does_not_know_is_one_line() -> None:
    for fault, words in (("swap:0", "not a fault the simulated board knows"),
                         ("dead:99", "no slot 99; this layout has slots 0..23"),
                         ("reverse:x", "must be whole numbers")):
        result = bringup("--fault", fault)
        assert result.returncode == 2 and words in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
