"""``botboard config``: the table's settings in effect, and where each came from."""

from __future__ import annotations

import argparse
import json
import os
import secrets
from pathlib import Path

from .run import add_daemon_arguments


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help="show the settings `botboard run` would use, and where each comes from",
                       description="Print the effective settings of `botboard run` with the same flags: "
                       "each value and its source (a flag, the configuration file, or the default). "
                       "With --init, write a configuration file to start from.")
    add_daemon_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--init", nargs="?", const="", default=None, metavar="PATH",
                   help="write a settings file holding the flags given (default place: "
                   "~/.config/botboard/botboard.toml); an existing file is not overwritten")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..settings import SETTINGS, SettingsError, default_paths, masked, resolve
    from . import CliError

    if args.init is not None:
        return _init(Path(args.init) if args.init else default_paths()[0], args)
    try:
        resolved = resolve(args)
    except SettingsError as err:
        raise CliError(str(err)) from err
    shown = {k: masked(k, v) for k, v in resolved.values.items()}
    if args.json:
        print(json.dumps({"file": str(resolved.file) if resolved.file else None,
                          "settings": {k: {"value": shown[k], "from": resolved.sources[k]}
                                       for k in shown}}, indent=2))
        return 0
    print(f"configuration file: {resolved.file or '-'} ({resolved.file_note})")
    width = max(len(s.key) for s in SETTINGS)
    for s in SETTINGS:
        value = "-" if shown[s.key] is None else json.dumps(shown[s.key])
        print(f"  {s.key:<{width}}  {value:<24}  {resolved.sources[s.key]}")
    return 0


def _init(path: Path, args: argparse.Namespace) -> int:
    from ..settings import SETTINGS, SettingsError, file_text, flag_options
    from . import CliError

    if path.exists():
        raise CliError(f"{path} exists; edit it, or give --init another path")
    given = {s.key: getattr(args, s.key) for s in SETTINGS if s.key in vars(args)}
    if given.get("token") == "auto":  # kept in the file: phones' links survive a restart
        given["token"] = secrets.token_urlsafe(16)
    try:
        given["options"] = flag_options(args.option) or None
    except SettingsError as err:
        raise CliError(str(err)) from err
    path.parent.mkdir(parents=True, exist_ok=True)
    # the file may hold the console's token (every seat's key derives from it), a broker password
    # or a room key: readable by its owner only, as `service install` writes it
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
        out.write(file_text(given))
    print(f"wrote {path}")
    return 0
