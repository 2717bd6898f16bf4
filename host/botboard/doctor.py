"""``botboard doctor``: what stands between this machine and a table that plays.

Each check looks at one thing (Python, the packages, the serial ports and their
permissions, the board's firmware, the data directory and its journal, the console's
port, the addresses phones would use) and returns findings; a problem carries the
command that fixes it. Checks take what they look at as arguments, so each can be
shown passing and failing.
"""

from __future__ import annotations

import asyncio
import errno
import grp
import importlib.metadata
import os
import pwd
import re
import socket
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

OK, NOTE, PROBLEM = "ok", "note", "problem"


@dataclass(frozen=True)
class Finding:
    check: str
    level: str  # ok, note (worth knowing) or problem (the table will not work as meant)
    detail: str
    fix: str = ""  # the command (or the setting) that puts a problem right


def python_version(version: tuple[int, ...] = tuple(sys.version_info[:3])) -> list[Finding]:
    shown = ".".join(map(str, version))
    if version >= (3, 11):
        return [Finding("python", OK, f"Python {shown}")]
    return [Finding("python", PROBLEM, f"Python {shown}: botboard needs 3.11 or newer",
                    "install Python 3.11 (Debian 12: apt install python3) and reinstall botboard with it")]


def packages(requirements: Iterable[str] | None = None,
             installed: Callable[[str], str] = importlib.metadata.version) -> list[Finding]:
    """Every pinned dependency at its pinned version."""
    reqs = requirements if requirements is not None else importlib.metadata.requires("botboard") or []
    wrong = []
    for req in reqs:
        pin = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*==\s*([^;\s]+)\s*", req)
        if not pin:  # extras (tests) carry a marker: not needed to run a table
            continue
        name, wanted = pin.groups()
        try:
            have = installed(name)
        except importlib.metadata.PackageNotFoundError:
            have = "missing"
        if have != wanted:
            wrong.append(f"{name} {have} (botboard pins {wanted})")
    if not wrong:
        return [Finding("packages", OK, "every pinned package at its version")]
    return [Finding("packages", PROBLEM, "; ".join(wrong),
                    "pip install --force-reinstall botboard (from a checkout: bash .ci/setup)")]


def serial_ports(picos: list[tuple[str, str | None]], user: str,
                 can_open: Callable[[str], bool] = lambda p: os.access(p, os.R_OK | os.W_OK),
                 in_group: Callable[[str, str], bool] | None = None) -> list[Finding]:
    """Picos plugged in, and whether this user may open them."""
    in_group = in_group or _in_group
    if not picos:
        return [Finding("serial", NOTE, "no board plugged in (a Pico running MicroPython, USB 2e8a:0005): "
                        "botboard run starts the simulated board",
                        "plug the board in; if it is plugged in, flash MicroPython (docs/flashing.md)")]
    findings = []
    for device, serial in picos:
        if can_open(device):
            findings.append(Finding("serial", OK, f"board on {device} (USB serial {serial}), readable"))
            continue
        fix = (f"sudo usermod -aG dialout {user}, then log out and in again (or botboard service install, "
               "whose service runs in the dialout group)")
        why = "" if in_group(user, "dialout") else f": {user} is not in the dialout group"
        findings.append(Finding("serial", PROBLEM, f"cannot open {device}{why}", fix))
    return findings


def _in_group(user: str, group: str) -> bool:
    try:
        members = grp.getgrnam(group)
        return user in members.gr_mem or pwd.getpwnam(user).pw_gid == members.gr_gid
    except KeyError:
        return False


def board_info(info: dict[str, Any] | None, error: str, host_firmware: str, host_protocol: int,
               port: str) -> list[Finding]:
    """Findings from a board's HELLO (``info``) or the error that stopped the handshake."""
    if info is None and not _serial_device(port):
        return [Finding("board", PROBLEM, f"{port} is not a serial port: a board is on /dev/ttyACM0 or "
                        "similar", "give the board's port with --port (or port in the settings file); "
                        "ls /dev/serial/by-id/ lists the plugged-in boards")]
    if info is None:
        return [Finding("board", PROBLEM, f"no handshake with the board on {port}: {error}",
                        f"botboard deploy --port {port} (installs the firmware); unplug and plug the "
                        "board if it stays silent")]
    if info["protocol"] != host_protocol:
        return [Finding("board", PROBLEM, f"the board on {port} speaks protocol {info['protocol']}, this "
                        f"host {host_protocol}", f"botboard deploy --port {port}")]
    if info["firmware"] != host_firmware:
        return [Finding("board", PROBLEM, f"the board on {port} runs firmware {info['firmware']}, this "
                        f"host carries {host_firmware}", f"botboard deploy --port {port}")]
    return [Finding("board", OK, f"board on {port}: firmware {info['firmware']}, protocol "
                    f"{info['protocol']}, layout {info['layout']}")]


def _serial_device(port: str) -> bool:
    """A character device (a tty, a pty), or a pyserial URL such as socket://, which is tried."""
    if "://" in port:
        return True
    try:
        return stat.S_ISCHR(os.stat(port).st_mode)
    except OSError:
        return False


def handshake(port: str, timeout: float = 3.0) -> tuple[dict[str, Any] | None, str]:
    """(the board's HELLO as a dict, or None and why)."""
    from .link.connection import BoardConnection, HandshakeError
    from .link.transport import PortError

    async def hello() -> dict[str, Any]:
        conn = BoardConnection(port)
        try:
            info = await conn.connect(timeout)
            return {"protocol": info.protocol, "firmware": info.firmware, "layout": info.layout}
        finally:
            conn.close()

    try:
        return asyncio.run(hello()), ""
    except (PortError, HandshakeError, OSError) as err:
        return None, str(err)
    except asyncio.TimeoutError:
        return None, f"no answer within {timeout:g} s"


def data_dir(folder: Path) -> list[Finding]:
    """The data directory can be written and its journal opens."""
    from .session.journal import Journal, JournalError

    probe = folder
    while not probe.exists():
        probe = probe.parent
    if not _can_write_in(probe):
        return [Finding("data", PROBLEM, f"{folder} cannot be written by this user",
                        f"give a data_dir you own (botboard config --init --data-dir DIR), or chown {probe}")]
    if not folder.exists():
        return [Finding("data", OK, f"{folder} will be made at the first game (readable by this user only)")]
    found = secret_files(folder)  # before the journal opens: opening it narrows its mode
    try:
        Journal.in_dir(folder).close()
    except JournalError as err:
        return found + [Finding("data", PROBLEM, f"journal: {err}",
                                "botboard run --new-journal (a new journal beside the old one, which stays)")]
    return found + [Finding("data", OK, f"{folder}: the journal opens")]


SECRET_FILES = ("botboard*.sqlite", "room-*.sqlite", "room-*.key", "room-*.keys")  # hands, seeds, keys


def secret_files(folder: Path) -> list[Finding]:
    """The data directory and the files in it that hold hands, seeds and keys are its owner's
    only (docs/journal.md, "Secrets at rest")."""
    from .private import too_open

    found = []
    if too_open(folder):
        found.append(Finding("data", PROBLEM, f"{folder} holds the journal (every seat's hand) and "
                             f"room keys, and other users can open it (mode {folder.stat().st_mode & 0o777:o})",
                             f"chmod 700 {folder}"))
    wide = sorted(str(p) for pattern in SECRET_FILES for p in folder.glob(pattern) if too_open(p))
    if wide:
        found.append(Finding("data", PROBLEM, f"other users can read {', '.join(wide)} (hands, seeds "
                             "or keys)", f"chmod 600 {' '.join(wide)}"))
    return found


def console_port(listen: str, port: int, botboard_there: Callable[[], bool]) -> list[Finding]:
    """The console's port is free, or held by a botboard console already running."""
    family = socket.AF_INET6 if ":" in listen else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((listen, port))
            return [Finding("console", OK, f"port {port} on {listen} is free")]
        except OSError as err:
            if err.errno != errno.EADDRINUSE:
                return [Finding("console", PROBLEM, f"cannot listen on {listen}:{port} ({err.strerror})",
                                "set listen to an address of this machine (botboard config)")]
    if botboard_there():
        return [Finding("console", OK, f"a botboard console is running on port {port}")]
    return [Finding("console", PROBLEM, f"port {port} is taken by another program",
                    f"botboard run --console-port {port + 1} (or console_port in the settings file)")]


def _can_write_in(folder: Path) -> bool:
    """Writing a file there works (permissions alone do not tell: root, read-only mounts)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def console_status(listen: str, port: int, token: str | None) -> tuple[bool, dict[str, Any] | None]:
    """(whether a botboard console answers on the port, its status if the token opens it)."""
    import json
    import urllib.error
    import urllib.request

    host = "127.0.0.1" if listen in ("0.0.0.0", "::", "") else listen
    request = urllib.request.Request(f"http://{host}:{port}/api/status",
                                     headers={"authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=2) as reply:
            status = json.loads(reply.read())
            return "game" in status and "link" in status, status
    except urllib.error.HTTPError as err:  # a botboard console refuses without its token, in JSON
        return err.code in (401, 421) and b'"error"' in err.read(512), None
    except (OSError, ValueError):
        return False, None


def lan_addresses(listen: str, token: str | None, port: int, addresses: list[str]) -> list[Finding]:
    """The addresses phones at the table would open, or why they cannot."""
    from .daemon import is_loopback

    if is_loopback(listen):
        return [Finding("phones", NOTE, f"the console listens on {listen} only: phones cannot reach it",
                        "set listen = \"0.0.0.0\" and a token in the settings file (botboard config "
                        "--init --listen 0.0.0.0 --token auto), or botboard service install")]
    if not addresses:
        return [Finding("phones", PROBLEM, "this machine has no network address besides loopback",
                        "connect it to the table's Wi-Fi or LAN")]
    query = f"?token={token}" if token and token != "auto" else ""
    shown = ", ".join(f"http://{a}:{port}/{query}" for a in addresses)
    return [Finding("phones", OK, f"phones on the same network open {shown}")]


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback."""
    found = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # sends nothing: picks the outgoing interface
            found.add(probe.getsockname()[0])
        except OSError:
            pass
    return sorted(a for a in found if not a.startswith("127."))


def broker(remote: str | None, timeout: float = 3.0) -> list[Finding]:
    """The room's broker answers on its port (remote play)."""
    if not remote:
        return []
    from .remote.url import RemoteUrlError, parse_remote_url

    try:
        url = parse_remote_url(remote)
    except RemoteUrlError as err:
        return [Finding("remote", PROBLEM, f"remote = {remote!r}: {err}",
                        "remote = \"mqtt://HOST/ROOM\" in the settings file (docs/remote-play.md)")]
    try:
        socket.create_connection((url.host, url.port), timeout=timeout).close()
    except OSError as err:
        return [Finding("remote", PROBLEM, f"the broker {url.host}:{url.port} does not answer ({err})",
                        "start the broker (sudo systemctl start mosquitto) or check the room's address")]
    return [Finding("remote", OK, f"the broker {url.host}:{url.port} answers (room {url.room})")]


def settings_file(path: Path | None) -> list[Finding]:
    """A settings file that holds a secret (the console's token, a broker password, a room key)
    is readable by its owner only."""
    from .settings import SettingsError, load_file, secret_parts

    if path is None or not path.is_file():
        return []
    try:
        held = [key for key, value in load_file(path).items() if secret_parts(key, value)]
    except SettingsError:
        return []  # `botboard run` says what is wrong with it
    if not held:
        return []
    mode = path.stat().st_mode & 0o777
    words = " and ".join({"token": "the console's token", "room_key": "the room key",
                          "remote": "a broker password or room key"}[key] for key in held)
    if mode & 0o077:
        return [Finding("settings", PROBLEM, f"{path} holds {words} and other users can read it "
                        f"(mode {mode:o})", f"chmod 600 {path}")]
    return [Finding("settings", OK, f"{path} holds {words}, readable by its owner only")]


def host_firmware_version() -> str:
    """The firmware version this host carries (what `botboard deploy` would install)."""
    from .board import firmware_build

    return firmware_build.version()


def service_files() -> list[Finding]:
    from . import service

    installed = [p for p in (service.places("system").unit, service.places("user").unit) if p.exists()]
    if installed:
        return [Finding("service", OK, f"installed: {installed[0]} (botboard service status)")]
    return [Finding("service", NOTE, "not installed: the table starts only when someone types botboard run",
                    "sudo botboard service install (docs/table-setup.md)")]


def examine(values: dict[str, Any]) -> list[Finding]:
    """Every check, for the settings `botboard run` would use."""
    from bbshared import messages as m
    from .resources import DEFAULT_DATA_DIR
    from .service import plugged_picos

    user = pwd.getpwuid(os.getuid()).pw_name
    listen, port, token = values["listen"], values["console_port"], values["token"]
    running, status = console_status(listen, port, token)
    findings = python_version() + packages()
    picos = plugged_picos()
    findings += serial_ports(picos, user)
    link = (status or {}).get("link") or {}
    if link.get("board") and not (status or {}).get("simulated"):  # the running daemon has the board
        findings += board_info(link["board"], "", host_firmware_version(), m.PROTOCOL_VERSION, link["port"])
    elif values["port"] or picos:
        board_port = values["port"] or picos[0][0]
        info, error = handshake(board_port)
        findings += board_info(info, error, host_firmware_version(), m.PROTOCOL_VERSION, board_port)
    findings += data_dir(Path(values["data_dir"]) if values["data_dir"] else DEFAULT_DATA_DIR)
    findings += console_port(listen, port, lambda: running)
    findings += lan_addresses(listen, token, port, local_addresses())
    findings += broker(values.get("remote"))
    findings += service_files()
    return findings
