"""Start the simulated board (`botboard sim`) as its own process, for tests."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, NoReturn

from .patience import Deadline, scaled, wait_for  # noqa: F401  (wait_for: the tests import it from here too)

BOTBOARD = str(Path(sys.executable).parent / "botboard")


class SimProcess:
    """A running `botboard sim`, its serial port and its control socket."""

    def __init__(self, *args: str, link: str | None = None) -> None:
        cmd = [BOTBOARD, "sim", *args] + (["--link", link] if link else [])
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, start_new_session=True)
        # stdout read by a thread: startup waits with a deadline, and the
        # port reprinted on every replug never fills the pipe
        self.lines: queue.Queue[str] = queue.Queue()
        self.stderr_tail = ""
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()
        self.port = self._next_line()
        control = self._next_line()
        if not self.port or not control.startswith("control "):
            self._fail(f"printed {self.port!r}, then {control!r}")
        host, port = control.split()[1].split(":")
        self._sock = _connect(host, int(port))
        self._file = self._sock.makefile("rwb")

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put("")  # end of output

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr_tail = (self.stderr_tail + line)[-4000:]

    def _next_line(self, timeout: float = 60.0) -> str:
        timeout = scaled(timeout)
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            self._fail(f"printed nothing for {timeout:.0f} s")

    def _fail(self, what: str) -> NoReturn:
        """Kill the whole group (the firmware too: it holds stderr) and say why."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(scaled(10))
        self._stderr_reader.join(scaled(10))  # the reader thread takes the last of stderr
        raise RuntimeError(f"botboard sim did not start: {what}; exit {self.proc.returncode}; "
                           f"stderr: {self.stderr_tail}")

    def control(self, op: str, **fields: Any) -> dict[str, Any]:
        self._file.write((json.dumps({"op": op, **fields}) + "\n").encode())
        self._file.flush()
        reply: dict[str, Any] = json.loads(self._file.readline())
        assert reply.get("ok"), reply
        return reply

    def kill(self) -> None:
        """SIGKILL the launcher and the firmware: a board yanked away."""
        self._sock.close()
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        self._sock.close()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(scaled(5))
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def _connect(host: str, port: int) -> socket.socket:
    deadline = Deadline(10)
    while True:
        try:
            # generous: under a full parallel test run the simulated board may be
            # starved of CPU for seconds; an answer that comes late still counts
            return socket.create_connection((host, port), timeout=scaled(30))
        except OSError:
            if deadline.passed():
                raise
            time.sleep(0.05)

