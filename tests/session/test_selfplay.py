"""Whole games through the simulated board: selfplay, replay, a host and a board killed midway."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from botboard.board.sim import free_tcp_port

from ..engine_words import broken
from ..simboard import BOTBOARD, SimProcess, wait_for


def _botboard(*args: str, timeout: float = 240) -> str:
    done = subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _selfplay(data: Path, *args: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(_botboard("selfplay", "--data-dir", str(data), *args))
    return result


def _replayed(data: Path, game: int) -> str:
    return _botboard("replay", str(game), "--data-dir", str(data)).strip()


def _actions(data: Path) -> int:
    path = data / "botboard.sqlite"
    if not path.exists():
        return 0
    db = sqlite3.connect(str(path))
    try:
        return int(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        db.close()


def _spawn_selfplay(data: Path, board: SimProcess, control: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen([BOTBOARD, "selfplay", "--data-dir", str(data), "--port", board.port,
                             "--control", f"127.0.0.1:{control}", "--players", "2", "--seed", "6",
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _finish(proc: subprocess.Popen[str], timeout: float = 240) -> dict[str, Any]:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err[-3000:]
    result: dict[str, Any] = json.loads(out)
    return result


def test_a_host_killed_midway_resumes_the_same_game(tmp_path: Path) -> None:
    control = free_tcp_port()
    board = SimProcess("--control-port", str(control), link=str(tmp_path / "tty"))
    try:
        first = _spawn_selfplay(tmp_path, board, control)
        wait_for(lambda: _actions(tmp_path) >= 3, 120, "three journaled actions")
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        kept = _actions(tmp_path)
        result = _finish(_spawn_selfplay(tmp_path, board, control, "--resume"))
    finally:
        board.stop()
    assert result["game"] == 1 and result["actions"] >= kept
    assert _replayed(tmp_path, 1) == result["state_hash"]  # replay checks every journaled hash


def test_a_board_killed_midway_is_replaced_and_the_game_goes_on(tmp_path: Path) -> None:
    control = free_tcp_port()
    link = str(tmp_path / "tty")
    board = SimProcess("--control-port", str(control), link=link)
    second: SimProcess | None = None
    try:
        proc = _spawn_selfplay(tmp_path, board, control)
        wait_for(lambda: _actions(tmp_path) >= 3, 120, "three journaled actions")
        board.kill()
        time.sleep(0.5)  # pace: no board a while
        second = SimProcess("--control-port", str(control), link=link)
        result = _finish(proc)
    finally:
        board.stop()
        if second:
            second.stop()
    assert result["winner"] and _replayed(tmp_path, result["game"]) == result["state_hash"]


@pytest.mark.parametrize("game,limit", [("botwars", "max_turns=3"), ("volt", "max_rounds=3")])
def test_a_host_killed_midway_resumes_a_simultaneous_game(tmp_path: Path, game: str, limit: str) -> None:
    control = free_tcp_port()
    board = SimProcess("--control-port", str(control), "--layout", game, link=str(tmp_path / "tty"))
    extra = ("--game", game, "--option", limit)
    try:
        first = _spawn_selfplay(tmp_path, board, control, *extra)
        wait_for(lambda: _actions(tmp_path) >= 3, 120, "three journaled actions")
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
        kept = _actions(tmp_path)
        result = _finish(_spawn_selfplay(tmp_path, board, control, *extra, "--resume"))
    finally:
        board.stop()
    assert result["game"] == 1 and result["actions"] >= kept and result["turns"] == 3
    assert _replayed(tmp_path, 1) == result["state_hash"]


@pytest.mark.timeout(900)  # a long game on a loaded machine: bounded by the waits below
def test_a_whole_game_through_a_link_that_damages_5_percent_of_bytes_stalls_and_is_cut(
        tmp_path: Path) -> None:
    # the soak: a whole game (four turns, then the turn limit ends it) through the
    # worst link the issue names
    control, damaged = free_tcp_port(), tmp_path / "damaged"
    board = SimProcess("--control-port", str(control), "--layout", "botwars", "--damage", "0.05",
                       "--stall", "0.01", link=str(tmp_path / "tty"))
    try:
        proc = subprocess.Popen([BOTBOARD, "selfplay", "--data-dir", str(damaged), "--port", board.port,
                                 "--control", f"127.0.0.1:{control}", "--players", "2", "--seed", "4",
                                 "--game", "botwars", "--option", "max_turns=4", "--wait", "90"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        wait_for(lambda: _actions(damaged) >= 3 or proc.poll() is not None, 240,
                 "three journaled actions")
        assert proc.poll() is None, proc.communicate()[1][-3000:]  # still playing, or say why not
        board.proc.send_signal(signal.SIGUSR1)  # the cable pulled...
        time.sleep(1.5)  # pace: the cable out a while
        board.proc.send_signal(signal.SIGUSR2)  # ...and put back
        result = _finish(proc, timeout=600)
    finally:
        board.stop()
    # the hands lived through the cut (a turn begun when the cable went is begun
    # again, so the game may take another course than on a clean link): it ends,
    # and every journaled action replays to its hash
    assert result["reason"] and result["turns"] >= 3
    assert _actions(damaged) == result["actions"]
    assert _replayed(damaged, result["game"]) == result["state_hash"]


def test_selfplay_says_each_action_as_the_table_sees_it(tmp_path: Path) -> None:
    done = subprocess.run([BOTBOARD, "selfplay", "--sim", "--game", "botwars", "--players", "2",
                           "--seed", "4", "--option", "max_turns=1", "--data-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    progress = [line for line in done.stderr.splitlines() if line.startswith("action ")]
    result = json.loads(done.stdout)  # stdout is the summary alone
    assert len(progress) == result["actions"] >= 2
    assert progress[0].startswith("action 1: red program (hidden")  # a program is not told
    assert not broken(progress), broken(progress)  # the seats named as the table names them
