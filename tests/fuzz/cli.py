"""Run a botboard command in this process (fast enough for hundreds of cases) and hold it to
the rule for bad input: status 0 or 2, no traceback, no "a bug in botboard" (cli/errors.py), and a refusal is
one line that names what was read."""

from __future__ import annotations

import contextlib
import io
import logging
from dataclasses import dataclass

from botboard.cli import main


@dataclass
class Outcome:
    argv: list[str]
    status: int
    out: str
    err: str
    logged: list[logging.LogRecord]


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def run(argv: list[str]) -> Outcome:
    out, err, records = io.StringIO(), io.StringIO(), _Records()
    logging.getLogger().addHandler(records)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as stop:  # argparse's usage errors, --help
                status = stop.code if isinstance(stop.code, int) else 2
    finally:
        logging.getLogger().removeHandler(records)
    return Outcome(argv, status, out.getvalue(), err.getvalue(), records.records)


def held(outcome: Outcome, *names: str, report: bool = False) -> None:
    """The rule for bad input. ``names``: what a refusal must name (the file, the flag);
    ``report``: the command answers with a report (its first line names the file, a line
    for each problem under it) instead of one line."""
    said = f"{outcome.argv}: status {outcome.status}\n{outcome.err}"
    assert outcome.status in ((0, 1, 2) if report else (0, 2)), said  # a report's 1: checked, and it fails
    assert "Traceback" not in outcome.err and "a bug in botboard" not in outcome.err, said
    for record in outcome.logged:
        assert record.exc_info is None and record.levelno < logging.ERROR, (said, record.getMessage())
    if outcome.status == 2 and not outcome.err.startswith("usage:"):  # argparse says its own way
        lines = outcome.err.strip("\n").split("\n")  # a line ends at \n only (splitlines also cuts at \x1e)
        assert len(lines) == 1 or (report and all(line.startswith(("  ", "FAIL ")) for line in lines)), said
        assert not names or any(name in lines[0] for name in names), said
