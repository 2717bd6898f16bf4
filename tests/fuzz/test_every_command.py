"""Every command's flags, the commands that start boards, consoles, benchmarks and services
included: each is checked up to its start (the ``preflight`` stage its parser names, as `run`'s
``prepared``), so hundreds of generated cases cost little. The commands come from the CLI's
own parser: a new one is fuzzed without editing this file, and one without a checking stage
fails here. Each case: status 0 or 2, a refusal one line naming the flag, no traceback."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from botboard.cli import CliError

from .cli import Outcome, held
from .damage import FUZZ
from .test_flags import PARSERS, WHOLE, argv, own

ROOT = PARSERS[()]
STARTERS = sorted(c for c, p in PARSERS.items() if c and p.get_default("func") and c not in WHOLE)


def checked(words: list[str]) -> Outcome:
    """``words`` parsed and checked as ``main`` does before the command starts anything."""
    err = io.StringIO()
    status = 0
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            args = ROOT.parse_args(words)
            args.preflight(args)
        except SystemExit as stop:  # argparse's usage error
            status = stop.code if isinstance(stop.code, int) else 2
        except CliError as refused:  # main prints it on one line, named by the command
            print(f"botboard {words[0]}: " + " ".join(str(refused).splitlines()), file=err)
            status = 2
    return Outcome(words, status, "", err.getvalue(), [])


def test_every_command_that_starts_something_has_a_checking_stage() -> None:
    unchecked = [" ".join(c) for c in STARTERS if not callable(PARSERS[c].get_default("preflight"))]
    assert not unchecked, f"give these a check stage (set_defaults(preflight=...)): {unchecked}"


@pytest.mark.parametrize("command", STARTERS, ids=[" ".join(c) for c in STARTERS])
@FUZZ
@given(data=st.data())
def test_any_flag_is_refused_before_anything_starts(command: tuple[str, ...], data: st.DataObject,
                                                   home: Path) -> None:
    words = data.draw(argv(command, starts=True))
    outcome = checked(words + own(command, home))
    held(outcome, *_names(command, words))  # a refusal names the flag (or the argument) it refuses
    assert outcome.status in (0, 2), outcome


def _names(command: tuple[str, ...], words: list[str]) -> list[str]:
    """What a refusal of ``words`` may name: a flag given, or a positional argument's name."""
    positional = [a.metavar or a.dest for a in PARSERS[command]._actions if not a.option_strings]
    return [w.split("=")[0] for w in words[len(command):] if w.startswith("--")] + \
        [str(name) for name in positional if name and name != "help"]
