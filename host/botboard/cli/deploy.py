"""``botboard deploy``: compile the firmware and copy it to a board with mpremote."""

from __future__ import annotations

import argparse

from ..board import layouts
from . import checks


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deploy", help="compile the firmware and copy it and the board config to a board",
                       description="Precompile firmware/ and shared/ with mpy-cross, ask a running "
                       "firmware to hand the port to the REPL, then copy the modules, main.py and "
                       "board.json with mpremote and reset the board (docs/flashing.md).")
    p.add_argument("--port", required=True, help="the board's serial port, e.g. /dev/ttyACM0")
    p.add_argument("--layout", default="ttb-small",
                   help="layout in hardware/layouts whose board.json to deploy: "
                   + ", ".join(layouts.names()) + " (default ttb-small)")
    p.set_defaults(func=_run, preflight=_check)


def _check(args: argparse.Namespace) -> None:
    checks.port(args.port)
    checks.layout(args.layout)


def _run(args: argparse.Namespace) -> int:
    _check(args)
    from ..board.deploy import DeployError, deploy
    from ..board.layouts import LayoutError
    from . import CliError

    try:
        deploy(args.port, args.layout)
    except (DeployError, LayoutError) as err:
        raise CliError(str(err)) from err
    return 0
