"""`botboard run` says what it does at start: an unfinished game that resumes says that a new
game's flags wait for a new game and how to start one (--fresh); a console port in use is one
line, no traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import urllib.request
from pathlib import Path

from ..patience import scaled
from ..simboard import BOTBOARD


def _spawn(home: Path, *flags: str, port: str = "0") -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "BOTBOARD_CONFIG"}
    env["XDG_CONFIG_HOME"] = str(home)  # no settings file: the defaults
    env["XDG_STATE_HOME"] = str(home / "state")
    return subprocess.Popen([BOTBOARD, "run", "--data-dir", str(home / "data"), "--console-port", port, *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            stdin=subprocess.DEVNULL)


def _started(proc: subprocess.Popen[str], lines: int = 2) -> list[str]:
    assert proc.stdout is not None
    said = [proc.stdout.readline() for _ in range(lines)]
    assert said[1].startswith("console: "), said
    return said


def _game(url: str) -> dict:  # type: ignore[type-arg]
    with urllib.request.urlopen(url + "api/game", timeout=scaled(10)) as reply:
        return json.load(reply)  # type: ignore[no-any-return]


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=scaled(30))
    assert proc.returncode == 0, err
    return err


def test_a_resumed_game_says_that_seed_and_option_wait_for_a_new_game_and_fresh_starts_one(tmp_path: Path) -> None:
    first = _spawn(tmp_path)
    url = _started(first)[1].split(": ", 1)[1].strip()
    unfinished = _game(url)["view"]["game_id"]
    _stop(first)

    again = _spawn(tmp_path, "--seed", "5", "--option", "teleporters=1")
    said = _started(again, 3)[2]
    _stop(again)
    assert f"unfinished game {unfinished} resumes" in said, said
    assert "--seed and --option" in said and "--fresh" in said, said

    fresh = _spawn(tmp_path, "--seed", "5", "--option", "teleporters=1", "--fresh")
    url = _started(fresh)[1].split(": ", 1)[1].strip()
    try:
        game = _game(url)
    finally:
        _stop(fresh)
    assert game["view"]["game_id"] != unfinished, game


def test_a_second_run_on_a_console_port_in_use_says_so_in_one_line(tmp_path: Path) -> None:
    first = _spawn(tmp_path / "one")
    url = _started(first)[1].split(": ", 1)[1].strip()
    port = url.rsplit(":", 1)[1].strip("/")
    try:
        second = _spawn(tmp_path / "two", port=port)
        out, err = second.communicate(timeout=scaled(60))
    finally:
        _stop(first)
    assert second.returncode == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err and "ERROR" not in err, err
    assert f"127.0.0.1:{port}" in err and "--console-port" in err, err
