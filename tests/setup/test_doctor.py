"""botboard doctor: every check has a case it passes and one it fails, with the fix named."""

from __future__ import annotations

import importlib.metadata
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path


from bbshared import messages as m
from botboard import doctor
from botboard.board.sim import SimBoard
from ..patience import scaled

PROBLEM, OK = doctor.PROBLEM, doctor.OK


def _levels(findings: list[doctor.Finding]) -> list[str]:
    return [f.level for f in findings]


def test_python_version() -> None:
    assert _levels(doctor.python_version((3, 11, 7))) == [OK]
    old = doctor.python_version((3, 9, 2))
    assert _levels(old) == [PROBLEM] and "3.11" in old[0].fix


def test_packages_at_their_pins() -> None:
    installed = {"pyserial": "3.5", "starlette": "1.10.0"}
    reqs = ["pyserial==3.5", "starlette==1.10.0", "pytest==9.2.0; extra == \"test\""]
    assert _levels(doctor.packages(reqs, installed.__getitem__)) == [OK]
    installed["starlette"] = "0.9"
    wrong = doctor.packages(reqs + ["rich==15.0.0"], lambda n: _lookup(installed, n))
    assert _levels(wrong) == [PROBLEM]
    assert "starlette 0.9 (botboard pins 1.10.0)" in wrong[0].detail and "rich missing" in wrong[0].detail
    assert "pip install" in wrong[0].fix
    assert _levels(doctor.packages()) == [OK]  # this environment, as installed


def _lookup(installed: dict[str, str], name: str) -> str:
    if name not in installed:
        raise importlib.metadata.PackageNotFoundError(name)
    return installed[name]


def test_serial_permissions(tmp_path: Path) -> None:
    picos = [("/dev/ttyACM0", "E661")]
    assert _levels(doctor.serial_ports(picos, "pi", can_open=lambda p: True)) == [OK]
    refused = doctor.serial_ports(picos, "pi", can_open=lambda p: False, in_group=lambda u, g: False)
    assert _levels(refused) == [PROBLEM]
    assert "not in the dialout group" in refused[0].detail
    assert "sudo usermod -aG dialout pi" in refused[0].fix
    assert _levels(doctor.serial_ports([], "pi")) == ["note"]  # no board: the simulated one


def test_board_firmware_and_protocol_against_the_host() -> None:
    host = doctor.host_firmware_version()
    hello = {"protocol": m.PROTOCOL_VERSION, "firmware": host, "layout": "ttb-small"}
    assert _levels(doctor.board_info(hello, "", host, m.PROTOCOL_VERSION, "/dev/botboard")) == [OK]
    old = doctor.board_info(dict(hello, protocol=1), "", host, m.PROTOCOL_VERSION, "/dev/botboard")
    assert _levels(old) == [PROBLEM] and old[0].fix == "botboard deploy --port /dev/botboard"
    stale = doctor.board_info(dict(hello, firmware="0.0.1"), "", host, m.PROTOCOL_VERSION, "/dev/ttyACM0")
    assert _levels(stale) == [PROBLEM] and "0.0.1" in stale[0].detail


def test_a_real_handshake_with_the_simulated_board_and_a_silent_port() -> None:
    sim = SimBoard("ttb-small")
    sim.start()
    try:
        info, error = doctor.handshake(sim.port, timeout=scaled(10))
    finally:
        sim.stop()
    assert error == "" and info == {"protocol": m.PROTOCOL_VERSION, "firmware": doctor.host_firmware_version(),
                                    "layout": "ttb-small"}
    import os
    import pty

    master, slave = pty.openpty()  # a port where nothing answers
    try:
        info, error = doctor.handshake(os.ttyname(slave), timeout=scaled(0.5))
        assert info is None and error
        found = doctor.board_info(info, error, "0.1.0", m.PROTOCOL_VERSION, os.ttyname(slave))
        assert _levels(found) == [PROBLEM] and "botboard deploy" in found[0].fix
    finally:
        os.close(master)
        os.close(slave)


def test_a_path_that_is_no_serial_port_is_not_offered_to_deploy(tmp_path: Path) -> None:
    info, error = doctor.handshake("/etc/passwd", timeout=scaled(0.5))
    found = doctor.board_info(info, error, "0.1.0", m.PROTOCOL_VERSION, "/etc/passwd")
    assert _levels(found) == [PROBLEM] and "deploy" not in found[0].fix
    assert "/etc/passwd is not a serial port" in found[0].detail and "--port" in found[0].fix


def test_a_settings_file_with_secrets_readable_by_others_is_a_problem_with_its_fix(tmp_path: Path) -> None:
    path = tmp_path / "botboard.toml"
    path.write_text('game = "volt"\n')
    path.chmod(0o644)
    assert doctor.settings_file(path) == []  # nothing secret in it
    for secret in ('token = "a-long-random-token"', 'remote = "mqtt://kitchen:pw@broker/club"',
                   'room_key = "tea at five"'):
        path.write_text(secret + "\n")
        path.chmod(0o644)
        found = doctor.settings_file(path)
        assert _levels(found) == [PROBLEM] and found[0].fix == f"chmod 600 {path}"
        assert "mode 644" in found[0].detail
        path.chmod(0o600)
        assert _levels(doctor.settings_file(path)) == [OK]
    path.write_text('remote = "mqtt://broker/club"\n')  # no password, no key
    path.chmod(0o644)
    assert doctor.settings_file(path) == []


def test_data_directory_and_journal(tmp_path: Path) -> None:
    assert _levels(doctor.data_dir(tmp_path / "new")) == [OK]
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "botboard.sqlite").write_bytes(b"this is not a database" * 100)
    found = doctor.data_dir(damaged)
    assert _levels(found)[-1] == PROBLEM and "--new-journal" in found[-1].fix
    good = tmp_path / "good"
    good.mkdir(mode=0o700)
    good.chmod(0o700)  # the journal's folder is its owner's (test_secrets_at_rest.py)
    sqlite3.connect(good / "botboard.sqlite").close()
    (good / "botboard.sqlite").chmod(0o600)
    assert _levels(doctor.data_dir(good)) == [OK]
    good.chmod(0o755)
    assert _levels(doctor.data_dir(good)) == [PROBLEM, OK]


def test_data_directory_not_writable(tmp_path: Path) -> None:
    found = doctor.data_dir(Path("/proc/botboard/var"))  # nobody, root included, can write there
    assert _levels(found) == [PROBLEM] and "data_dir" in found[0].fix


def test_console_port_free_taken_or_held_by_botboard() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert _levels(doctor.console_port("127.0.0.1", port, lambda: False)) == [OK]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        other = doctor.console_port("127.0.0.1", port, lambda: False)
        assert _levels(other) == [PROBLEM] and f"--console-port {port + 1}" in other[0].fix
        assert _levels(doctor.console_port("127.0.0.1", port, lambda: True)) == [OK]
        assert doctor.console_status("127.0.0.1", port, None) == (False, None)  # not botboard's answer


def test_addresses_phones_would_open() -> None:
    local = doctor.lan_addresses("127.0.0.1", None, 8700, ["192.168.1.20"])
    assert _levels(local) == ["note"] and "0.0.0.0" in local[0].fix
    lan = doctor.lan_addresses("0.0.0.0", "abc", 8700, ["192.168.1.20"])
    assert _levels(lan) == [OK] and "http://192.168.1.20:8700/?token=abc" in lan[0].detail
    assert _levels(doctor.lan_addresses("0.0.0.0", "abc", 8700, [])) == [PROBLEM]


def test_doctor_command_reports_and_sets_its_exit_status(tmp_path: Path) -> None:
    damaged = tmp_path / "var"
    damaged.mkdir()
    (damaged / "botboard.sqlite").write_bytes(b"x" * 4096)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    bad = subprocess.run([sys.executable, "-m", "botboard", "doctor", "--data-dir", str(damaged),
                          "--console-port", "0"], capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 1 and "PROBLEM data" in bad.stdout and "fix: botboard run --new-journal" in bad.stdout
    good = subprocess.run([sys.executable, "-m", "botboard", "doctor", "--data-dir", str(tmp_path / "new"),
                           "--console-port", "0"], capture_output=True, text=True, env=env, timeout=60)
    assert good.returncode == 0, good.stdout
    assert "ok      python" in good.stdout


def test_the_room_broker_answers_or_not() -> None:
    assert doctor.broker(None) == []
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert _levels(doctor.broker(f"mqtt://127.0.0.1:{port}/club")) == [OK]
    closed = doctor.broker(f"mqtt://127.0.0.1:{port}/club", timeout=scaled(0.5))
    assert _levels(closed) == [PROBLEM] and "mosquitto" in closed[0].fix
    assert _levels(doctor.broker("http://x/club")) == [PROBLEM]
