"""Secrets at rest (docs/journal.md, "Secrets at rest"): under umask 022 every file botboard
writes that holds a hand, a key, a token or a password is 0600 in a 0700 folder; the room's
link is shown at a terminal and on the console, never in a service's output; `config` shows no
password and no key whole, and garbles no host or room; doctor says what is too open."""

from __future__ import annotations

import contextlib
import io
import json
import tomllib
import os
import signal
import subprocess
import urllib.request
from pathlib import Path
from urllib.parse import quote

from hypothesis import given, settings
from hypothesis import strategies as st

from botboard import doctor, service
from botboard.cli import main
from botboard.remote.url import hidden, parse_remote_url
from botboard.remote.local_broker import free_port

from ..patience import scaled
from ..simboard import BOTBOARD

RESERVED = ":/?#[]@!$&'()*+,;=%"  # RFC 3986's reserved characters, and the escape itself


def _umask_022() -> None:
    os.umask(0o022)


def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_under_umask_022_the_journal_room_record_keys_and_settings_are_their_owners_only(tmp_path: Path) -> None:
    data, config = tmp_path / "var" / "data", tmp_path / "etc" / "botboard.toml"
    env = {k: v for k, v in os.environ.items() if k != "BOTBOARD_CONFIG"}
    env.update(XDG_CONFIG_HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"))
    broker = f"mqtt://kitchen:tea%40five@127.0.0.1:{free_port()}/club"  # nobody answers there
    done = subprocess.run([BOTBOARD, "config", "--init", str(config), "--remote", broker, "--token", "auto"],
                          capture_output=True, text=True, env=env, preexec_fn=_umask_022, timeout=scaled(60))
    assert done.returncode == 0, done.stderr
    proc = subprocess.Popen([BOTBOARD, "run", "--config", str(config), "--data-dir", str(data), "--players", "2",
                             "--seat", "1", "--console-port", "0", "--listen", "127.0.0.1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=_umask_022, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        url = lines[1].split()[1]  # under a pipe: the address without its token
        token = tomllib.loads(config.read_text())["token"]  # the one configured
        with urllib.request.urlopen(f"{url}api/room?token={token}", timeout=scaled(10)) as reply:
            room = json.load(reply)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=scaled(30))
    key = (data / "room-club.key").read_text().strip()
    assert room["hosting"] and f"/club#{key}." in room["link"] and room["qr"].startswith("data:image/svg+xml")
    said = "".join(lines) + out + err
    assert token not in said and key not in said and "tea@five" not in said and "tea%40five" not in said, said
    assert "the console's Room panel" in lines[2]
    assert _mode(data) == 0o700 and _mode(config) == 0o600
    for name in ("botboard.sqlite", "room-club.sqlite", "room-club.key", "room-club.keys"):
        assert _mode(data / name) == 0o600, name
    for side in data.glob("*-wal"):  # SQLite gives them the mode of their database
        assert _mode(side) == 0o600, side


def test_at_a_terminal_the_host_shows_its_room_link_and_its_qr_code(capsys) -> None:  # type: ignore[no-untyped-def]
    from botboard.cli.run import _show_room_link

    url = parse_remote_url("mqtt://ann:pw@broker.local/club#Xq2V9rTz0cWmK1pLd3s8aA")
    _show_room_link(url, terminal=True)
    shown = capsys.readouterr().out
    assert "--remote 'mqtt://ann@broker.local:1883/club#Xq2V9rTz0cWmK1pLd3s8aA'" in shown
    assert ":pw@" not in shown  # the link has no password
    assert shown.count("\n") > 15  # the QR code's rows
    _show_room_link(url, terminal=False)
    shown = capsys.readouterr().out
    assert "Xq2V" not in shown and shown.count("\n") == 1


def test_at_a_terminal_run_shows_the_console_address_with_its_token(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from botboard.cli.run import _show_console
    from botboard.daemon import Daemon, DaemonConfig

    daemon = Daemon(DaemonConfig(listen="0.0.0.0", token="auto", console_port=8799, data_dir=str(tmp_path)))
    _show_console(daemon, terminal=True)
    shown = capsys.readouterr().out
    assert shown.startswith("console: http://") and shown.rstrip().endswith(f":8799/?token={daemon.token}")
    assert not (tmp_path / "console-token").exists()  # a person read it off the screen
    _show_console(daemon, terminal=False)
    shown = capsys.readouterr().out
    assert daemon.token not in shown and shown.count("\n") == 1
    assert (tmp_path / "console-token").read_text().strip() == daemon.token
    assert _mode(tmp_path / "console-token") == 0o600


_TEXT = st.text(st.sampled_from(RESERVED + "aZ9-._~ é"), min_size=1, max_size=24)
_NAME = st.text(st.sampled_from("abcdefgh-0123"), min_size=1, max_size=12)


@settings(max_examples=20, deadline=None)
@given(password=_TEXT, key=_TEXT, host=_NAME, room=_NAME, same=st.sampled_from(["", "host", "room"]))
def test_config_masks_passwords_and_keys_with_reserved_characters_and_keeps_host_and_room(
        password: str, key: str, host: str, room: str, same: str) -> None:
    host = password if same == "host" and password.isalnum() else host  # the old replace garbled these
    room = password if same == "room" and password.isalnum() else room
    link = f"mqtt://ann:{quote(password, safe='')}@{host}/{room}#{quote(key, safe='')}"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["config", "--config", os.devnull, "--remote", link, "--json"]) == 0
    shown = json.loads(out.getvalue())["settings"]["remote"]["value"]
    assert shown == f"mqtt://ann:...@{host}/{room}#{hidden(key)}"


def test_a_broker_host_with_a_space_or_control_character_is_refused_before_anything_starts(tmp_path: Path) -> None:
    for link in ("mqtt://ho st/club#k", "mqtt://ho\tst/club#k", "mqtt://host\x7f/club#k"):
        done = subprocess.run([BOTBOARD, "run", "--config", os.devnull, "--data-dir", str(tmp_path), "--players",
                               "2", "--seat", "1", "--remote", link], capture_output=True, text=True,
                              timeout=scaled(60), stdin=subprocess.DEVNULL)
        assert done.returncode == 2 and "space or control character" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "botboard.sqlite").exists()


def test_the_unit_keeps_its_state_directory_and_files_to_its_user() -> None:
    for scope in ("system", "user"):
        text = service.unit_text(service.places(scope, Path("/"), user="root"), "/usr/bin/botboard")
        assert "UMask=0077" in text
        assert ("StateDirectoryMode=0700" in text) == (scope == "system")


def test_doctor_names_a_data_directory_and_secret_files_others_can_read(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    for name in ("botboard.sqlite", "room-club.key", "tiles.json"):
        (data / name).write_text("")
        (data / name).chmod(0o644)
    found = doctor.secret_files(data)
    assert [f.fix for f in found] == [f"chmod 700 {data}",
                                      f"chmod 600 {data / 'botboard.sqlite'} {data / 'room-club.key'}"]
    data.chmod(0o700)
    for name in ("botboard.sqlite", "room-club.key"):
        (data / name).chmod(0o600)
    assert doctor.secret_files(data) == []


def test_a_journal_an_older_botboard_left_open_is_narrowed_when_a_table_opens_it(tmp_path: Path) -> None:
    from botboard.session.host import open_journal
    from botboard.session.journal import Journal

    path = tmp_path / "botboard.sqlite"
    Journal(path).close()
    path.chmod(0o644)  # as botboard before issue 41 left it under umask 022
    open_journal(tmp_path).close()  # a look (`games`, `replay`) changes nothing
    assert _mode(path) == 0o644
    Journal(path).close()  # the table's own
    assert _mode(path) == 0o600
