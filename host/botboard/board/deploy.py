"""Put the firmware on a board: compile, hand the port to the REPL, copy with mpremote.

A running firmware owns the USB serial port (binary frames, Ctrl-C disabled),
so mpremote cannot reach the REPL until the firmware lets go: ``handoff``
opens a session (HELLO_REQ) and sends the REPL message; the firmware answers,
stops its tasks, restores Ctrl-C and returns to the REPL. A board in safe mode
or freshly flashed with MicroPython does not answer, which is fine: its REPL
is already there. Then mpremote removes the old modules, copies the compiled
``.mpy`` tree, ``main.py`` and ``board.json``, and resets the board.

Every wait is an idle machine's stretched by the load (botboard.patience): the
emulated Pico (`botboard sim --chip rp2040`) runs at a fifth of a real one's speed.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import serial

from bbshared import messages as m
from bbshared.frame import FLAG_RELIABLE, Deframer, build

from .. import patience
from . import firmware_build, layouts
from .venv_tools import venv_tool

Progress = Callable[[str], None]
HANDOFF_EPOCH = 9  # any session number: HELLO_REQ starts it afresh
# What each step takes at most on an idle machine (seconds; stretched by the load): a
# firmware's HELLO comes within a main-loop turn, an mpremote step within two minutes
HANDOFF_S = 3.0
MPREMOTE_S = 120.0


class DeployError(RuntimeError):
    """A deploy step failed; the message says which and what to do."""


def handoff(port: str, timeout: float | None = None, baud: int = 115200) -> str | None:
    """Ask a running firmware to hand the port to the REPL.

    The version of the firmware that answered and acknowledged (its HELLO's), or None if
    nothing answered (no firmware running: safe mode, or plain MicroPython). ``timeout``
    defaults to HANDOFF_S stretched by the machine's load.
    """
    if timeout is None:
        timeout = HANDOFF_S * patience.load_factor()
    try:
        ser = serial.Serial(port, baud, timeout=0.05)
    except (serial.SerialException, OSError) as err:
        raise DeployError(f"cannot open {port}: {err}") from err
    got: list[tuple[int, int]] = []  # (type, seq) of what the board sent
    versions: list[str] = []  # the firmware version each HELLO carried

    def heard(v: int, t: int, seq: int, flags: int, payload: bytes) -> None:
        got.append((t, seq))
        if t == m.HELLO:
            try:
                versions.append(str(m.decode(m.HELLO, payload)[1]))
            except ValueError:
                versions.append("(unreadable HELLO)")

    deframer = Deframer(heard, lambda reason: None)
    try:
        ser.write(build(m.PROTOCOL_VERSION, m.HELLO_REQ, 0, HANDOFF_EPOCH << 4,
                        m.encode(m.HELLO_REQ, m.PROTOCOL_VERSION, HANDOFF_EPOCH, 0, 0, "deploy")))
        if not _wait(ser, deframer, got, lambda: any(t == m.HELLO for t, _ in got), timeout):
            return None
        repl = build(m.PROTOCOL_VERSION, m.REPL, 0, FLAG_RELIABLE | HANDOFF_EPOCH << 4, b"")
        for _ in range(3):  # the link is reliable: resend until acknowledged
            ser.write(repl)
            if _wait(ser, deframer, got, lambda: any(t == m.ACK for t, _ in got), timeout / 2):
                return versions[0]
        raise DeployError(f"the firmware on {port} answered HELLO but did not acknowledge "
                          "the REPL message; hold the safe-mode button while plugging it in")
    finally:
        ser.close()


def _wait(ser: serial.Serial, deframer: Deframer, got: list[tuple[int, int]],
          done: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data = ser.read(256)
        if data:
            deframer.feed(data)
            if done():
                return True
    return done()


def mpremote() -> str:
    try:
        return venv_tool("mpremote", "mpremote")
    except FileNotFoundError as err:
        raise DeployError(str(err)) from None


# rp2.DMA, which the LED driver uses, came in MicroPython 1.22 (docs/flashing.md)
MIN_MICROPYTHON = (1, 22, 0)
# Run on the board: what it is, its version, and the .mpy format it loads
# (sys.implementation._mpy: the format version in the low byte)
_PROBE = ("import sys; i = sys.implementation; "
          "print(i.name, '.'.join(str(v) for v in i.version[:3]), getattr(i, '_mpy', 0))")


def check_board(answer: str, build_dir: Path) -> str:
    """The board's MicroPython in words, or DeployError saying what to flash."""
    try:
        name, version, mpy = answer.split()[-3:]
        numbers = tuple(int(v) for v in version.split("."))
        board_mpy = int(mpy) & 0xFF
    except ValueError as err:
        raise DeployError(f"the board did not say which MicroPython it runs ({answer.strip()!r}): "
                          "is it a MicroPython board? Flash MicroPython first (docs/flashing.md)") from err
    wanted = ".".join(str(v) for v in MIN_MICROPYTHON)
    if name != "micropython" or numbers < MIN_MICROPYTHON:
        raise DeployError(f"the board runs {name} {version}; the firmware needs MicroPython {wanted} "
                          "or newer (rp2.DMA): flash a newer UF2 from micropython.org "
                          "(docs/flashing.md, step 1), then deploy again")
    built = next(build_dir.rglob("*.mpy")).read_bytes()[1]  # header: b"M", format version, ...
    if board_mpy and board_mpy != built:
        raise DeployError(f"the board's MicroPython {version} loads .mpy format {board_mpy}, but "
                          f"this mpy-cross writes format {built}: flash a MicroPython of the same "
                          "generation as the host's mpy-cross (docs/flashing.md), then deploy again")
    return f"MicroPython {version}, .mpy format {built}"


def copy_commands(build_dir: Path, main: Path, config: Path) -> list[list[str]]:
    """mpremote command lines (after ``connect PORT``), in order."""
    tops = sorted(p.name for p in build_dir.iterdir() if p.is_dir())
    return [
        ["exec", _RMTREE % (tuple(tops),)],
        ["fs", "cp", "-r", *[str(build_dir / t) for t in tops], ":"],
        ["fs", "cp", str(main), ":main.py"],
        ["fs", "cp", str(config), ":board.json"],
        ["reset"],
    ]


# Run on the board: remove the old module trees, so that a stale .py (which
# MicroPython imports before a .mpy of the same name) cannot shadow the new
# firmware.
_RMTREE = """import os
def rm(p):
    for e in os.ilistdir(p):
        q = p + '/' + e[0]
        if e[1] == 0x4000:
            rm(q)
        else:
            os.remove(q)
    os.rmdir(p)
for d in %r:
    try:
        rm(d)
    except OSError:
        pass
"""


def deploy(port: str, layout_name: str = "ttb-small", progress: Progress = print,
           runner: Callable[[list[str]], subprocess.CompletedProcess[str]] | None = None) -> None:
    layout = layouts.load(layout_name)
    progress("compiling firmware/ and shared/ with mpy-cross")
    try:
        build_ = firmware_build.build(board_only=True)
    except firmware_build.BuildError as err:
        raise DeployError(str(err)) from err
    progress(f"  {len(build_.modules)} modules in {build_.directory}")
    new = firmware_build.version()
    progress(f"handing {port} to the REPL")
    ran = handoff(port)
    if ran is not None:
        progress(f"  the firmware ({ran}) stopped; the REPL has the port")
        time.sleep(0.3 * patience.load_factor())  # its last ACK leaves before the REPL's first prompt
    else:
        progress("  no firmware answered (safe mode or plain MicroPython): going on")
    tool = mpremote()
    run = runner or (lambda cmd: _mpremote_step(cmd))
    progress("checking the board's MicroPython")
    probe = run([tool, "connect", port, "exec", _PROBE])
    if probe.returncode != 0:
        raise DeployError(f"mpremote failed while checking the board's MicroPython: "
                          f"{(probe.stderr or probe.stdout).strip()[-400:]}")
    progress("  " + check_board(probe.stdout, build_.directory))
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "board.json"
        config.write_text(json.dumps(layout.board_config()))
        steps = copy_commands(build_.directory, build_.main, config)
        names = ["removing the old firmware", "copying the compiled modules",
                 "copying main.py", f"copying board.json (layout {layout.id})", "resetting the board"]
        for name, cmd in zip(names, steps):
            progress(name)
            proc = run([tool, "connect", port, *cmd])
            if proc.returncode != 0:
                raise DeployError(f"mpremote failed while {name}: "
                                  f"{(proc.stderr or proc.stdout).strip()[-400:]}")
    before = f"the board ran firmware {ran}" if ran is not None else "no firmware answered before"
    progress(f"done: {before}; now {new} (the board restarts with it)")


def _mpremote_step(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    try:
        return patience.run(cmd, "mpremote " + " ".join(cmd[3:4]), MPREMOTE_S)
    except patience.SlowChild as err:
        raise DeployError(str(err)) from None
