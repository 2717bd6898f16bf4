"""The bringup API's gate and its answers to bad input (the whole flow: test_bringup.py)."""

from __future__ import annotations

import json
from typing import Iterator

import pytest

from ..simboard import wait_for
from .conftest import LiveDaemon
from .test_security import _raw


@pytest.fixture(scope="module")
def bringup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveDaemon]:
    folder = tmp_path_factory.mktemp("bringup")
    daemon = LiveDaemon(folder / "data", layout="ttb-small", bringup=str(folder / "out.json"))
    daemon.start()
    yield daemon
    daemon.stop()


def test_another_site_a_missing_token_and_a_huge_body_are_refused(bringup: LiveDaemon) -> None:
    start = json.dumps({"steps": ["supply"]}).encode()
    status, reply = _raw(bringup, "POST", "/api/bringup/start", start, origin="http://evil.example",
                         **{"content-type": "application/json"})
    assert status == 403 and "another site" in reply
    assert bringup.request("POST", "/api/bringup/start", {"steps": ["supply"]}, token=None)[0] == 401
    status, _ = _raw(bringup, "POST", "/api/bringup/answer", b"{" + b" " * (70 * 1024) + b"}",
                     **{"content-type": "application/json"})
    assert status == 413
    assert bringup.get("/api/bringup")["state"] == "ready"  # none of them started anything


def test_bad_input_is_one_clear_line(bringup: LiveDaemon) -> None:
    for path, body, words in (
            ("/api/bringup/start", {"steps": ["leds", "wiring"]}, "no bringup step 'wiring': the steps are"),
            ("/api/bringup/start", {"steps": "leds"}, "steps must be a list"),
            ("/api/bringup/answer", {"cell": [0, 0]}, "not waiting for an answer"),
            ("/api/bringup/answer", {}, "give cell: [q, r]"),
            ("/api/bringup/deploy", {}, "nothing to deploy yet")):
        status, reply = bringup.request("POST", path, body)
        assert status == 400 and words in reply["error"], (path, reply)


def test_a_cell_not_on_the_board_is_refused_while_a_cell_is_asked(bringup: LiveDaemon) -> None:
    bringup.post("/api/bringup/start", {"steps": ["leds"]})
    wait_for(lambda: bringup.get("/api/bringup")["ask"].get("kind") == "cell", 10, "the first cell")
    status, reply = bringup.request("POST", "/api/bringup/answer", {"cell": [9, 9]})
    assert status == 400 and "no cell [9, 9] in layout ttb-small" in reply["error"]
    status, reply = bringup.request("POST", "/api/bringup/start", {})
    assert status == 400 and "already running" in reply["error"]


def test_a_game_daemon_has_no_bringup(live: LiveDaemon) -> None:
    status, reply = live.request("GET", "/api/bringup")
    assert status == 409 and "botboard bringup" in reply["error"]


def test_the_page_is_served(bringup: LiveDaemon) -> None:
    status, body = _raw(bringup, "GET", "/bringup")
    assert status == 200 and 'src="/static/js/bringup.js"' in body
