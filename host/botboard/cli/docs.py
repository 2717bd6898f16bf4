"""``botboard docs``: rewrite the docs botboard generates from its own code and data (docgen/).

Every game's LED pictures, the palettes page and the hardware tables; ``--check``
only says which are stale (exit 1), as the test suite does. ``--game NAME``: one game's own
files, into its own package folder, from anywhere (no checkout needed for a game of another
package).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    p = sub.add_parser("docs", help="rewrite the generated docs (LED pictures, palettes, hardware tables)",
                       description="Regenerates every file botboard writes from its own code and data: "
                       "each game's LED pictures (docs/img, or a game package's own docs/ folder), "
                       "docs/palettes.md and the power, BOM and wiring tables in hardware/. Run it from a "
                       "checkout after changing a game's LED language, a palette file or a layout. "
                       "--game NAME writes one game's pictures and, for a game from another package, its "
                       "palette page, into that package's docs/ folder: from anywhere. Both also say "
                       "which pages a declaration's `docs` names that do not exist.")
    p.add_argument("--check", action="store_true", help="only list the stale files (exit 1 if any)")
    p.add_argument("--game", metavar="NAME", default=None,
                   help="only this game's files, written into its own package (no checkout needed)")
    p.set_defaults(func=_run, preflight=_check)


def _check(args: argparse.Namespace) -> None:
    from .. import games
    from ..resources import IN_CHECKOUT
    from . import CliError

    if args.game is None:
        if not IN_CHECKOUT:
            raise CliError("the generated docs live in a source checkout: run this from one, or give "
                           "--game NAME for one game's own")
        return
    try:
        declaration = games.declaration(args.game)
    except games.GameError as err:
        raise CliError(f"--game {args.game}: {err}") from err
    if declaration.package == "botboard" and not IN_CHECKOUT:
        raise CliError(f"{declaration.title}'s docs are botboard's own, in its source checkout "
                       "(docs/img, docs/palettes.md): run this from one")


def _run(args: argparse.Namespace) -> int:
    from .. import docgen, games
    from ..games.declaration import DeclarationError
    from . import CliError

    _check(args)
    try:
        files = docgen.game_files(args.game) if args.game else docgen.generated()
        missing = docgen.missing_pages([games.canonical(args.game)] if args.game else None)
    except (DeclarationError, games.GameError, OSError, ValueError) as err:  # a game's own part that will not load
        raise CliError(str(err)) from err
    if args.game and not files:
        raise CliError(f"{args.game} declares no pictures and no table: it has no generated docs")
    try:
        changed = docgen.stale(files) if args.check else docgen.write(files)
    except OSError as err:  # a package installed where its user cannot write
        raise CliError(f"{err}: install the game from its own folder (`pip install -e DIR`) to write its docs")
    for path in changed:
        print(("stale: " if args.check else "wrote ") + docgen.shown(Path(path)))
    for line in missing:
        print(f"missing: {line}")
    if args.check and (changed or missing):
        if changed:
            print(f"run `{docgen.COMMAND}{f' --game {args.game}' if args.game else ''}` to rewrite them")
        return 1
    return 0
