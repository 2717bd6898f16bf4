"""`botboard run` as a user runs it: no flags plays the default game, and SIGTERM stops the
daemon and its simulated board, every time (how fast is printed: docs/benchmarks.md)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

from botboard import games

from ..simboard import BOTBOARD
from .test_sim_cli import _alive, _children
from ..patience import scaled

STARTS = 20


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _start(tmp: Path, *flags: str) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if k != "BOTBOARD_CONFIG"}
    env["XDG_CONFIG_HOME"] = str(tmp)  # no settings file: the defaults
    proc = subprocess.Popen([BOTBOARD, "run", "--data-dir", str(tmp), "--console-port", "0", *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(2)]
    assert lines[1].startswith("console: "), "".join(lines) + proc.stderr.read() if proc.poll() else lines
    return proc, lines[1].split(": ", 1)[1].strip()


def _stop_within(proc: subprocess.Popen[str], family: list[int]) -> float:
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    proc.wait(scaled(10))
    while any(_alive(p) for p in family) and time.monotonic() - t0 < scaled(10):
        time.sleep(0.02)
    return time.monotonic() - t0


def test_run_with_no_flags_starts_a_two_player_game_of_the_default_game(tmp_path: Path) -> None:
    proc, url = _start(tmp_path)
    try:
        with urllib.request.urlopen(url + "api/game", timeout=scaled(10)) as reply:
            game = json.load(reply)
        assert game["game"] == games.default_name()
        assert game["view"]["players"] == 2 and game["view"]["phase"] != "idle", game["view"]["phase"]
    finally:
        _stop_within(proc, _descendants(proc.pid))


def test_sigterm_stops_the_daemon_and_its_simulated_board_every_time(tmp_path: Path) -> None:
    took = []
    for n in range(STARTS):
        proc, url = _start(tmp_path)
        family = _descendants(proc.pid)
        assert family, "the simulated board runs as a child of the daemon"
        with connect(url.replace("http://", "ws://") + "ws") as console:  # a console left open
            console.recv(timeout=scaled(10))
            took.append(round(_stop_within(proc, family), 2))
        left = [p for p in [proc.pid, *family] if _alive(p)]
        assert not left, f"start {n + 1}: still running after SIGTERM: {left}"
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else proc.returncode
    # the time is a figure, not an assertion (docs/benchmarks.md records it)
    print(f"SIGTERM to all gone, {STARTS} stops: max {max(took)} s, each {took}")
