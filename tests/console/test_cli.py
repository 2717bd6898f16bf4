"""`botboard status`, `trace` and `leds` against a running daemon, and with none."""

from __future__ import annotations

import json
import subprocess

import pytest

from bbshared import messages as m
from botboard.board.tools import brightest
from botboard.board.sim import free_tcp_port

from ..simboard import BOTBOARD, wait_for
from .conftest import TOKEN, LiveDaemon
from ..patience import scaled


def botboard(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=timeout)


def test_status_is_one_json_object(live: LiveDaemon) -> None:
    wait_for(lambda: live.status()["link"]["board_link"], 10, "the board's first LINK_STATS")
    result = botboard("status", "--console", live.base, "--token", TOKEN)
    assert result.returncode == 0, result.stderr
    status = json.loads(result.stdout)
    assert status["link"]["connected"] is True and status["link"]["state"] == "connected"
    assert status["firmware"]["protocol"] == m.PROTOCOL_VERSION and status["firmware"]["cells"] == 61
    assert status["game"]["name"] == "twin-tin-bots"
    assert status["simulated"] is True
    # the board's own link counters, as it reported them, and its ERRORs by kind
    assert set(status["board_link"]) == {"checksum_errors", "oversize", "version_errors",
                                         "unknown_types", "retransmits", "events_dropped"}
    assert all(isinstance(v, int) for v in status["board_link"].values())
    assert isinstance(status["board_errors"], dict)


def test_status_accepts_the_url_botboard_run_printed(live: LiveDaemon) -> None:
    result = botboard("status", "--console", live.url)
    assert result.returncode == 0, result.stderr


def test_status_trace_and_leds_say_clearly_when_no_daemon_answers() -> None:
    nowhere = f"http://127.0.0.1:{free_tcp_port()}"
    for args in (["status"], ["trace"], ["leds", "test"], ["leds", "config", "--brightness", "9"]):
        result = botboard(*args, "--console", nowhere, "--timeout", "2")
        assert result.returncode == 2, args
        assert "no botboard daemon answers" in result.stderr and "botboard run" in result.stderr
        assert "Traceback" not in result.stderr


def test_a_missing_token_is_explained(live: LiveDaemon) -> None:
    for args in (["status"], ["trace", "--count", "1"]):
        result = botboard(*args, "--console", live.base)
        assert result.returncode == 2
        assert "--token" in result.stderr


def test_trace_prints_live_frames_filtered(live: LiveDaemon) -> None:
    proc = subprocess.Popen([BOTBOARD, "trace", "--console", live.base, "--token", TOKEN,
                             "--type", "slot", "--count", "2", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        assert "following" in proc.stderr.readline()  # connected: what comes now, it sees
        live.post("/api/sim/button", {"button": 3})  # filtered out
        live.post("/api/sim/place", {"slot": 20, "kind": 2, "colour": 1})
        wait_for(lambda: live.get("/api/slots")[20]["present"], what="tile in slot 20")
        live.post("/api/sim/remove", {"slot": 20})
        out, err = proc.communicate(timeout=scaled(20))
    finally:
        proc.kill()
    frames = [json.loads(line) for line in out.splitlines()]
    assert proc.returncode == 0, err
    assert [(f["type"], f["slot"], f["present"]) for f in frames] == [("slot", 20, 1), ("slot", 20, 0)]


def test_leds_test_walks_every_cell_in_chain_order(live: LiveDaemon) -> None:
    result = botboard("leds", "test", "--console", live.base, "--token", TOKEN,
                      "--step-ms", "5", "--phase", "cells")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["completed"] == 61
    palette = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in live.get("/api/cells")["palette"]]
    white = "%02xf1" % brightest(palette)  # the lit cell: the whitest entry, no facing, solid
    frames = live.get("/api/trace?limit=2000")
    lit = []  # cells the test lit, in the order it did
    for f in frames:
        if f["type"] == "set_cells" and f["dir"] == "out":
            entries = [f["cells"][i:i + 8] for i in range(0, len(f["cells"]), 8)]
            lit += [int(e[:4], 16) for e in entries if e[4:] == white]
    walk = list(range(61))  # chain order: the layout lists cells in chain order
    # earlier tests' frames may light cells in the same colour: the walk is one unbroken run
    assert any(lit[i:i + 61] == walk for i in range(len(lit))), lit[:80]


@pytest.mark.parametrize("args,says", [(["status"], "--console"), (["trace"], "--console"),
                                       (["leds"], "config"), (["leds", "test"], "--console")])
def test_help(args: list[str], says: str) -> None:
    result = botboard(*args, "--help")
    assert result.returncode == 0
    assert says in result.stdout


def test_leds_config_sends_set_config(live: LiveDaemon) -> None:
    result = botboard("leds", "config", "--console", live.base, "--token", TOKEN,
                      "--brightness", "77", "--power-ma", "1500")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["settings"] == {"brightness": 77, "power_ma": 1500}
    sent = [(f["key"], f["value"]) for f in live.get("/api/trace?limit=200")
            if f["type"] == "set_config"]
    assert sent[-2:] == [(1, 77), (2, 1500)]
    result = botboard("leds", "config", "--console", live.base, "--token", TOKEN, "--brightness", "300")
    assert result.returncode == 2 and "--brightness" in result.stderr and "0 to 255" in result.stderr


@pytest.mark.parametrize("args,words", [
    (["--players", "7"], "Twin Tin Bots takes 2 to 6 players"),
    (["--game", "volt", "--players", "5"], "VOLT takes 2 to 4 players"),
    (["--players", "6", "--layout", "ttb-small"], "start with --layout ttb-big"),
    (["--game", "volt", "--players", "2", "--option", "nosuch=1"], "unknown VOLT option 'nosuch'"),
    (["--game", "goblins", "--players", "5"], "Goblins, Inc. takes 2 to 4 players"),
    (["--game", "chess"], "chess"),
])
def test_run_refuses_a_game_it_could_not_begin_before_starting_anything(args: list[str], words: str) -> None:
    done = botboard("run", "--console-port", "1", *args, timeout=scaled(30))
    assert done.returncode == 2 and words in done.stderr, done.stderr
    assert "console:" not in done.stdout  # nothing started


def test_a_command_piped_into_head_ends_quietly() -> None:
    import shlex

    done = subprocess.run(f"{shlex.quote(BOTBOARD)} tiles kinds --game botwars --all | head -c 10",
                          shell=True, capture_output=True, text=True, timeout=scaled(30))
    assert done.stdout.startswith('{"') and "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr
