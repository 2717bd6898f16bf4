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
