"""systemd stops the service with a signal (SIGTERM, or SIGINT as the unit asks): the daemon
ends with status 0 and not one line of traceback, alone, hosting a room (its link to the
broker up), and after the console's simulated board was used."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from botboard.remote.local_broker import Broker

from ..patience import scaled
from ..simboard import BOTBOARD


def _start(home: Path, *flags: str) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if k != "BOTBOARD_CONFIG"}
    env["XDG_CONFIG_HOME"] = str(home)
    env["XDG_STATE_HOME"] = str(home / "state")
    proc = subprocess.Popen([BOTBOARD, "run", "--data-dir", str(home / "data"), "--console-port", "0", *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(2)]
    assert lines[1].startswith("console: "), lines
    return proc, lines[1].split(": ", 1)[1].strip()


def _use_the_simulated_board(url: str) -> None:
    """What a person does in the console's Board panel: lay a tile, press a button, touch a cell."""
    for path, body in (("api/sim/place", {"slot": 0}), ("api/sim/button", {"button": 0}),
                       ("api/sim/touch", {"cell": 3}), ("api/sim/remove", {"slot": 0})):
        request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Origin": url.rstrip("/")})
        with urllib.request.urlopen(request, timeout=scaled(10)) as reply:
            assert reply.status == 200, path


@pytest.mark.parametrize("sig, remote, used", [
    (signal.SIGTERM, False, False), (signal.SIGTERM, True, True), (signal.SIGTERM, False, True),
    (signal.SIGINT, False, True), (signal.SIGINT, True, False),
], ids=["SIGTERM-alone", "SIGTERM-hosting-a-room-board-used", "SIGTERM-board-used",
        "SIGINT-board-used", "SIGINT-hosting-a-room"])
def test_a_stop_signal_ends_the_daemon_with_no_traceback(tmp_path: Path, remote: bool, used: bool,
                                                          sig: signal.Signals) -> None:
    broker = Broker(tmp_path) if remote else None
    flags: list[str] = []
    if broker is not None:
        broker.start()
        flags = ["--players", "2", "--seat", "1", "--remote", f"mqtt://127.0.0.1:{broker.port}/club"]
    try:
        proc, url = _start(tmp_path, *flags)
        if used:
            _use_the_simulated_board(url)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=scaled(30))
    finally:
        if broker is not None:
            broker.stop()
    assert proc.returncode == 0, err
    for words in ("Traceback", "Task exception was never retrieved", "Event loop is closed", "Error"):
        assert words not in err, err


def _seat_links(url: str) -> list[str]:
    with urllib.request.urlopen(url + "api/seats", timeout=scaled(10)) as reply:
        return [seat["url"] for seat in json.load(reply)["seats"]]


def test_sigterm_with_a_console_and_two_phones_open_ends_at_once_and_logs_no_error(tmp_path: Path) -> None:
    """The open pages are told "going away" as the stop begins: the server never waits for them,
    and never cancels them with an ERROR line (the figure: docs/benchmarks.md, `bench table`)."""
    from websockets.sync.client import connect

    proc, url = _start(tmp_path)
    pages = contextlib.ExitStack()
    try:
        phones = _seat_links(url)
        assert len(phones) == 2, phones
        for address in (url + "ws", *(p.replace("/seat/", "/ws/seat/") for p in phones)):
            page = pages.enter_context(connect(address.replace("http://", "ws://"), origin=url.rstrip("/")))
            page.recv(timeout=scaled(10))  # the first view arrived: the page is open
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=scaled(30))
        took = time.monotonic() - began
    finally:
        pages.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert " ERROR" not in err and "graceful shutdown" not in err, err
    print(f"SIGTERM to gone with a console and two phones open: {took:.2f} s")  # a figure, for benchmarks.md
    assert took < scaled(1.0), f"SIGTERM took {took:.2f} s with a console and two phones open"
