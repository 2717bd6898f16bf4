"""Undo in the live console: the undone move's log lines are struck through at once, on every
console and without a reload, whether the undo came from this console's button or elsewhere."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from ..patience import ms
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
