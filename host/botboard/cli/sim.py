"""``botboard sim``: start the simulated board and print its serial port."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..board import layouts
from . import values

if TYPE_CHECKING:
    from ..board.sim import SimBoard


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sim", help="run the real firmware in MicroPython on a pseudo-terminal",
                       description="Start the simulated board. The first line printed is its "
                       "serial port (e.g. /dev/pts/5), the second its control socket. Runs until "
                       "Ctrl-C or SIGTERM; SIGUSR1 unplugs it, SIGUSR2 plugs it back in.")
    p.add_argument("--layout", default="ttb-small", help="layout in hardware/layouts: "
                   + ", ".join(layouts.names()) + " (default ttb-small)")
    p.add_argument("--baud", type=values.BAUD, default=None,
                   help="pace the link like a UART at this rate (default: unpaced)")
    p.add_argument("--link", metavar="PATH",
                   help="also make PATH a symlink to the port, stable across restarts")
    p.add_argument("--control-port", type=values.TCP_PORT, default=None, help="TCP port of the control socket")
    p.add_argument("--hardware", metavar="LAYOUT",
                   help="simulate this layout's hardware under the --layout config (a board.json "
                   "deployed for another layout: the firmware reports it)")
    p.add_argument("--damage", type=values.RATE, default=0.0, metavar="RATE",
                   help="for tests: damage this share of bytes on the link (e.g. 0.01)")
    p.add_argument("--stall", type=values.RATE, default=0.0, metavar="RATE",
                   help="for tests: hold back this share of the link's chunks 20-400 ms (e.g. 0.01)")
    add_fault_argument(p)
    add_chip_argument(p)
    p.add_argument("--blank", action="store_true",
                   help="with --chip: a Pico that never had the firmware (MicroPython's REPL, "
                   "an empty filesystem: what `botboard deploy` meets on a new board)")
    p.add_argument("--safe-mode", action="store_true",
                   help="with --chip: hold the safe-mode button (GP28) at power-on")
    p.set_defaults(func=_run, preflight=check)


def add_chip_argument(p: argparse.ArgumentParser) -> None:
    """--chip, for the commands that start the simulated board."""
    p.add_argument("--chip", choices=["rp2040"], default=None,
                   help="run the firmware on MicroPython's own rp2 build in an emulated RP2040 "
                   "(rp2040js) instead of the unix port: slower, closer to a Pico "
                   "(docs/firmware.md)")


def add_fault_argument(p: argparse.ArgumentParser) -> None:
    """--fault, for the commands that start the simulated board (sim, run, bringup)."""
    from ..board.sim_faults import HELP

    p.add_argument("--fault", action="append", default=[], metavar="FAULT",
                   help="wire the simulated board as a first board often is (repeat for several; "
                   f"docs/first-hour.md): {HELP}")


def check(args: argparse.Namespace) -> None:
    """The flags checked before the board starts: its layouts, its faults, --chip's limits."""
    from ..board import sim_faults
    from ..board.layouts import LayoutError
    from . import CliError, checks

    layout = checks.layout(args.layout)
    checks.layout(args.hardware, "--hardware")
    try:
        sim_faults.parse(args.fault, layout)
    except LayoutError as err:  # a FaultError
        raise CliError(str(err)) from err
    if getattr(args, "chip", None):
        _chip_flags(args)


def _run(args: argparse.Namespace) -> int:
    from ..board.layouts import LayoutError
    from ..board.sim import serve
    from . import CliError

    from ..chip.board import ChipError

    check(args)
    try:
        board = make_board(args)
    except LayoutError as err:  # (a FaultError is one too)
        raise CliError(str(err)) from err
    try:
        return serve(board)
    except ChipError as err:
        raise CliError(str(err)) from None


def make_board(args: argparse.Namespace) -> SimBoard:
    """The simulated board the flags ask for: the unix port's, or with --chip the emulated Pico."""
    from ..board.sim import SimBoard

    if not getattr(args, "chip", None):
        return SimBoard(args.layout, args.baud, args.link, args.damage, args.control_port,
                        args.hardware, args.stall, args.fault)
    _chip_flags(args)
    from ..chip.board import ChipBoard

    return ChipBoard(args.layout, args.baud, args.link, args.control_port,
                     deployed=not args.blank, safe_mode=args.safe_mode)


def _chip_flags(args: argparse.Namespace) -> None:
    from . import CliError

    unsupported = [flag for flag, value in (("--damage", args.damage), ("--stall", args.stall),
                                            ("--hardware", args.hardware), ("--fault", args.fault))
                   if value]
    if unsupported:
        raise CliError(f"{', '.join(unsupported)} work on the unix-port board only, not yet with "
                       "--chip rp2040: leave --chip out to use them")
