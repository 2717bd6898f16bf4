"""``botboard sim``: start the simulated board and print its serial port."""

from __future__ import annotations

import argparse

from ..board import layouts


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sim", help="run the real firmware in MicroPython on a pseudo-terminal",
                       description="Start the simulated board. The first line printed is its "
                       "serial port (e.g. /dev/pts/5), the second its control socket. Runs until "
                       "Ctrl-C or SIGTERM; SIGUSR1 unplugs it, SIGUSR2 plugs it back in.")
    p.add_argument("--layout", default="ttb-small", help="layout in hardware/layouts: "
                   + ", ".join(layouts.names()) + " (default ttb-small)")
    p.add_argument("--baud", type=int, default=None,
                   help="pace the link like a UART at this rate (default: unpaced)")
    p.add_argument("--link", metavar="PATH",
                   help="also make PATH a symlink to the port, stable across restarts")
    p.add_argument("--control-port", type=int, default=None, help="TCP port of the control socket")
    p.add_argument("--hardware", metavar="LAYOUT",
                   help="simulate this layout's hardware under the --layout config (a board.json "
                   "deployed for another layout: the firmware reports it)")
    p.add_argument("--damage", type=float, default=0.0, metavar="RATE",
                   help="for tests: damage this share of bytes on the link (e.g. 0.01)")
    p.add_argument("--stall", type=float, default=0.0, metavar="RATE",
                   help="for tests: hold back this share of the link's chunks 20-400 ms (e.g. 0.01)")
    add_fault_argument(p)
    p.set_defaults(func=_run)


def add_fault_argument(p: argparse.ArgumentParser) -> None:
    """--fault, for the commands that start the simulated board (sim, run, bringup)."""
    from ..board.sim_faults import HELP

    p.add_argument("--fault", action="append", default=[], metavar="FAULT",
                   help="wire the simulated board as a first board often is (repeat for several; "
                   f"docs/first-hour.md): {HELP}")


def _run(args: argparse.Namespace) -> int:
    from ..board.layouts import LayoutError
    from ..board.sim import SimBoard, serve
    from . import CliError

    try:
        board = SimBoard(args.layout, args.baud, args.link, args.damage, args.control_port,
                         args.hardware, args.stall, args.fault)
    except LayoutError as err:  # (a FaultError is one too)
        raise CliError(str(err)) from err
    return serve(board)
