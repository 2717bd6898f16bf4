"""The Pi-class CPU quota (bench/quota.py): a command run under it gets its share of a CPU and
no more; a wrong share is said in one line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from botboard.bench import quota

SPIN = ("import time\nstart, cpu = time.monotonic(), time.process_time()\n"
        "while time.monotonic() - start < 1.5: pass\n"
        "print((time.process_time() - cpu) / (time.monotonic() - start))")


def _under_quota(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "botboard.bench.quota", *args], capture_output=True,
                          text=True, timeout=60)


def test_a_command_under_the_quota_gets_its_share_of_a_cpu() -> None:
    try:
        quota._where()  # noqa: SLF001  is there a cgroup cpu controller here at all?
    except quota.QuotaError as err:
        pytest.skip(str(err))
    done = _under_quota("--share", "0.1", "--", sys.executable, "-c", SPIN)
    assert done.returncode == 0, done.stderr
    assert 0 < float(done.stdout) <= 0.15  # a busy loop alone would take a whole CPU


def test_a_share_out_of_range_is_said_in_one_line() -> None:
    done = _under_quota("--share", "2", "--", sys.executable, "-c", "pass")
    assert done.returncode == 2
    assert done.stderr.strip() == "botboard: a CPU share is between 0 and 1, not 2.0"
