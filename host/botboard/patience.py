"""Waits given the time this machine needs: slow is never wrong.

``load_factor`` is the one rule: a limit is written for an idle machine and multiplied by it
(the selfplay hands, a tag write, the tests' waits in tests/patience.py). ``run`` gives a child
process such a limit: it looks again while the child runs, says on stderr when the child takes
longer than its idle time, and ends a child that still overruns with ``SlowChild``: a sentence,
not a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any


def load_factor() -> float:
    """How many times slower than idle this machine runs its processes now: the run queue
    per core (1 when idle), the larger of the last minute's average and this instant's
    (busy work just started has not reached the average yet). The board, the host and the
    hands share the cores: waits for them grow with it, so that a loaded machine is slow,
    never wrong."""
    queue = os.getloadavg()[0]
    try:  # Linux: "1.0 0.5 0.2 RUNNING/TOTAL LASTPID", RUNNING counting this process
        with open("/proc/loadavg") as stat:
            queue = max(queue, int(stat.read().split()[3].split("/")[0]) - 1)
    except (OSError, IndexError, ValueError):
        pass
    return max(1.0, queue / (os.cpu_count() or 1))


class SlowChild(RuntimeError):
    """A child process that overran its limit even stretched by the machine's load."""


def run(cmd: list[str], what: str, idle_s: float, input: str | None = None,
        **popen: Any) -> subprocess.CompletedProcess[str]:
    """``subprocess.run(cmd, capture_output=True, text=True)`` with a load-stretched limit."""
    started, factor, told = time.monotonic(), load_factor(), False
    with subprocess.Popen(cmd, stdin=subprocess.PIPE if input is not None else popen.pop("stdin", None),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen) as proc:
        pending = input
        while True:
            left = idle_s * factor - (time.monotonic() - started)
            try:
                out, err = proc.communicate(pending, timeout=max(1.0, min(left, idle_s / 4)))
                break
            except subprocess.TimeoutExpired:
                pending = None  # communicate keeps what it has sent and read
                elapsed = time.monotonic() - started
                factor = max(factor, load_factor())  # busier since it began: more time
                if elapsed > idle_s and not told:
                    told = True
                    print(f"{what}: still running after {elapsed:.0f} s (about {idle_s:g} s on an "
                          f"idle machine; load {factor:.1f} per core): waiting", file=sys.stderr)
                if elapsed > idle_s * factor:
                    proc.kill()
                    proc.communicate()
                    raise SlowChild(f"{what} did not finish in {elapsed:.0f} s ({idle_s:g} s on an idle "
                                    f"machine, x{factor:.1f} for its load): this machine is too busy "
                                    "for it now; run it again when it is quieter") from None
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
