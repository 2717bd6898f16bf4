"""``botboard check-game NAME``: botboard's conformance suite over one installed game, with pytest.

It runs ``python -m pytest --botboard-game NAME`` in the current folder (a game's own package:
its tests run beside the suite); arguments after ``--`` go to pytest as they are.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check-game", help="run the conformance suite over a game (pytest --botboard-game NAME)",
                       description="Runs botboard's conformance suite (a pytest plugin shipped with botboard) "
                       "over the installed game NAME, from the current folder: the game's own tests run "
                       "beside it. Needs pytest (pip install pytest). Exit status: pytest's.")
    p.add_argument("name", metavar="NAME", help="an installed game (`botboard games` lists them)")
    p.add_argument("pytest_args", nargs=argparse.REMAINDER, metavar="-- PYTEST-ARGS",
                   help="more arguments for pytest, after --, e.g. -- -x -k hidden")
    p.set_defaults(func=_run, preflight=_check)


def _check(args: argparse.Namespace) -> str:
    """The game's canonical name, once it and pytest are known to be there."""
    from . import CliError, checks

    name = checks.game(args.name, flag="NAME")
    if importlib.util.find_spec("pytest") is None:
        raise CliError("the conformance suite runs under pytest, which is not installed: pip install pytest")
    return name


def _run(args: argparse.Namespace) -> int:
    name = _check(args)
    extra = [a for a in args.pytest_args if a != "--"]
    return subprocess.run([sys.executable, "-m", "pytest", "--botboard-game", name, *extra]).returncode
