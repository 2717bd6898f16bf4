"""A CPU quota that makes this machine's host as slow as a Pi-class one (docs/benchmarks.md).

    with cpu_quota(PI_CLASS_SHARE):      # this process and what it starts from now on
        ...                               # the simulated board's firmware stays outside

    python -m botboard.bench.quota [--share 0.12] -- botboard selfplay --sim --game volt

The kernel's CFS bandwidth control gives a cgroup ``share`` of one CPU per
period: a process in it runs as if on a core that many times as fast, in
slices of ``PERIOD_US`` (short, so that a slice's wait stays far below a
frame). cgroup v2 (``cpu.max``) is used where its cpu controller is enabled,
else cgroup v1 (``cpu.cfs_quota_us``); both need root. The simulated board's
firmware stands for the Pico and its relay threads for USB, not for the host:
sim.py moves them back out (``release``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

# this machine's CPython runs about 10 times as fast per core as a Raspberry Pi 3 or Zero 2's
# (docs/benchmarks.md, "A Pi-class host"): a tenth of a CPU stands for one of their cores
PI_CLASS_SHARE = 0.1
PERIOD_US = 10_000
NAME = "botboard-pi-class"
_V2 = Path("/sys/fs/cgroup")
_V1 = Path("/sys/fs/cgroup/cpu")


class QuotaError(RuntimeError):
    pass


def _where() -> tuple[Path, Path]:
    """(this process's cgroup to make: two runs at once must not share a quota, the parent
    to give processes back to)."""
    mine = f"{NAME}-{os.getpid()}"
    if "cpu" in _read(_V2 / "cgroup.controllers").split() and "cpu" in _read(
            _V2 / "cgroup.subtree_control").split():
        return _V2 / mine, _V2
    if (_V1 / "cpu.cfs_quota_us").exists():
        return _V1 / mine, _V1
    raise QuotaError("no cgroup cpu controller here (cgroup v2 with +cpu, or v1 cpu, mounted "
                     "under /sys/fs/cgroup): run on Linux as root, or measure without the quota")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


@contextlib.contextmanager
def cpu_quota(share: float = PI_CLASS_SHARE) -> Iterator[Path]:
    """This process (its threads and the processes it starts meanwhile) limited to ``share``
    of one CPU; everything back as it was after."""
    if not 0 < share <= 1:
        raise QuotaError(f"a CPU share is between 0 and 1, not {share}")
    group, parent = _where()
    try:
        group.mkdir(exist_ok=True)
        quota = max(1000, int(share * PERIOD_US))
        if (group / "cpu.max").exists():
            (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
        else:
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError as err:
        raise QuotaError(f"cannot set a CPU quota in {group}: {err.strerror} (run as root)") from err
    try:
        yield group
    finally:
        (parent / "cgroup.procs").write_text(str(os.getpid()))
        with contextlib.suppress(OSError):  # a process started under it still runs there
            group.rmdir()


def release(pid: int | None = None) -> None:
    """Move process ``pid`` out of the quota, if this process is under it (the simulated
    board's firmware: it stands for the Pico, which the host's quota does not slow); with
    no ``pid``, the calling thread (the simulated board's relays stand for USB: the kernel's
    work on a Pi; cgroup v1 moves single threads, v2 does not and keeps them under it)."""
    if NAME not in _read(Path("/proc/self/cgroup")):
        return
    target = "cgroup.procs" if pid is not None else "tasks"
    with contextlib.suppress(QuotaError, OSError):
        (_where()[1] / target).write_text(str(pid if pid is not None else threading.get_native_id()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m botboard.bench.quota",
                                     description="run a command as on a Pi-class host")
    parser.add_argument("--share", type=float, default=PI_CLASS_SHARE,
                        help=f"share of one CPU (default {PI_CLASS_SHARE}: a Raspberry Pi 3's core)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ARGS...")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    try:
        with cpu_quota(args.share):
            return subprocess.call(command)
    except QuotaError as err:
        print(f"botboard: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
