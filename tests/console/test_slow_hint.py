"""A hint the machine is slow to work out, on the asking phone in Chromium: the phone says at
once that it is thinking, says why it waits once the hint is late, still says so after a
reload, and shows the hint when it comes: never lost. The hint's worker process is made slow
deliberately: stopped (SIGSTOP), as an overloaded machine starves it, then let go."""

from __future__ import annotations

import os
import re
import signal
from typing import Any, Iterator

import pytest
from playwright.sync_api import expect

from botboard.console.seats import SeatKeys

from ..patience import ms, wait_for
from .conftest import TOKEN, LiveDaemon, empty_slots, running


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveDaemon]:
    yield from running(tmp_path_factory)  # a daemon of its own: its hint worker is stopped


def test_a_slow_hint_says_it_is_thinking_and_still_comes(browser: Any, own: LiveDaemon) -> None:
    session = own.daemon.session
    own.post("/api/game/speed", {"speed": 0})
    empty_slots(own)
    own.post("/api/game/new", {"players": 2, "options": {"track": 0}, "seed": 1})
    own.call(lambda: setattr(session.hints, "budget_s", 0.3))
    wait_for(lambda: own.call(lambda: session.mode) == "program", 20, "the game to wait for a program")
    seat = own.call(lambda: session.acting()[0])
    phone = browser.new_page()
    phone.set_viewport_size({"width": 390, "height": 800})
    phone.goto(f"{own.base}/seat/{seat}?key={SeatKeys(TOKEN).key(seat)}")
    hinted = lambda: len(own.call(lambda: session.journal.hints(session.game_id)))  # noqa: E731
    phone.locator("#hint-button").click()  # a first hint starts the worker
    wait_for(lambda: hinted() == 1, 30, "the first hint")
    words = own.call(lambda: session.hints.hint(seat))["words"]
    expect(phone.locator("#hint")).to_have_text(words)
    workers = own.call(lambda: list(session.hints._pool._pool._processes))  # noqa: SLF001
    assert workers, "the hint is worked out in a worker process"
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)
    try:
        phone.locator("#hint-button").click()  # asked again: the worker is starved
        expect(phone.locator("#hint")).to_contain_text("thinking about your move")
        expect(phone.locator("#hint")).not_to_have_text(words)  # not the last hint's words, as if answered
        expect(phone.locator("#your-notice")).to_contain_text("taking longer than 0.3 s", timeout=ms(15))
        phone.reload()  # a phone that reloads meanwhile is told the same
        expect(phone.locator("#hint")).to_have_text(re.compile("still thinking about your move"))
        assert hinted() == 1
    finally:
        for pid in workers:
            os.kill(pid, signal.SIGCONT)
    wait_for(lambda: hinted() == 2, 30, "the late hint")
    expect(phone.locator("#hint")).to_have_text(own.call(lambda: session.hints.hint(seat))["words"])
    expect(phone.locator("#your-notice")).to_contain_text("hint: ")
    phone.close()
