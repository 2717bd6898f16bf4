"""The fuzz tests (tests/fuzz) at length: every file kind, flag and console body damaged in
N examples each instead of the suite's few; figures: examples, tests passed and failed, seconds.

A failure's case is kept in hypothesis's database (.hypothesis/ in the checkout), so the
suite's short run tries it first from then on; the failing test's output says what it was.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from typing import Any

from ..resources import IN_CHECKOUT, ROOT
from ..cli import values


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--examples", type=values.COUNT, default=1000,
                        help="examples per fuzz test (default 1000; the suite runs 25)")
    parser.add_argument("-k", dest="only", default=None, metavar="WORDS",
                        help="only the fuzz tests whose names hold WORDS (pytest's -k)")
    parser.add_argument("--workers", type=values.whole(1, 256), default=2, help="processes (default 2)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from ..cli import CliError

    if not IN_CHECKOUT:
        raise CliError("the fuzz tests come with botboard's source (tests/fuzz): run this in a checkout")
    if args.examples < 1 or args.workers < 1:
        raise CliError("--examples and --workers count from 1")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", str(args.workers),
               str(ROOT / "tests" / "fuzz"), *(["-k", args.only] if args.only else [])]
    env = dict(os.environ, BOTBOARD_FUZZ_EXAMPLES=str(args.examples))
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    took = time.monotonic() - started
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|error)", done.stdout)}
    if done.returncode not in (0, 1):  # pytest's own trouble (1: tests failed, told below)
        raise CliError(f"pytest exited {done.returncode}: {done.stdout.strip().splitlines()[-1:]}")
    return {"examples_per_test": args.examples, "passed": counts.get("passed", 0),
            "failed": counts.get("failed", 0) + counts.get("error", 0), "seconds": round(took, 1),
            "failures": re.findall(r"^FAILED (\S+)", done.stdout, re.M)}
