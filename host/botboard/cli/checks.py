"""What commands check before they start anything (their ``preflight`` stage, set with
``set_defaults(preflight=...)``): the game and its options, a layout, a serial port's name, a
console's address. Each problem is a CliError naming the flag and what to do."""

from __future__ import annotations

import argparse
from typing import Any

from . import CliError


def game(name: str | None, options: dict[str, Any] | None = None, players: int | None = None,
         flag: str = "--game") -> str:
    """The game's canonical name, after its options (keys) and number of players are checked."""
    from .. import games

    try:
        canonical = games.canonical(name or games.default_name())
    except games.GameError as err:
        raise CliError(f"{flag} {name}: {err}" if name else str(err)) from err
    rules = games.get(canonical) if options is not None or players is not None else None
    for what, value, test in (("--option", options, "merged_options"), ("--players", players, "check_players")):
        if rules is not None and value is not None:
            try:
                getattr(rules, test)(value)
            except games.GameError as err:
                raise CliError(f"{what}: {err}") from err
    return canonical


def options_json(text: str | None, flag: str = "--options") -> dict[str, Any] | None:
    """``--options '{"k": 1}'``: a JSON object, or None when not given."""
    import json

    if text is None:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise CliError(f"{flag} {text[:60]!r}: not JSON ({str(err)[:80] or 'nested too deep'}); "
                       "give an object, e.g. '{\"max_turns\": 10}'") from err
    if not isinstance(value, dict):
        raise CliError(f"{flag} {text[:60]!r}: give a JSON object, e.g. '{{\"max_turns\": 10}}'")
    return value


def layout(name: str | None, flag: str = "--layout") -> Any:
    from ..board import layouts
    from ..board.layouts import LayoutError

    if name is None:
        return None
    try:
        return layouts.load(name)
    except LayoutError as err:
        raise CliError(f"{flag} {name[:60]}: {err}") from err


def port(name: str | None, flag: str = "--port") -> None:
    """A serial port's name: a path, not empty (whether it opens is for the command)."""
    if name is not None and not name.strip():
        raise CliError(f"{flag}: give the board's serial port, e.g. /dev/ttyACM0")


def console(args: argparse.Namespace) -> None:
    """--console URL: a daemon's http:// address."""
    from .console_client import ConsoleClient

    ConsoleClient.from_args(args)
