"""botboard service: the unit passes systemd-analyze verify, the udev rule udev's syntax, and
install/uninstall write and remove exactly their files."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from botboard import service
from botboard.settings import load_file
from ..patience import scaled

SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
UDEVADM = shutil.which("udevadm")


def _install(root: Path, scope: str = "system", *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "botboard", "service", "install", "--scope", scope,
                           "--root", str(root), *flags], capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(root / "home")})


@pytest.mark.skipif(not SYSTEMD_ANALYZE, reason="systemd-analyze missing: bash .ci/setup --test installs it")
@pytest.mark.parametrize("scope", ["system", "user"])
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path, scope: str) -> None:
    where = service.places(scope, tmp_path, user="root")
    unit = tmp_path / service.UNIT
    unit.write_text(service.unit_text(where, service.botboard_command()))
    runtime = tmp_path / "run"  # a user manager needs its runtime directory
    runtime.mkdir(mode=0o700)
    done = subprocess.run([SYSTEMD_ANALYZE, "verify", *(["--user"] if scope == "user" else []), str(unit)],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": str(runtime)})
    assert done.returncode == 0, done.stderr
    assert "botboard.service" not in done.stderr  # no warning about the unit itself


def test_a_broken_unit_fails_the_same_check(tmp_path: Path) -> None:
    """The check above can fail: a unit whose command does not exist is refused."""
    if not SYSTEMD_ANALYZE:
        pytest.skip("systemd-analyze missing")
    where = service.places("system", tmp_path, user="root")
    unit = tmp_path / service.UNIT
    unit.write_text(service.unit_text(where, "/nonexistent/botboard"))
    done = subprocess.run([SYSTEMD_ANALYZE, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "nonexistent" in done.stderr


# udev rules syntax (udev(7)): KEY[{attr}]OP"value", comma separated; match keys compare with
# == or !=, assignment keys take = += -= :=
_MATCH = {"SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "KERNELS", "ACTION", "ATTR", "ATTRS", "ENV", "DRIVERS"}
_ASSIGN = {"SYMLINK", "GROUP", "MODE", "OWNER", "TAG", "ENV", "RUN"}
_PAIR = re.compile(r'^([A-Z]+)(\{[A-Za-z0-9_]+\})?(==|!=|\+=|-=|:=|=)"([^"]*)"$')


def _udev_pairs(rule: str) -> list[tuple[str, str, str, str]]:
    lines = [line for line in rule.splitlines() if line and not line.startswith("#")]
    assert len(lines) == 1
    pairs = []
    for item in lines[0].split(", "):
        found = _PAIR.match(item)
        assert found, f"not udev syntax: {item!r}"
        key, attr, op, value = found.groups()
        assert (key in _MATCH and op in ("==", "!=")) or (key in _ASSIGN and op in ("=", "+=", ":=")), item
        pairs.append((key, attr or "", op, value))
    return pairs


def test_the_udev_rule_names_the_pico_by_its_usb_identity() -> None:
    pairs = _udev_pairs(service.rule_text("E66164084373532B"))
    assert ("SUBSYSTEM", "", "==", "tty") in pairs
    assert ("ATTRS", "{idVendor}", "==", "2e8a") in pairs and ("ATTRS", "{idProduct}", "==", "0005") in pairs
    assert ("ATTRS", "{serial}", "==", "E66164084373532B") in pairs
    assert ("SYMLINK", "", "+=", "botboard") in pairs and ("GROUP", "", "=", "dialout") in pairs
    assert ("MODE", "", "=", "0660") in pairs
    assert not any(k == "ATTRS" and a == "{serial}" for k, a, _, _ in _udev_pairs(service.rule_text(None)))
    with pytest.raises(AssertionError):  # the checker catches a match written as an assignment
        _udev_pairs('SUBSYSTEM="tty", SYMLINK+="botboard"')


@pytest.mark.skipif(not UDEVADM, reason="udevadm missing")
def test_udevadm_reads_the_rule(tmp_path: Path) -> None:
    """systemd 253+ has `udevadm verify`; older udevadm still parses rules files when it tests
    a device, so the rule is given to whichever this machine has."""
    rule = tmp_path / service.RULE
    rule.write_text(service.rule_text("E661"))
    help_text = subprocess.run([UDEVADM, "--help"], capture_output=True, text=True).stdout
    if " verify " not in help_text:
        pytest.skip("this udevadm has no verify command (systemd < 253); the syntax test covers it")
    done = subprocess.run([UDEVADM, "verify", str(rule)], capture_output=True, text=True, timeout=scaled(30))
    assert done.returncode == 0, done.stdout + done.stderr


def test_install_writes_settings_unit_and_rule_then_uninstall_keeps_the_settings(tmp_path: Path) -> None:
    done = _install(tmp_path, "system", "--game", "botwars", "--players", "4")
    assert done.returncode == 0, done.stderr
    config = tmp_path / "etc/botboard/botboard.toml"
    unit = tmp_path / "etc/systemd/system/botboard.service"
    rule = tmp_path / "etc/udev/rules.d/99-botboard.rules"
    settings = load_file(config)
    assert settings["game"] == "botwars" and settings["players"] == 4
    assert settings["listen"] == "0.0.0.0" and len(settings["token"]) >= 16
    assert settings["data_dir"] == "/var/lib/botboard"
    assert config.stat().st_mode & 0o077 == 0  # the token is readable by the service's user only
    text = unit.read_text()
    assert "ExecStart=" in text and "run --config /etc/botboard/botboard.toml" in text
    assert "Restart=on-failure" in text and "WantedBy=multi-user.target" in text
    assert "SYMLINK+=\"botboard\"" in rule.read_text()
    assert "http://" in done.stdout and settings["token"] in done.stdout  # where phones go
    token = settings["token"]
    again = _install(tmp_path, "system")  # a second install keeps the settings (and the token)
    assert again.returncode == 0 and load_file(config)["token"] == token and "kept" in again.stdout
    gone = subprocess.run([sys.executable, "-m", "botboard", "service", "uninstall", "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert gone.returncode == 0, gone.stderr
    assert not unit.exists() and not rule.exists() and config.exists()


def test_user_scope_needs_no_udev_rule_and_says_lingering(tmp_path: Path) -> None:
    done = _install(tmp_path, "user")
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "etc").exists()
    units = list(tmp_path.rglob("systemd/user/botboard.service"))
    assert len(units) == 1 and "WantedBy=default.target" in units[0].read_text()
    assert "loginctl enable-linger" in done.stdout


def test_several_picos_without_a_serial_are_refused_with_the_choices() -> None:
    picos = [("/dev/ttyACM0", "AAA"), ("/dev/ttyACM1", "BBB")]
    with pytest.raises(service.ServiceError, match="ttyACM1 serial BBB.*--serial"):
        service.board_serial(None, picos)
    assert service.board_serial(None, picos[:1]) == "AAA"  # the one plugged in, not any Pico
    assert service.board_serial("BBB", picos) == "BBB"
    assert service.board_serial(None, []) is None
