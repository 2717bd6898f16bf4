"""run --remote: which part a table plays, and clear words for flags that do not say one."""

from __future__ import annotations

import pytest

from botboard.daemon import ConfigError, DaemonConfig, remote_role

URL = "mqtt://broker.local/club"


def test_the_table_that_gives_players_hosts_the_others_join() -> None:
    assert remote_role(DaemonConfig(remote=URL, players=2, seats=(0,)))[1] == "host"
    assert remote_role(DaemonConfig(remote=URL, seats=(1,)))[1] == "join"
    assert remote_role(DaemonConfig(remote=URL, spectate=True))[1] == "spectate"
    assert remote_role(DaemonConfig(remote=URL, players=2, computers={1: "search"}))[1] == "host"
    assert remote_role(DaemonConfig()) == (None, None)


@pytest.mark.parametrize("config, words", [
    (DaemonConfig(remote=URL), "--seat N"),
    (DaemonConfig(remote=URL, players=2, seats=(2,)), "--seat 3: a 2-player game has seats 1 to 2"),
    (DaemonConfig(remote="http://broker/club", seats=(0,)), "--remote"),
    (DaemonConfig(remote="mqtt://broker/", seats=(0,)), "--remote"),
    (DaemonConfig(seats=(0,)), "give --remote"),
])
def test_flags_that_say_no_part_are_refused_in_words(config: DaemonConfig, words: str) -> None:
    with pytest.raises(ConfigError, match=None) as err:
        remote_role(config)
    assert words in str(err.value)


def test_the_room_key_comes_from_the_link_and_a_host_makes_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from botboard.remote.table_keys import RoomKeyError, identity, with_room_key
    from botboard.remote.url import parse_remote_url

    url = parse_remote_url(URL)
    host = "A" * 22  # the host's fingerprint, after the key
    assert with_room_key(parse_remote_url(f"{URL}#k3y.{host}"), None, False, tmp_path).key == "k3y"
    assert with_room_key(parse_remote_url(f"{URL}#k3y.{host}"), None, False, tmp_path).host_key == host
    with pytest.raises(RoomKeyError, match="older botboard .* get a new link from the host table"):
        with_room_key(parse_remote_url(URL + "#k3y"), None, False, tmp_path)  # a link of before
    with pytest.raises(RoomKeyError, match="no key after '#': copy the whole link"):
        with_room_key(url, None, False, tmp_path)
    made = with_room_key(url, None, True, tmp_path)
    assert made.key and len(made.key) >= 22 and with_room_key(url, None, True, tmp_path).key == made.key
    assert (tmp_path / "room-club.key").stat().st_mode & 0o777 == 0o600  # the host's restart keeps it
    keys = tmp_path / "room-club.keys"
    assert identity(keys).public == identity(keys).public and keys.stat().st_mode & 0o777 == 0o600
    keys.write_text("not keys")
    with pytest.raises(RoomKeyError, match="not a table's keys"):
        identity(keys)


@pytest.mark.parametrize("hosting", [True, False])
@pytest.mark.parametrize("link", [URL, URL + "#k3y." + "A" * 22])
def test_a_spoken_passphrase_is_refused_in_one_line_that_points_to_the_link(
        tmp_path, hosting: bool, link: str) -> None:  # type: ignore[no-untyped-def]
    """Issue 42, item 8: a passphrase let anyone holding one recorded message test a dictionary
    offline (scrypt only slows each guess). No maintained PAKE library on PyPI fits, so
    passphrases are gone: whatever else is given, one is refused, and nothing is made."""
    from botboard.remote.table_keys import RoomKeyError, with_room_key
    from botboard.remote.url import parse_remote_url

    with pytest.raises(RoomKeyError) as err:
        with_room_key(parse_remote_url(link), "tea at five", hosting, tmp_path)
    words = str(err.value)
    assert "\n" not in words and "--room-key" in words and "link" in words and "QR code" in words
    assert list(tmp_path.iterdir()) == []  # no room key or keys file made for it


def test_run_with_a_passphrase_stops_with_that_line_and_no_traceback(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "botboard", "run", "--game", "botwars", "--seat", "2",
                           "--remote", "mqtt://127.0.0.1:9/club", "--room-key", "tea at five",
                           "--table", "attic", "--data-dir", str(tmp_path / "data")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout
    lines = [line for line in done.stderr.splitlines() if "room-key" in line]
    assert len(lines) == 1 and "give the room's link with --remote" in lines[0], done.stderr
