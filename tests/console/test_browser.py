"""The console in a real (headless Debian) chromium, against a real daemon and simulated board."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from bbshared import messages as m
from botboard.link.image import CellState

from ..simboard import wait_for
from .conftest import ARTIFACTS, LiveDaemon, open_console


@pytest.fixture(scope="module")
def page(browser: Any, live: LiveDaemon) -> Iterator[Page]:
    yield from open_console(browser, live)


def blur(page: Page) -> None:
    """Nothing focused: where a user starts after clicking the page background."""
    page.evaluate("document.activeElement && document.activeElement.blur()")


def trace_rows(page: Page, kind: str) -> Any:
    return page.locator(f"#trace li[data-type='{kind}']")


def test_arena_is_drawn_from_the_layout_and_mirrors_the_board(page: Page, live: LiveDaemon) -> None:
    cells = page.locator("#arena .cell")
    expect(cells).to_have_count(len(live.daemon.layout.cells))
    # a game would do this: the host changes cells; the view follows the board's own report
    live.call(lambda: live.daemon.conn.set_cells({
        30: CellState(2, 1, m.SOLID), 0: CellState(4, m.NO_FACING, m.BLINK)}))
    centre = page.locator("#cell-30")
    expect(centre).to_have_attribute("data-effect", "solid")
    expect(centre).to_have_attribute("data-palette", "2")
    expect(page.locator("#cell-0")).to_have_attribute("data-effect", "blink")
    expect(centre.locator(".facing")).to_have_attribute("visibility", "visible")
    assert centre.locator(".body").get_attribute("fill") == live.get("/api/cells")["palette"][2]
    # the board really reported it: the mirror comes from STATE, not from the host's wish
    shown = live.call(lambda: live.daemon.conn.shown[30])
    assert shown == CellState(2, 1, m.SOLID)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#arena-panel").screenshot(path=str(ARTIFACTS / "console-arena.png"))
    page.screenshot(path=str(ARTIFACTS / "console-full.png"), full_page=True)
    live.call(lambda: live.daemon.conn.set_cells({30: CellState(), 0: CellState()}))
    expect(centre).to_have_attribute("data-effect", "off")


def test_virtual_tile_in_a_slot_shows_in_the_trace_and_the_station(page: Page, live: LiveDaemon) -> None:
    page.select_option("#tile-kind", "4")  # R (turn right), from the session's tile catalogue
    page.select_option("#tile-colour", "3")  # yellow
    slot = page.locator("#stations .slot[data-slot='7']")
    slot.click()
    expect(trace_rows(page, "slot").filter(has_text="slot=7 present=1")).to_have_count(1)
    expect(slot).to_have_class("slot full")
    expect(slot).to_contain_text("R · yellow")
    assert live.get("/api/slots")[7]["tile"]["kind"] == 4
    slot.click()  # and out again
    expect(trace_rows(page, "slot").filter(has_text="slot=7 present=0")).to_have_count(1)
    expect(slot).to_contain_text("empty")


def test_buttons_and_touches_reach_the_board(page: Page) -> None:
    page.locator("#stations [data-button='5']").click()
    expect(trace_rows(page, "button").filter(has_text="button=5 action=2")).to_have_count(1)
    page.locator("#cell-12").click(force=True)
    expect(trace_rows(page, "touch").filter(has_text="cell=12")).to_have_count(1)


def test_keyboard_only(page: Page, live: LiveDaemon) -> None:
    blur(page)
    page.keyboard.press("s")  # first slot
    expect(page.locator("#stations .slot[data-slot='0']")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#stations .slot[data-slot='1']")).to_be_focused()
    page.keyboard.press("Enter")  # the tile goes in
    expect(trace_rows(page, "slot").filter(has_text="slot=1 present=1")).to_have_count(1)
    expect(page.locator("#stations .slot[data-slot='1']")).to_be_focused()  # focus survives
    page.keyboard.press("Enter")  # and out
    expect(trace_rows(page, "slot").filter(has_text="slot=1 present=0")).to_have_count(1)

    blur(page)
    page.keyboard.press("a")  # arena: arrows pick a cell, Enter touches it
    expect(page.locator("#arena")).to_be_focused()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#arena-cursor")).to_contain_text("cell 3 ")
    page.keyboard.press("Enter")
    expect(trace_rows(page, "touch").filter(has_text="cell=3")).to_have_count(1)

    page.keyboard.press("p")  # pause the trace
    expect(page.locator("#trace-pause")).to_have_attribute("aria-pressed", "true")
    before = trace_rows(page, "button").count()
    live.post("/api/sim/button", {"button": 1})
    expect(page.locator("#trace-count")).to_contain_text("paused")
    wait_for(lambda: any(f["type"] == "button" and f["button"] == 1
                         for f in live.get("/api/trace?limit=50")), what="button 1 traced")
    assert trace_rows(page, "button").count() == before  # paused: nothing added
    page.keyboard.press("p")
    expect(trace_rows(page, "button").filter(has_text="button=1 action=1")).to_have_count(1)

    page.keyboard.press("/")  # filter the trace
    expect(page.locator("#trace-filter")).to_be_focused()
    page.keyboard.type("touch")
    expect(page.locator("#trace li:not([data-type='touch'])")).to_have_count(0)
    page.keyboard.press("Control+a")
    page.keyboard.press("Backspace")

    blur(page)
    page.keyboard.press("?")
    expect(page.locator("#help-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#help-dialog")).to_be_hidden()


def test_unplug_and_replug_the_simulated_board(page: Page, live: LiveDaemon) -> None:
    button = page.locator("#plug-button")
    expect(button).to_have_text("Unplug board")
    button.click()
    expect(page.locator("#link-state")).not_to_have_text("connected", timeout=10000)
    expect(button).to_have_text("Replug board")
    button.click()
    expect(page.locator("#link-state")).to_have_text("connected", timeout=15000)
    assert live.status()["link"]["reconnects"] >= 1


def test_no_game_session_is_said_plainly(page: Page, live: LiveDaemon) -> None:
    session = live.daemon.session
    live.call(lambda: setattr(live.daemon, "session", None))  # a daemon without a game
    try:
        page.reload()
        expect(page.locator("#game-view")).to_contain_text("no game session")
        expect(page.locator("#undo-button")).to_be_disabled()
    finally:
        live.call(lambda: setattr(live.daemon, "session", session))
        page.reload()  # and let it draw its arena before the next test draws its own
        expect(page.locator("#arena .cell")).to_have_count(len(live.daemon.layout.cells))


def test_square_grids_are_drawn_as_squares_north_up(page: Page) -> None:
    """BotWars-style (x, y) from (1, 1) in the south-west: drawn from a layout like any other."""
    square = {"id": "sq", "title": "square test", "grid": "square", "touch": False,
              "cells": [[x, y] for y in (1, 2) for x in (1, 2, 3)], "stations": []}
    page.evaluate("(layout) => import('./static/js/arena.js').then((m) => m.drawArena(layout, false))",
                  square)
    cells = page.locator("#arena .cell")
    expect(cells).to_have_count(6)
    boxes = [cells.nth(i).locator(".body").bounding_box() for i in range(6)]
    assert all(len((cells.nth(i).locator(".body").get_attribute("points") or "").split()) == 4
               for i in range(6))
    assert boxes[0] and boxes[1] and boxes[3]
    assert boxes[1]["x"] > boxes[0]["x"]  # x grows eastwards
    assert boxes[3]["y"] < boxes[0]["y"]  # y grows northwards: (1, 2) is above (1, 1)
    page.reload()  # back to the daemon's layout for anything after
    expect(page.locator("#arena .cell")).to_have_count(61)
