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


def test_the_room_key_comes_from_the_link_or_the_passphrase_and_a_host_makes_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from botboard.remote.table_keys import RoomKeyError, identity, with_room_key
    from botboard.remote.url import parse_remote_url

    url = parse_remote_url(URL)
    host = "A" * 22  # the host's fingerprint, after the key
    assert with_room_key(parse_remote_url(f"{URL}#k3y.{host}"), None, False, tmp_path).key == "k3y"
    assert with_room_key(parse_remote_url(f"{URL}#k3y.{host}"), None, False, tmp_path).host_key == host
    with pytest.raises(RoomKeyError, match="older botboard .* get a new link from the host table"):
        with_room_key(parse_remote_url(URL + "#k3y"), None, False, tmp_path)  # a link of before
    assert with_room_key(url, "tea at five", False, tmp_path).key == "tea at five"
    with pytest.raises(RoomKeyError, match="no key after '#': copy the whole link"):
        with_room_key(url, None, False, tmp_path)
    with pytest.raises(RoomKeyError, match="two different room keys"):
        with_room_key(parse_remote_url(URL + "#k3y"), "other", True, tmp_path)
    made = with_room_key(url, None, True, tmp_path)
    assert made.key and len(made.key) >= 22 and with_room_key(url, None, True, tmp_path).key == made.key
    assert (tmp_path / "room-club.key").stat().st_mode & 0o777 == 0o600  # the host's restart keeps it
    keys = tmp_path / "room-club.keys"
    assert identity(keys).public == identity(keys).public and keys.stat().st_mode & 0o777 == 0o600
    keys.write_text("not keys")
    with pytest.raises(RoomKeyError, match="not a table's keys"):
        identity(keys)
