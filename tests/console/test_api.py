"""The console API's answers to bad requests, tile writing and enrollment, clicks, no session."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bbshared import messages as m

from ..simboard import wait_for
from .conftest import LiveDaemon
from ..patience import scaled


def test_bad_requests_name_what_is_wrong(live: LiveDaemon) -> None:
    cases = [
        ("/api/sim/place", {"slot": 99}, "slots 0..23"),
        ("/api/sim/place", {"slot": "x"}, "whole number"),
        ("/api/sim/button", {"button": 2, "action": "smash"}, "click, long, press or release"),
        ("/api/sim/touch", {"cell": 61}, "cells 0..60"),
        ("/api/tools/config", {}, "brightness"),
        ("/api/tools/config", {"brightness": 256}, "0..255"),
        ("/api/tools/led-test", {"step_ms": 1}, "5..5000"),
        ("/api/game/undo", {}, "confirm"),
        ("/api/game/decide", {}, "choice"),
        ("/api/tiles/write", {"slot": 0, "tile": {"kind": "XX", "colour": "red"}}, "not a tile kind"),
        ("/api/tiles/write", {"slot": 0, "kind": "F1"}, "\"tile\": {field: value}"),
        ("/api/tiles/enroll", {"slot": 5, "tile": {"kind": "F1", "colour": "red"}}, "no tag on slot 5"),
    ]
    for path, body, words in cases:
        status, reply = live.request("POST", path, body)
        assert status in (400, 409), (path, status)
        assert words in reply["error"], (path, reply)


def test_a_blank_tag_is_written_or_enrolled_from_the_console(live: LiveDaemon) -> None:
    live.post("/api/sim/place", {"slot": 21, "blank": True})
    wait_for(lambda: live.get("/api/slots")[21]["present"], what="blank tag read")
    reading = live.get("/api/slots")[21]
    assert reading["tile"] is None and "payload" in reading["problem"]
    enrolled = live.post("/api/tiles/enroll", {"slot": 21, "tile": {"kind": "LZ", "colour": "special"}})
    assert enrolled["uid"] == reading["uid"] and "LZ" in enrolled["tile"]
    registry = json.loads(Path(enrolled["registry"]).read_text())
    assert registry["games"][live.daemon.game_name][reading["uid"]] == {"kind": "LZ", "colour": "special"}

    written = live.post("/api/tiles/write", {"slot": 21, "tile": {"kind": "F2", "colour": "blue"}, "serial": 9})
    assert written["uid"] == reading["uid"]  # the same tag, now carrying a payload
    wait_for(lambda: (live.get("/api/slots")[21]["tile"] or {}).get("kind") == 2, what="rewritten tag")
    tile = live.get("/api/slots")[21]["tile"]
    assert (tile["colour"], tile["serial"]) == (1, 9)
    live.post("/api/sim/remove", {"slot": 21})


def test_without_a_session_the_game_endpoints_say_so(live: LiveDaemon) -> None:
    session = live.daemon.session
    live.call(lambda: setattr(live.daemon, "session", None))
    try:
        game = live.get("/api/game")
        assert {k: game[k] for k in ("session", "game", "view")} == {"session": False, "game": "twin-tin-bots",
                                                                    "view": None}
        assert isinstance(game["at"], int)  # when it was made: a console keeps the newest view
        status, reply = live.request("POST", "/api/game/new", {"players": 2})
        assert status == 409 and "no game session" in reply["error"]
        assert live.status()["game"]["session"] is False
    finally:
        live.call(lambda: setattr(live.daemon, "session", session))


def test_status_carries_the_boards_own_link_counters(live: LiveDaemon) -> None:
    # /api/status shows what the board reports in LINK_STATS; the simulated
    # board's control socket, read before and after, brackets it
    def board_stats() -> dict[str, int]:
        control = live.daemon.sim_control
        assert control is not None and live.loop is not None
        reply = asyncio.run_coroutine_threadsafe(control.request("stats"), live.loop).result(scaled(10))
        return reply["link"]  # type: ignore[no-any-return]

    before = board_stats()

    def newer() -> Any:
        theirs = live.status()["link"]["board_link"]
        return theirs if theirs and theirs["frames_in"] > before["frames_in"] else None

    theirs = wait_for(newer, 10, "a LINK_STATS answer newer than the control socket's stats")
    after = board_stats()
    assert set(theirs) == set(m.LINK_COUNTERS)
    for key in m.LINK_COUNTERS:
        if key in before:
            assert before[key] <= theirs[key] <= after[key], key
    assert theirs["bytes_out"] > 0 and live.status()["link"]["board_link_supported"] is True


def test_reader_errors_show_in_the_reader_panel_and_the_status(live: LiveDaemon) -> None:
    # READER_STATS, asked for every second, reaches /api/slots (the reader test
    # panel) and /api/status; an overheated reader is a slot problem until it cools
    control = live.daemon.sim_control
    assert control is not None and live.loop is not None

    def heat(hot: bool) -> None:
        asyncio.run_coroutine_threadsafe(control.request("heat", slot=9, hot=hot), live.loop).result(scaled(10))

    heat(True)
    try:
        reading = wait_for(lambda: live.get("/api/slots")[9]["reader"].get("hot") == 1
                           and live.get("/api/slots")[9], 10, "the hot reader in /api/slots")
        assert reading["reader"]["over_temperature"] >= 1
        assert "over temperature" in reading["problem"]
        assert live.status()["link"]["board_readers"]["9"]["hot"] == 1
    finally:
        heat(False)
    cooled = wait_for(lambda: live.get("/api/slots")[9]["reader"].get("hot") == 0
                      and live.get("/api/slots")[9], 10, "the reader cooled")
    assert cooled["problem"] == "" and cooled["reader"]["over_temperature"] >= 1


def test_a_click_is_answered_once_the_board_has_reported_its_press_and_release(live: LiveDaemon) -> None:
    button = live.daemon.layout.button_count - 1  # a station no seat plays: the press does nothing
    last = live.get("/api/trace?limit=1")[-1]["t"]  # frames after this one are the click's
    assert live.post("/api/sim/button", {"button": button, "action": "click"}) == {"button": button,
                                                                                   "action": "click"}
    reported = [(f["button"], f["action"]) for f in live.get("/api/trace?limit=2000")
                if f["t"] > last and f["type"] == "button"]
    assert reported == [(button, m.PRESS), (button, m.RELEASE)]  # already, not on their way
    assert live.status()["tools"]["buttons"][str(button)] == "release"
