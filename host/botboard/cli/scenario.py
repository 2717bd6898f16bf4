"""``botboard scenario run|check``: run scenario files of any game."""

from __future__ import annotations

import argparse
import json
import sys

from . import CliError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("scenario", help="run or check scenario files (docs/scenarios.md)")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    run_p = verbs.add_parser("run", help="print the resulting state and events as JSON")
    run_p.add_argument("file")
    run_p.set_defaults(func=_run)
    check_p = verbs.add_parser("check", help="exit 0 only if every file's expect block holds")
    check_p.add_argument("files", nargs="+", metavar="FILE")
    check_p.set_defaults(func=_check)


def _run(args: argparse.Namespace) -> int:
    from .. import scenario
    from ..games.base import GameError

    try:
        doc = scenario.load(args.file)
        result = scenario.run(doc)
    except GameError as err:
        raise CliError(str(err)) from err
    print(json.dumps(result.to_json(), indent=2))
    return 1 if result.error else 0


def _check(args: argparse.Namespace) -> int:
    from .. import scenario
    from ..games.base import GameError

    failed = 0
    for path in args.files:
        try:
            doc = scenario.load(path)
            problems = scenario.check(doc, scenario.run(doc))
        except GameError as err:
            problems = [str(err)]
        if problems:
            failed += 1
            print(f"FAIL {path}", file=sys.stderr)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
        else:
            print(f"ok   {path}")
    print(f"{len(args.files) - failed} passed, {failed} failed")
    return 1 if failed else 0
