"""``botboard bench KIND``: benchmarks that print one JSON object of figures."""

from __future__ import annotations

import argparse
import importlib
import json
import sys

# kind -> module in botboard.bench with add_arguments(parser) and run(args) -> dict
_KINDS: tuple[str, ...] = ("link", "damage", "engine", "firmware", "table", "ai", "remote", "fuzz")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bench", help="run a benchmark and print its figures as JSON")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    for kind in _KINDS:
        module = importlib.import_module(f"botboard.bench.{kind}")
        kind_parser = kinds.add_parser(kind, help=(module.__doc__ or kind).splitlines()[0])
        module.add_arguments(kind_parser)
        kind_parser.set_defaults(func=lambda args, m=module: _run(m, args), preflight=check)


def check(args: argparse.Namespace) -> None:
    """What every benchmark shares, checked before it runs: its game, options and layout."""
    from . import checks

    options = checks.options_json(getattr(args, "options", None))
    if "game" in vars(args):
        checks.game(args.game, options, getattr(args, "players", None))
    checks.layout(getattr(args, "layout", None))
    levels = getattr(args, "levels", None)
    if levels is not None:
        _levels(levels)


def _levels(text: str) -> None:
    from ..players import LEVELS
    from . import CliError

    levels = [level.strip() for level in text.split(",")]
    if len(levels) != 2 or not set(levels) <= set(LEVELS):
        raise CliError(f"--levels {text[:40]!r}: give two levels of {', '.join(LEVELS)}, e.g. greedy,random")


def _run(module: object, args: argparse.Namespace) -> int:
    from ..games import GameError
    from ..patience import SlowChild
    from . import CliError

    check(args)
    try:
        figures = module.run(args)  # type: ignore[attr-defined]
    except SlowChild as err:  # a machine too busy for the bench: a sentence, not a traceback
        print(f"botboard bench {args.kind}: {err}", file=sys.stderr)
        return 1
    except (GameError, ValueError) as err:  # a game or options it cannot take (--options not JSON...)
        raise CliError(f"{args.kind}: {err}") from err
    print(json.dumps(figures, indent=2))
    return 0
