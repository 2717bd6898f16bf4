"""`botboard run` as a user runs it: no flags plays the default game, and SIGTERM stops the
daemon and its simulated board, every time (how fast is printed: docs/benchmarks.md).

The twenty stops run four daemons at a time (five rounds): each is still started, given an
open console, sent SIGTERM and checked on its own; the four are stopped together, so their
waits overlap instead of adding up."""

from __future__ import annotations

import contextlib
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
AT_ONCE = 4  # daemons running side by side in each round


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = _children(todo.pop())
        out += kids
        todo += kids
    return out


def _start(tmp: Path, *flags: str) -> tuple[subprocess.Popen[str], str]:
    return _address(_spawn(tmp, *flags))


def _spawn(tmp: Path, *flags: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "BOTBOARD_CONFIG"}
    env["XDG_CONFIG_HOME"] = str(tmp)  # no settings file: the defaults
    return subprocess.Popen([BOTBOARD, "run", "--data-dir", str(tmp), "--console-port", "0", *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _address(proc: subprocess.Popen[str]) -> tuple[subprocess.Popen[str], str]:
    """The console's address, once the daemon prints it."""
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(2)]
    assert lines[1].startswith("console: "), "".join(lines) + proc.stderr.read() if proc.poll() else lines
    return proc, lines[1].split(": ", 1)[1].strip()


def _stop_within(proc: subprocess.Popen[str], family: list[int]) -> float:
    return _stop_all([(proc, family)])[0]


def _stop_all(daemons: list[tuple[subprocess.Popen[str], list[int]]]) -> list[float]:
    """SIGTERM to each daemon at once; how long each took until it and its family were gone."""
    t0 = time.monotonic()
    for proc, _ in daemons:
        proc.send_signal(signal.SIGTERM)
    took = []
    for proc, family in daemons:
        proc.wait(scaled(10))
        while any(_alive(p) for p in family) and time.monotonic() - t0 < scaled(10):
            time.sleep(0.02)
        took.append(time.monotonic() - t0)
    return took


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
    for round_ in range(STARTS // AT_ONCE):
        homes = [tmp_path / f"{round_}-{k}" for k in range(AT_ONCE)]
        for home in homes:
            home.mkdir()
        started = [_address(proc) for proc in [_spawn(home) for home in homes]]
        families = [_descendants(proc.pid) for proc, _ in started]
        assert all(families), "the simulated board runs as a child of the daemon"
        with contextlib.ExitStack() as consoles:
            for _, url in started:  # a console left open at each
                console = consoles.enter_context(connect(url.replace("http://", "ws://") + "ws"))
                console.recv(timeout=scaled(10))
            took += [round(t, 2) for t in _stop_all([(proc, family) for (proc, _), family
                                                     in zip(started, families)])]
        for k, ((proc, _), family) in enumerate(zip(started, families)):
            left = [p for p in [proc.pid, *family] if _alive(p)]
            assert not left, f"start {round_ * AT_ONCE + k + 1}: still running after SIGTERM: {left}"
            assert proc.returncode == 0, proc.stderr.read() if proc.stderr else proc.returncode
    # the time is a figure, not an assertion (docs/benchmarks.md records it)
    print(f"SIGTERM to all gone, {STARTS} stops: max {max(took)} s, each {took}")
