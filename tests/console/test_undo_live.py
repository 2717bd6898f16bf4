"""Undo in the live console: the undone move's log lines are struck through at once, on every
console and without a reload, whether the undo came from this console's button or elsewhere."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from ..patience import ms, wait_for
from .conftest import LiveDaemon, open_console, running


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveDaemon]:
    yield from running(tmp_path_factory)  # a daemon of its own: no other test's game on it


@pytest.fixture(scope="module")
def page(browser: Any, own: LiveDaemon) -> Iterator[Page]:
    yield from open_console(browser, own)


def _a_move(live: LiveDaemon, page: Page) -> None:
    session = live.daemon.session
    live.post("/api/game/speed", {"speed": 0})
    live.post("/api/game/new", {"players": 2, "options": {"track": 0}, "seed": 1})
    live.call(lambda: session._apply("A1=F1 + B1=L"))  # noqa: SLF001  red's first turn, as confirmed
    expect(page.locator("#game-log")).to_contain_text("A1=F1 + B1=L", timeout=ms(10))
    expect(page.locator("#game-log li.undone")).to_have_count(0)


def test_an_undo_from_elsewhere_strikes_the_lines_without_a_reload(page: Page, own: LiveDaemon) -> None:
    _a_move(own, page)
    own.post("/api/game/undo", {"confirm": True})  # another console, or the CLI's client
    expect(page.locator("#game-log li.undone").first).to_be_visible(timeout=ms(10))
    expect(page.locator("#game-log li.undone").first).to_contain_text("A1=F1 + B1=L")


def test_an_undo_from_the_button_strikes_the_lines_on_a_second_console(browser: Any, page: Page,
                                                                        own: LiveDaemon) -> None:
    _a_move(own, page)
    other = browser.new_page()
    try:
        other.goto(own.url)
        expect(other.locator("#game-log")).to_contain_text("A1=F1 + B1=L", timeout=ms(10))
        struck = other.locator("#game-log li.undone").count()
        page.click("#undo-button")
        page.locator("#confirm-ok").click()
        expect(page.locator("#game-log li.undone")).not_to_have_count(0, timeout=ms(10))
        expect(other.locator("#game-log li.undone")).not_to_have_count(struck, timeout=ms(10))
    finally:
        other.close()


def test_a_late_reply_does_not_hide_a_newer_pushed_view(page: Page, own: LiveDaemon) -> None:
    # the undo button's reply carries the view as it was when the reply was made; a move made
    # meanwhile is pushed over the websocket: the reply, arriving last, must not bring it back
    session = own.daemon.session
    _a_move(own, page)
    held: list[Any] = []

    def hold(route: Any) -> None:  # the request goes now; its answer reaches the page later
        held.append((route, route.fetch()))

    page.route("**/api/game/undo", hold)
    try:
        page.click("#undo-button")
        page.locator("#confirm-ok").click()
        expect(page.locator("#game-log li.undone")).not_to_have_count(0)  # the undo's own push
        # (Playwright runs the route's handler while the test talks to the page)
        wait_for(lambda: page.evaluate("true") and bool(held), 10, "the undo's reply to be held")
        own.call(lambda: session._apply("A1=F2 + B1=R"))  # noqa: SLF001  red's turn again, played
        expect(page.locator("#game-log")).to_contain_text("A1=F2 + B1=R")
        route, response = held[0]
        route.fulfill(response=response)  # the undo's reply, older than that push
        expect(page.locator("#notice")).to_contain_text("last action undone")  # (shown after the reply's view)
        expect(page.locator("#game-log")).to_contain_text("A1=F2 + B1=R")
    finally:
        page.unroute("**/api/game/undo")
