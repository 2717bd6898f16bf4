"""A table's settings: what ``botboard run`` takes, from a TOML file and from flags.

A flag given on the command line wins over the file, the file over the built-in
default; ``resolve`` keeps where each value came from (``botboard config`` prints
it). The file is found at ``--config PATH``, else ``$BOTBOARD_CONFIG``, else the
first of ``~/.config/botboard/botboard.toml`` and ``/etc/botboard/botboard.toml``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import logging
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import games


log = logging.getLogger("botboard.settings")


class SettingsError(ValueError):
    """A configuration file that cannot be used: says which file, which key and why."""


@dataclass(frozen=True)
class Setting:
    key: str  # the TOML key, and the flag's dest (--console-port -> console_port)
    kind: type  # str, int, float, list (of str) or dict
    default: Any
    meaning: str
    example: Any = None  # shown in a new file for a setting with no default (a function: asked then)


SETTINGS: tuple[Setting, ...] = (
    Setting("game", str, None, "the game at the table (default: botboard's flagship game; "
            "`botboard games --playable` lists them)", games.default_name),
    Setting("layout", str, None, "the board's layout (default: the game's own)", "ttb-big"),
    Setting("players", int, None, "players of a new game when none is unfinished", 2),
    Setting("seed", int, 0, "seed of a new game"),
    Setting("options", dict, {}, "engine options of a new game (a TOML table)"),
    Setting("computer", list, [], "seats the computer plays, e.g. [\"2=search\"]"),
    Setting("think", float, 2.0, "the computer's thinking time a move, in seconds"),
    Setting("hints", bool, True, "seats may ask their phone for a hint (what the search player "
            "would play, on the seat's own information); the console can change it"),
    Setting("hint_think", float, 2.0, "the thinking time of a hint, in seconds"),
    Setting("explain", bool, True, "a seat's phone explains each kind of tile the first time "
            "the seat lays it; each phone can also turn it off"),
    Setting("port", str, None, "the board's serial port (default /dev/botboard, else a plugged-in "
            "Pico, else the simulated board)", "/dev/botboard"),
    Setting("listen", str, "127.0.0.1", "the console's address (anything but loopback needs a token)"),
    Setting("console_port", int, 8700, "the console's TCP port"),
    Setting("token", str, None, "the token every console request carries", "a-long-random-string"),
    Setting("data_dir", str, None, "where the journal and tile registry live (default: the settings file's data_dir, else var/; docs/journal.md)",
            "/var/lib/botboard"),
    Setting("palette", str, "standard", "the LED colours: standard or colourblind"),
    Setting("speed", float, None, "animation seconds a step (default 0.35)", 0.35),
    Setting("remote", str, None, "play in a room with other tables: mqtt://[user:password@]HOST[:PORT]/ROOM#KEY.HOST",
            "mqtt://broker.local/club"),
    Setting("room_key", str, None, "not taken any more: a passphrase could be guessed offline from one "
            "recorded message; give the room's link as remote (refused with that reason)",
            "four words read out at the table"),
    Setting("seat", tuple, [], "the seats this table plays in the room, from 1, e.g. [1, 2]"),
    Setting("table", str, None, "this table's name in the room (default: the computer's name)", "kitchen"),
    Setting("spectate", bool, False, "watch the room's game (public information only)"),
    Setting("sim_baud", int, None, "pace the simulated board's link like a UART at this rate", 115200),
)
BY_KEY = {s.key: s for s in SETTINGS}
_KIND_WORDS = {str: "a string in quotes", int: "a whole number", float: "a number",
               list: "a list of strings, e.g. [\"2=search\"]", dict: "a table, e.g. {max_turns = 10}",
               tuple: "a list of seat numbers, e.g. [1, 2]", bool: "true or false"}


def default_paths() -> list[Path]:
    """Where a configuration file is looked for when none is named, in order."""
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return [home / "botboard" / "botboard.toml", Path("/etc/botboard/botboard.toml")]


def find_file(named: str | None) -> tuple[Path | None, str]:
    """(the configuration file in effect or None, how it was found)."""
    if named:
        return Path(named), "--config"
    if os.environ.get("BOTBOARD_CONFIG"):
        return Path(os.environ["BOTBOARD_CONFIG"]), "$BOTBOARD_CONFIG"
    for path in default_paths():
        if path.is_file():
            return path, "found in its default place"
    return None, "none found in " + " or ".join(str(p) for p in default_paths())


def load_file(path: Path) -> dict[str, Any]:
    """The settings a file gives, each checked; SettingsError names what is wrong and where."""
    try:
        with path.open("rb") as f:
            doc = tomllib.load(f)
    except FileNotFoundError as err:
        raise SettingsError(f"{path}: no such configuration file (write one with "
                            "`botboard config --init`, or leave out --config)") from err
    except (OSError, UnicodeDecodeError) as err:
        raise SettingsError(f"{path}: cannot be read ({err})") from err
    except tomllib.TOMLDecodeError as err:
        raise SettingsError(f"{path}: not valid TOML: {err}") from err
    except (ValueError, RecursionError) as err:  # a 5,000-digit number, arrays nested too deep
        why = "a number too long" if "int_max_str_digits" in str(err) else "nested too deep" \
            if isinstance(err, RecursionError) else str(err)
        raise SettingsError(f"{path}: not valid TOML: {why}") from err
    for key, value in doc.items():
        _check(path, key, value)
    return doc


def _check(path: Path, key: str, value: Any) -> None:
    setting = BY_KEY.get(key)
    if setting is None:
        near = difflib.get_close_matches(key, BY_KEY, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise SettingsError(f"{path}: unknown setting {key!r}{hint}; the settings are "
                            + ", ".join(BY_KEY))
    if not _is_kind(value, setting.kind):
        raise SettingsError(f"{path}: {key} = {value!r}: {key} is {_KIND_WORDS[setting.kind]}")


def _is_kind(value: Any, kind: type) -> bool:
    if kind is bool or isinstance(value, bool):  # TOML's true is not a number
        return isinstance(value, bool) and kind is bool
    if kind is tuple:
        return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1
                                               for v in value)
    if kind is float:
        return isinstance(value, (int, float))
    if kind is list:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, kind)


def configured_data_dir() -> str | None:
    """The settings file's data_dir, for commands that read the journal without taking
    every setting; a file that cannot be read is left to `botboard run` to report."""
    path, _ = find_file(None)
    try:
        return load_file(path).get("data_dir") if path else None
    except SettingsError as err:
        log.warning("%s", err)
        return None


@dataclass
class Resolved:
    """The settings in effect: values, where each came from, and the file read (if any)."""

    values: dict[str, Any]
    sources: dict[str, str]
    file: Path | None
    file_note: str


def resolve(args: argparse.Namespace) -> Resolved:
    """Defaults, then the file, then the flags given (absent flags are not in ``args``)."""
    path, note = find_file(getattr(args, "config", None))
    from_file = load_file(path) if path else {}
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for s in SETTINGS:
        if s.key in vars(args):
            values[s.key], sources[s.key] = getattr(args, s.key), "flag"
        elif s.key in from_file:
            values[s.key], sources[s.key] = from_file[s.key], str(path)
        else:
            values[s.key], sources[s.key] = s.default, "default"
    values["think"] = float(values["think"])
    values["hint_think"] = float(values["hint_think"])
    if values["speed"] is not None:
        values["speed"] = float(values["speed"])
    flags = flag_options(getattr(args, "option", []))
    if flags:
        sources["options"] = "flag" if sources["options"] == "default" else f"{path} and flags"
    values["options"] = {**values["options"], **flags}
    _check_values(values, sources)
    return Resolved(values, sources, path, note)


def _check_values(values: dict[str, Any], sources: dict[str, str]) -> None:
    """What a value's kind does not say: a port's range, a table name MQTT topics can carry."""
    def where(key: str) -> str:
        shown = masked(key, values[key])
        return f"--{key.replace('_', '-')} {shown!r}" if sources[key] == "flag" else \
            f"{sources[key]}: {key} = {shown!r}"

    port = values["console_port"]
    if not 0 <= port <= 65535:  # 0: any free port (the tests' consoles)
        raise SettingsError(f"{where('console_port')}: a TCP port is a number from 1 to 65535 "
                            "(the default is 8700)")
    from .remote.protocol import valid_id

    from .remote.url import RemoteUrlError, parse_remote_url

    if values["remote"] is not None:
        try:
            parse_remote_url(values["remote"])
        except RemoteUrlError as err:  # its words show the link with its secrets hidden
            origin = "--remote" if sources["remote"] == "flag" else f"{sources['remote']}: remote"
            raise SettingsError(f"{origin}: {err}") from err
    if values["table"] is not None and not valid_id(values["table"]):
        raise SettingsError(f"{where('table')}: a table's name is 1 to 64 of A-Z a-z 0-9 _ - "
                            "(it names the table's topics in the room), e.g. kitchen")


# settings whose value is a secret: never printed whole, kept in a file only its owner reads
SECRET_KEYS = ("token", "room_key", "remote")


def secret_parts(key: str, value: Any) -> list[str]:
    """The secrets a setting's value holds: the token, the room key, the broker password and
    the key after # in a room's address."""
    if not isinstance(value, str) or key not in SECRET_KEYS:
        return []
    if key != "remote":
        return [value] if value != "auto" else []
    from .remote.url import RemoteUrlError, parse_remote_url

    try:
        url = parse_remote_url(value)
    except RemoteUrlError:
        return []
    return [part for part in (url.password, url.key) if part]


def masked(key: str, value: Any) -> Any:
    """A setting as `botboard config` shows it: a secret by its first characters only. A room's
    address is taken apart, never searched for the secret's text: a password may be written
    %-encoded, and its text may also be part of the host or the room."""
    if key not in SECRET_KEYS or not isinstance(value, str):
        return value
    from .remote.url import hidden, masked_link

    if key != "remote":
        return hidden(value) if value != "auto" else value
    return masked_link(value)


def flag_options(items: list[str]) -> dict[str, Any]:
    """--option KEY=JSON items as a dict; SettingsError on a value that is not JSON."""
    options: dict[str, Any] = {}
    for item in items:
        key, _, value = item.partition("=")
        try:
            options[key.strip()] = json.loads(value)
        except (ValueError, RecursionError) as err:  # not JSON, a 5,000-digit number, nested too deep
            why = "a number too long" if "int_max_str_digits" in str(err) else str(err) or "nested too deep"
            raise SettingsError(f"--option {item[:60]}: the value is not JSON ({why}); strings need "
                                "quotes, e.g. ruleset='\"v1\"'") from err
    return options


def toml_value(value: Any) -> str:
    """A value written as TOML (the kinds settings take)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    return repr(value)


def file_text(values: dict[str, Any]) -> str:
    """A configuration file: the given settings set, every other one as a comment with its default."""
    lines = ["# botboard table settings (botboard config shows what is in effect; docs/table-setup.md)", ""]
    for s in SETTINGS:
        lines.append(f"# {s.meaning}")
        if s.key in values and values[s.key] is not None:
            lines.append(f"{s.key} = {toml_value(values[s.key])}")
        else:
            example = s.example() if callable(s.example) else s.example
            lines.append(f"# {s.key} = {toml_value(s.default if s.default is not None else example)}")
    return "\n".join(lines) + "\n"
