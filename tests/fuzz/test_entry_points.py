"""Every CLI entry point's error path: each command given a value it cannot use (a port that
is not there, a game or layout nobody has, a console nobody runs, options that are not JSON)
says so in one line, status 2, no traceback. The commands that read and print are fuzzed
whole (test_flags.py); these start boards, consoles and benchmarks, so each gets its cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from botboard.remote.local_broker import free_port

from .cli import held, run
from .test_flags import PARSERS

CONSOLE = f"http://127.0.0.1:{free_port()}/"  # nobody listens there
CASES = [
    ["probe", "--port", "/nonexistent"], ["sim", "--layout", "nosuch"], ["sim", "--fault", "nosuch"],
    ["status", "--console", CONSOLE, "--timeout", "2"], ["trace", "--console", CONSOLE, "--timeout", "2"],
    ["leds", "test", "--console", CONSOLE, "--timeout", "2"], ["leds", "config", "--console", CONSOLE, "--timeout", "2"],
    ["selfplay", "--sim", "--game", "nosuch", "--players", "2", "--seed", "1"],
    ["deploy", "--port", "/nonexistent", "--layout", "nosuch"], ["bringup", "--layout", "nosuch"],
    ["bench", "engine", "--game", "nosuch"], ["bench", "engine", "--options", "{"],
    ["bench", "ai", "--game", "nosuch"], ["bench", "ai", "--options", "[1"], ["bench", "table", "--game", "nosuch"],
    ["bench", "remote", "--game", "nosuch"], ["bench", "firmware", "--layout", "nosuch"],
    ["new-game", ""], ["new-game", "Bad Name"], ["tiles", "write", "--port", "/nonexistent", "--game", "volt", "colour=red"],
    ["tiles", "enroll", "--uid", "zz", "--game", "volt", "colour=red"], ["doctor", "--config", "/nonexistent"],
    ["goblins", "read-box", "--port", "/nonexistent"], ["botwars", "board", "nosuch"],
    ["service", "install", "--root", "{root}", "--no-activate", "--scope", "user", "--run-as", "nobody-at-all"],
    ["run", "--port", "/nonexistent", "--remote", "mqtt://ho st/club#k", "--players", "2", "--seat", "1"],
    # found by test_every_command.py: tracebacks once
    ["status", "--console", "[", "--timeout", "2"], ["leds", "test", "--console", "K=[1,2]"],
    ["run", "--port", "/nonexistent", "--computer", "²"], ["run", "--port", "/nonexistent", "--computer", "9" * 5000],
    ["sim", "--baud", "-1"], ["selfplay", "--players", "0"], ["bench", "ai", "--levels", "nosuch,greedy"],
    ["bringup", "--steps", "nosuch"], ["tiles", "enroll", "--uid", "01020304", "2=search"],
]


@pytest.mark.parametrize("argv", CASES, ids=[f"{i}-{'-'.join(w for w in c[:2] if not w.startswith('-'))}"
                                               for i, c in enumerate(CASES)])  # the same in every worker
def test_a_value_a_command_cannot_use_is_one_line(argv: list[str], tmp_path: Path) -> None:
    argv = [word.replace("{root}", str(tmp_path)) for word in argv]
    outcome = run(argv + (["--data-dir", str(tmp_path)] if "--data-dir" in _flags(argv) else []))
    held(outcome)
    assert outcome.status == 2, outcome


def _flags(argv: list[str]) -> set[str]:
    for n in (2, 1):
        if tuple(argv[:n]) in PARSERS:
            return set(PARSERS[tuple(argv[:n])]._option_string_actions)
    return set()


@pytest.mark.parametrize("given", [["--game", "nosuch"], ["--option", "nosuch=1"], ["--option", "x={"],
                                   ["--layout", "nosuch"], ["--console-port", "70000"]])
def test_service_install_refuses_settings_run_could_not_use_and_writes_nothing(given: list[str], tmp_path: Path) -> None:
    outcome = run(["service", "install", "--root", str(tmp_path), "--no-activate", "--scope", "user", *given])
    held(outcome)
    assert outcome.status == 2 and given[0] in outcome.err, outcome
    assert not any(tmp_path.rglob("*")), "a refused install wrote files"
