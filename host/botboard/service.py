"""The table as a service: a systemd unit that starts ``botboard run`` at boot and restarts
it on failure, and a udev rule that names the board /dev/botboard by its USB identity.

Two scopes. ``system`` (the default) runs the unit from /etc/systemd/system as the
installing user: it starts at boot with nobody logged in, which is what a computer
under a table needs. ``user`` needs no root but starts at boot only with lingering
on (``loginctl enable-linger``), and cannot install the udev rule.
"""

from __future__ import annotations

import getpass
import os
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .daemon import BOARD_DEVICE
from .settings import file_text

UNIT = "botboard.service"
RULE = "99-botboard.rules"
# MicroPython's rp2 port enumerates as 2e8a:0005 on the Pico and the Pico 2 alike
# (ports/rp2/mpconfigport.h, MICROPY_HW_USB_VID / MICROPY_HW_USB_PID).
PICO_VID, PICO_PID = 0x2E8A, 0x0005


class ServiceError(Exception):
    """Something the install cannot do; says what to do instead."""


@dataclass(frozen=True)
class Places:
    """Where a scope's files go; ``root`` is / on a real install (tests give a folder)."""

    scope: str
    root: Path
    user: str
    unit: Path
    rule: Path | None
    config: Path
    data_dir: Path

    def real(self, path: Path) -> Path:
        """A path as the installed service will see it (without the test root)."""
        return Path("/") / path.relative_to(self.root) if path.is_relative_to(self.root) else path


def places(scope: str, root: Path = Path("/"), user: str | None = None,
           config: str | None = None) -> Places:
    user = user or os.environ.get("SUDO_USER") or getpass.getuser()
    if scope == "system":
        return Places(scope, root, user, root / "etc/systemd/system" / UNIT,
                      root / "etc/udev/rules.d" / RULE,
                      Path(config) if config else root / "etc/botboard/botboard.toml",
                      Path("/var/lib/botboard"))
    home = root / Path.home().relative_to("/")
    return Places(scope, root, user, home / ".config/systemd/user" / UNIT, None,
                  Path(config) if config else home / ".config/botboard/botboard.toml",
                  Path.home() / ".local/share/botboard")


def botboard_command() -> str:
    """The installed ``botboard`` beside this Python (a venv or pipx), else the one on PATH."""
    here = Path(sys.executable).parent / "botboard"
    found = str(here) if here.exists() else shutil.which("botboard")
    if not found:
        raise ServiceError("cannot find the botboard command: install botboard with pip or pipx first")
    return found


def unit_text(where: Places, command: str) -> str:
    """The systemd unit: `botboard run` with the table's settings file, restarted on failure;
    its output goes to the journal (journalctl -u botboard)."""
    system = where.scope == "system"
    lines = [
        "# botboard: the board link, the game and the console (botboard service install)",
        "[Unit]",
        "Description=botboard table (board link, game and console)",
        "Wants=network-online.target",
        "After=network-online.target",
        "",
        "[Service]",
        "Type=simple",
    ]
    if system:
        lines += [f"User={where.user}", "SupplementaryGroups=dialout",
                  "StateDirectory=botboard", "StateDirectoryMode=0700", "WorkingDirectory=/var/lib/botboard"]
    lines += [
        f"ExecStart={command} run --config {where.real(where.config)}",
        "Environment=PYTHONUNBUFFERED=1",
        "# the journal holds every seat's hand and the room's keys: its files are the user's only",
        "UMask=0077",
        "# Ctrl-C's signal: the daemon closes the journal and the board link cleanly",
        "KillSignal=SIGINT",
        "TimeoutStopSec=20",
        "Restart=on-failure",
        "RestartSec=3",
        "",
        "[Install]",
        "WantedBy=" + ("multi-user.target" if system else "default.target"),
    ]
    return "\n".join(lines) + "\n"


def rule_text(serial: str | None) -> str:
    """The udev rule naming the board /dev/botboard, readable by the dialout group."""
    match = ['SUBSYSTEM=="tty"', f'ATTRS{{idVendor}}=="{PICO_VID:04x}"',
             f'ATTRS{{idProduct}}=="{PICO_PID:04x}"']
    if serial:
        match.append(f'ATTRS{{serial}}=="{serial}"')
    assign = [f'SYMLINK+="{Path(BOARD_DEVICE).name}"', 'GROUP="dialout"', 'MODE="0660"']
    return ("# botboard: the board (MicroPython on a Pico or Pico 2) is " + BOARD_DEVICE
            + " (botboard service install)\n" + ", ".join(match + assign) + "\n")


def plugged_picos() -> list[tuple[str, str | None]]:
    """(device, USB serial number) of each Pico running MicroPython that is plugged in."""
    from serial.tools import list_ports

    return [(p.device, p.serial_number) for p in list_ports.comports()
            if p.vid == PICO_VID and p.pid == PICO_PID]


def board_serial(given: str | None, picos: list[tuple[str, str | None]]) -> str | None:
    """The serial number the rule matches: the one given; else the only Pico plugged in, so
    another Pico plugged in later does not take the name; else none (any Pico)."""
    if given or len(picos) < 2:
        return given or (picos[0][1] if picos else None)
    raise ServiceError("several Picos are plugged in (" + ", ".join(f"{d} serial {s}" for d, s in picos)
                       + "): give --serial with the board's, or unplug the others")


def new_config(where: Places, given: dict[str, Any]) -> str:
    """A table's first settings file: the console open to phones on the LAN with a token
    that stays the same across restarts (phones keep their links), the journal in the
    service's data directory, and the settings given to the install."""
    values = {"listen": "0.0.0.0", "token": secrets.token_urlsafe(16),
              "data_dir": str(where.data_dir)}
    values.update({k: v for k, v in given.items() if v is not None})
    return file_text(values)


def console_address(config: Path) -> str:
    """The console's address for phones, from the service's settings file."""
    from .daemon import reachable_host
    from .settings import BY_KEY, load_file

    values = {k: s.default for k, s in BY_KEY.items()} | load_file(config)
    token = f"?token={values['token']}" if values["token"] else ""
    return f"http://{reachable_host(values['listen'])}:{values['console_port']}/{token}"


Say = Callable[[str], None]


def install(where: Places, given: dict[str, Any], serial: str | None, activate: bool, say: Say) -> None:
    """Write the settings file (unless one exists), the unit and the rule; then, with
    ``activate``, have systemd and udev take them up."""
    if activate and where.scope == "system" and os.geteuid() != 0:
        raise ServiceError("a system service is installed as root: sudo " + " ".join(sys.argv)
                           + "  (or --scope user)")
    if where.config.exists():
        say(f"kept the settings in {where.config}")
    else:  # it holds the console's token: only the service's user reads it
        _write(where.config, new_config(where, given), say, mode=0o600)
        if os.geteuid() == 0:
            shutil.chown(where.config, user=where.user)
    _write(where.unit, unit_text(where, botboard_command()), say)
    if where.rule is not None:
        _write(where.rule, rule_text(board_serial(serial, plugged_picos())), say)
    if activate:
        for command in _activation(where):
            _run(command, say)
    else:
        say("not activated (--no-activate): " + "; ".join(" ".join(c) for c in _activation(where)))


def uninstall(where: Places, activate: bool, say: Say) -> None:
    """Stop and remove the unit and the rule; the settings and the journal stay."""
    if activate:
        _run(_systemctl(where) + ["disable", "--now", UNIT], say, check=False)
    for path in (where.unit, where.rule):
        if path is not None and path.exists():
            path.unlink()
            say(f"removed {path}")
    if activate:
        _run(_systemctl(where) + ["daemon-reload"], say)
    say(f"kept {where.config} and the journal in {where.data_dir}")


def status(where: Places) -> list[tuple[str, str]]:
    """(what, its state) for the unit, the rule and the board's device name."""
    rows = [("unit", str(where.unit) if where.unit.exists() else "not installed")]
    if where.rule is not None:
        rows.append(("udev rule", str(where.rule) if where.rule.exists() else "not installed"))
    if shutil.which("systemctl") and Path("/run/systemd/system").exists():
        for verb in ("is-enabled", "is-active"):
            done = subprocess.run(_systemctl(where) + [verb, UNIT], capture_output=True, text=True)
            rows.append((verb[3:], done.stdout.strip() or done.stderr.strip()))
    else:
        rows.append(("systemd", "not running on this machine"))
    device = Path(BOARD_DEVICE)
    rows.append((BOARD_DEVICE, f"-> {device.resolve()}" if device.exists() else "no board plugged in"))
    rows.append(("logs", "journalctl " + ("--user-unit" if where.scope == "user" else "-u")
                 + " botboard -n 50"))
    return rows


def _systemctl(where: Places) -> list[str]:
    return ["systemctl"] + (["--user"] if where.scope == "user" else [])


def _activation(where: Places) -> list[list[str]]:
    commands = [_systemctl(where) + ["daemon-reload"], _systemctl(where) + ["enable", "--now", UNIT]]
    if where.rule is not None:
        commands += [["udevadm", "control", "--reload-rules"],
                     ["udevadm", "trigger", "--subsystem-match=tty", "--action=add"]]
    else:
        commands.append(["loginctl", "enable-linger", where.user])
    return commands


def _write(path: Path, text: str, say: Say, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    say(f"wrote {path}")


def _run(command: list[str], say: Say, check: bool = True) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        done = None
    if done is not None and done.returncode == 0:
        say("ran " + " ".join(command))
        return
    why = "not found" if done is None else (done.stderr.strip() or f"exit {done.returncode}")
    if check:
        raise ServiceError(f"{' '.join(command)} failed ({why}); the files are in place: run it by hand")
    say(f"{' '.join(command)}: {why}")
