"""``botboard new-game NAME``: a new game's package, from a skeleton that already plays."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new-game", help="write a new game's package: a skeleton that plays from the start",
                       description="Writes DIR/NAME/, a package that registers the game NAME under the "
                       "entry-point group botboard.games: declaration, rules engine, table mapping, "
                       "palette, board, tile catalogue (with a free tile id), evaluation, a scenario "
                       "and a README. It passes the conformance suite as written; docs/adding-a-game.md "
                       "says what to change.")
    p.add_argument("name", metavar="NAME", help="the game's name (`--game NAME`): lower case, digits, dashes")
    p.add_argument("--dir", default=".", help="the folder to write NAME/ into (default: here)")
    p.add_argument("--simultaneous", action="store_true",
                   help="the seats program in secret and reveal together (SimultaneousTable), "
                        "instead of taking turns in the open")
    p.set_defaults(func=_run, preflight=_check)


def _check(args: argparse.Namespace) -> None:
    from ..scaffold import ScaffoldError, check_name
    from . import CliError

    try:
        check_name(args.name)
    except ScaffoldError as err:
        raise CliError(f"NAME {args.name[:40]!r}: {err}") from err


def _run(args: argparse.Namespace) -> int:
    _check(args)
    from ..scaffold import ScaffoldError, write
    from . import CliError

    try:
        folder = write(args.name, Path(args.dir), simultaneous=args.simultaneous)
    except (ScaffoldError, OSError) as err:
        raise CliError(str(err)) from err
    print(f"wrote {folder}/. Next:\n"
          f"  pip install --no-deps -e {folder}   (botboard finds the game through its entry point)\n"
          f"  botboard selfplay --sim --game {args.name}\n"
          f"  cd {folder} && pytest --botboard-game {args.name}   (the conformance suite: what every game must keep)")
    return 0
