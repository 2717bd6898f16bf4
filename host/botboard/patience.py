"""Child processes given the time this machine needs: slow is never wrong.

A limit written for a child process is what it needs on an idle machine; ``run`` stretches it
by the machine's load (``session.selfplay.load_factor``, the rule every wait follows), looks
again while the child runs, says on stderr when the child takes longer than its idle time,
and ends a child that still overruns with ``SlowChild``: a sentence, not a traceback.
"""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

from .session.selfplay import load_factor


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
