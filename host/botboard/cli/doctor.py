"""``botboard doctor``: check this machine for a table, and say how to fix what is wrong."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from .run import add_daemon_arguments

_MARKS = {"ok": "ok     ", "note": "note   ", "problem": "PROBLEM"}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="check Python, packages, the board, its port, the journal and the console",
                       description="Check what a table needs, for the settings `botboard run` would use "
                       "(same flags and settings file): Python and package versions, serial ports and "
                       "permissions, the board's firmware and protocol against this host's, the data "
                       "directory and journal, the console's port, the addresses phones would open. "
                       "Each problem comes with the command that fixes it. Exit status 1 if any problem.")
    add_daemon_arguments(p)
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.set_defaults(func=_run, preflight=_check)


def _check(args: argparse.Namespace) -> None:
    from .run import table_settings

    table_settings(args)


def _run(args: argparse.Namespace) -> int:
    from ..doctor import examine, settings_file
    from ..settings import find_file
    from .run import table_settings

    findings = examine(table_settings(args)) + settings_file(find_file(getattr(args, "config", None))[0])
    if args.json:
        print(json.dumps([asdict(f) for f in findings], indent=2))
    else:
        for f in findings:
            print(f"{_MARKS[f.level]} {f.check:<9} {f.detail}")
            if f.fix and f.level != "ok":
                print(f"{'':<17} fix: {f.fix}")
    return 1 if any(f.level == "problem" for f in findings) else 0
