"""``botboard docs``: rewrite the docs botboard generates from its own code and data (docgen/).

Every game's LED pictures, the palettes page and the hardware tables; ``--check``
only says which are stale (exit 1), as the test suite does.
"""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    p = sub.add_parser("docs", help="rewrite the generated docs (LED pictures, palettes, hardware tables)",
                       description="Regenerates every file botboard writes from its own code and data: "
                       "each game's LED pictures (docs/img), docs/palettes.md and the power, BOM and "
                       "wiring tables in hardware/. Run it from a checkout after changing a game's LED "
                       "language, a palette file or a layout.")
    p.add_argument("--check", action="store_true", help="only list the stale files (exit 1 if any)")
    p.set_defaults(func=_run, preflight=_check)


def _check(args: argparse.Namespace) -> None:
    from ..resources import IN_CHECKOUT
    from . import CliError

    if not IN_CHECKOUT:
        raise CliError("the generated docs live in a source checkout: run this from one")


def _run(args: argparse.Namespace) -> int:
    from .. import docgen
    from ..resources import ROOT

    _check(args)
    changed = docgen.stale() if args.check else docgen.write()
    for path in changed:
        print(("stale: " if args.check else "wrote ") + str(path.relative_to(ROOT)))
    if args.check and changed:
        print(f"run `{docgen.COMMAND}` to rewrite them")
        return 1
    return 0
