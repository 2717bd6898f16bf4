"""``botboard hardware``: reference hardware tools (layout drawings)."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hardware", help="reference hardware: draw a layout's LED chains and slot map")
    tools = p.add_subparsers(dest="tool", metavar="TOOL", required=True)
    draw = tools.add_parser("draw", help="SVG of a layout: LED-chain order and reader/slot map")
    draw.add_argument("layout", help="layout name in hardware/layouts (or a path)")
    draw.add_argument("--out", metavar="FILE.svg", help="write here instead of standard output")
    draw.set_defaults(func=_draw)


def _draw(args: argparse.Namespace) -> int:
    from ..hardware.draw import svg
    from ..board.layouts import LayoutError, load
    from . import CliError

    try:
        text = svg(load(args.layout))
    except LayoutError as err:
        raise CliError(str(err)) from err
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0
