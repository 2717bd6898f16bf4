"""A real mosquitto on loopback for remote play's tests and `botboard bench remote`: its own
config, port and persistence in a temporary directory (the system's mosquitto service, if
any, plays no part)."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from botboard.patience import load_factor
from botboard.remote.link import MAX_PACKET
from botboard.remote.url import RemoteUrl

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
ROOM_KEY = "loopback room key"  # the rooms on this broker are the tests' and the bench's


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Broker:
    def __init__(self, directory: Path, *, users: dict[str, str] | None = None, acl: str | None = None,
                 max_packet: int | None = MAX_PACKET) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = directory / "mosquitto.log"
        lines = [f"listener {self.port} 127.0.0.1", "persistence true", "set_tcp_nodelay true",
                 f"persistence_location {directory}/", f"log_dest file {self.log}",
                 # run as root, mosquitto would switch to its own user and lose the temp directory
                 f"user {pwd.getpwuid(os.getuid()).pw_name}"]
        if max_packet is not None:  # as docs/remote-play.md configures a club's broker
            lines.append(f"max_packet_size {max_packet}")
        # a club's queue bounds (docs/remote-play.md, "A busy broker"): mosquitto's default count
        lines += ["max_queued_messages 1000"]
        if users is None:
            lines.append("allow_anonymous true")
        else:
            passwords = directory / "passwords"
            for i, (user, password) in enumerate(users.items()):
                create = ["-c"] if i == 0 else []
                subprocess.run([MOSQUITTO_PASSWD, *create, "-b", str(passwords), user, password],
                               check=True, capture_output=True)
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        if acl is not None:
            (directory / "acl").write_text(acl)
            lines.append(f"acl_file {directory / 'acl'}")
        self.config = directory / "mosquitto.conf"
        self.config.write_text("\n".join(lines) + "\n")

    def url(self, room: str = "club", user: str | None = None, password: str | None = None,
            key: str = ROOM_KEY) -> RemoteUrl:
        return RemoteUrl("127.0.0.1", self.port, room, username=user, password=password, key=key)

    def start(self) -> None:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10 * load_factor()  # slow to start on a busy machine, not broken
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.process.stderr.read().decode()}")  # type: ignore[union-attr]
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not open its port")

    def kill(self) -> None:
        """Stops the broker at once (SIGKILL): no goodbye to its clients, no last save."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
