"""botboard: play robot-programming board games on an LED board.

The ``botboard`` command is a thin entry point over one module per
subcommand. Each module in ``_COMMANDS`` has ``register(subparsers)`` that adds its parser
and sets ``func(args) -> int`` as the default. Modules are imported only to
register their parsers; heavy imports belong inside ``func``.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sqlite3
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from .. import __version__
from .errors import OneLineFormatter, unexpected

if TYPE_CHECKING:
    from ..session.journal import Journal

_COMMANDS = ("run", "config", "sim", "probe", "bench", "scenario", "status", "trace", "leds",
             "selfplay", "replay", "games", "tiles", "deploy", "bringup", "hardware", "service", "doctor", "docs",
             "new-game", "check-game")


class CliError(Exception):
    """A user-facing error: printed on stderr as is, exit status 2."""


@contextmanager
def opened_journal(data_dir: str | None) -> Iterator[Journal]:
    """The journal in ``data_dir`` (default: the settings file's data_dir, else var/; docs/journal.md), closed afterwards; its errors become CliError."""
    from ..session.host import open_journal
    from ..session.journal import JournalError

    try:
        journal = open_journal(data_dir)
    except JournalError as err:
        raise CliError(str(err)) from err
    try:
        yield journal
    except JournalError as err:
        raise CliError(str(err)) from err
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:  # a damaged page found only when it is read
        raise CliError(f"{journal.path}: damaged ({err}); it is left untouched: start a new journal "
                       "beside it with `botboard run --new-journal`") from err
    finally:
        journal.close()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="botboard", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"botboard {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="more log output (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMANDS:
        importlib.import_module(f"{__name__}.{name.replace('-', '_')}").register(sub)
    _register_game_commands(sub)
    return parser


def command_names() -> set[str]:
    """Every subcommand `botboard` has here (its own and those the installed games bring)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def _register_game_commands(sub: argparse._SubParsersAction) -> None:
    """Commands a game declares (`botboard botwars report ...`); a broken one is left out."""
    from .. import games
    from ..games.declaration import DeclarationError

    for declaration in games.registry.declarations().values():
        if declaration.commands:
            try:
                declaration.load("commands")(sub)
            except (DeclarationError, argparse.ArgumentError) as err:
                logging.getLogger("botboard").warning("%s", err)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    if args.verbose < 2:  # -vv: a developer's whole tracebacks on the terminal
        for handler in logging.getLogger().handlers:
            handler.setFormatter(OneLineFormatter("%(asctime)s %(name)s %(levelname)s: %(message)s"))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except CliError as err:
        # one line, whatever the words it quotes hold (SQLite's, a file's own text)
        print(f"botboard {args.command}: " + " ".join(str(err).splitlines()), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # piped into `head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    except Exception as err:  # a bug: one line here, its traceback in the error log
        if args.verbose >= 2:
            raise
        print(unexpected(args.command, err), file=sys.stderr)
        return 1
