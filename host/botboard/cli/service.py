"""``botboard service install|uninstall|status``: the table starts itself at boot."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from .run import add_daemon_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("service", help="install botboard as a service that starts at boot (systemd, udev)",
                       description="install: write the table's settings file (kept if it exists), a "
                       "systemd unit that runs `botboard run` at boot and restarts it on failure "
                       "(logs in the journal), and a udev rule naming the board /dev/botboard; then "
                       "enable and start it. uninstall: stop and remove the unit and the rule (the "
                       "settings and the journal stay). status: what is installed and running.")
    p.add_argument("action", choices=("install", "uninstall", "status"))
    p.add_argument("--scope", choices=("system", "user"), default="system",
                   help="system (default; as root, starts at boot with nobody logged in) or user "
                   "(no root; needs lingering, no udev rule)")
    p.add_argument("--run-as", default=None, metavar="USER",
                   help="the user the system service runs as (default: the one who ran sudo)")
    p.add_argument("--serial", default=None,
                   help="the board's USB serial number, for the udev rule when several Picos are in use "
                   "(default: the only Pico plugged in, else any Pico)")
    p.add_argument("--root", default="/", metavar="DIR",
                   help="write the files under this folder instead of / (packaging, tests); implies "
                   "--no-activate")
    p.add_argument("--no-activate", action="store_true",
                   help="only write the files: do not call systemctl, udevadm or loginctl")
    add_daemon_arguments(p)  # settings for a new settings file: --game botwars --players 4 ...
    p.set_defaults(func=_run, preflight=check)


def check(args: argparse.Namespace) -> dict[str, Any]:
    """The settings an install writes, checked as `botboard run` would read them (a game nobody
    has, its options, a port out of range, a bad room link), before anything is written; the
    given settings returned."""
    from ..settings import SETTINGS
    from . import checks
    from .run import table_settings

    given = {s.key: getattr(args, s.key) for s in SETTINGS if s.key in vars(args)}
    if args.action != "install":
        return given
    values = table_settings(argparse.Namespace(**{**vars(args), "config": os.devnull}))
    if given.keys() & {"game", "players"} or values["options"]:
        checks.game(values["game"], values["options"], values["players"])
    checks.layout(values["layout"])
    return given


def _run(args: argparse.Namespace) -> int:
    from .. import service
    from . import CliError

    root = Path(args.root)
    activate = not args.no_activate and root == Path("/")
    try:
        where = service.places(args.scope, root, args.run_as, args.config)
        if args.action == "install":
            given = check(args)
            service.install(where, given, args.serial, activate, print)
            print("console: " + service.console_address(where.config))
        elif args.action == "uninstall":
            service.uninstall(where, activate, print)
        else:
            for what, state in service.status(where):
                print(f"{what:<16} {state}")
    except service.ServiceError as err:
        raise CliError(str(err)) from err
    except LookupError as err:  # --run-as a user this computer does not have
        raise CliError(f"--run-as {args.run_as}: {err}; give a user of this computer") from err
    return 0
