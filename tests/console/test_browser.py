"""The console in a real (headless Debian) chromium, against a real daemon and simulated board."""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from bbshared import messages as m
from botboard import games
from botboard.board.tools import brightest
from botboard.link.image import CellState

from ..simboard import wait_for
from .conftest import ARTIFACTS, LiveDaemon, open_console
from ..patience import ms


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
    page.select_option("#tile-kind", "R")  # turn right, from the game's tile catalogue
    page.select_option("#tile-colour", "yellow")
    slot = page.locator("#stations .slot[data-slot='7']")
    slot.click()
    expect(trace_rows(page, "slot").filter(has_text="slot=7 present=1")).to_have_count(1)
    # the trace says the tile the payload is, as the game names it, not only its hex
    expect(trace_rows(page, "slot").filter(has_text="tile=yellow R (Turn right)")).to_have_count(1)
    expect(slot).to_have_class("slot full")
    expect(slot).to_contain_text("yellow R (Turn right)")
    assert live.get("/api/slots")[7]["tile"]["kind"] == 4
    slot.click()  # and out again
    expect(trace_rows(page, "slot").filter(has_text="slot=7 present=0")).to_have_count(1)
    expect(slot).to_contain_text("empty")


def test_buttons_and_touches_reach_the_board(page: Page) -> None:
    page.locator("#stations [data-button='5']").click()
    expect(trace_rows(page, "button").filter(has_text="button=5 action=2")).to_have_count(1)
    page.locator("#cell-12").click(force=True)
    expect(trace_rows(page, "touch").filter(has_text="cell=12")).to_have_count(1)


def link_text(page: Page, key: str) -> str:
    return page.locator(f"#link dd[data-key='{key}']").text_content() or ""


def test_link_panel_shows_the_boards_hello_and_live_counters(page: Page, live: LiveDaemon) -> None:
    info = live.call(lambda: live.daemon.conn.info)  # what the board said in its HELLO
    assert info is not None and info.firmware and info.protocol == m.PROTOCOL_VERSION
    expect(page.locator("#link dd[data-key='firmware']")).to_have_text(info.firmware)
    expect(page.locator("#link dd[data-key='protocol']")).to_have_text(str(info.protocol))
    expect(page.locator("#link dd[data-key='board layout']")).to_have_text(info.layout)

    # frames only grow: the panel catches up with the API, and never runs ahead of it
    before = live.status()["link"]
    page.wait_for_function("""([i, o]) => {
        const dd = document.querySelector("#link dd[data-key='frames in / out']");
        const [a, b] = dd.textContent.split(" / ").map(Number);
        return a >= i && b >= o; }""", arg=[before["frames_in"], before["frames_out"]])
    shown_in, shown_out = map(int, link_text(page, "frames in / out").split(" / "))
    after = live.status()["link"]
    assert 0 < before["frames_in"] <= shown_in <= after["frames_in"]
    assert 0 < before["frames_out"] <= shown_out <= after["frames_out"]

    # rtt and heap change with every ping (2/s), the panel with each status (1/s):
    # poll until one status and the API agree on all four at once
    # the board's own counters (LINK_STATS) beside the host's
    keys = ["rtt ms", "board heap free", "checksum errors", "retransmits", "board checksum errors",
            "board retransmits", "board oversize frames"]
    seen: list[Any] = []

    def agree() -> bool:
        shown = page.evaluate("(keys) => keys.map((k) => document.querySelector("
                              "`#link dd[data-key='${k}']`).textContent)", keys)
        link = live.status()["link"]
        theirs = link["board_link"]
        if theirs is None:
            return False
        want = [None if link["rtt_ms"] is None else f"{link['rtt_ms']:.1f}",
                f"{link['heap_free']} B", str(link["checksum_errors"]), str(link["retransmits"]),
                str(theirs["crc_errors"] + theirs["cobs_errors"]), str(theirs["retransmits"]),
                str(theirs["oversize"])]
        seen[:] = [shown, link]
        return bool(shown == want)

    wait_for(agree, 20, "the link panel to show the API's rtt, heap, checksum errors, retransmits, "
             "and the board's")
    link = seen[1]
    assert 0 < link["rtt_ms"] < 1000 and link["heap_free"] > 1000  # real figures, not defaults
    assert live.call(lambda: live.daemon.conn.board_heap_free) > 0  # from the board's PONG
    assert link["board_link"]["frames_in"] > 0  # from the board's LINK_STATS


def test_led_test_lights_each_led_then_each_cell_in_chain_order(page: Page, live: LiveDaemon) -> None:
    before = live.get("/api/cells")
    white = brightest([tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in before["palette"]])
    cells = len(live.daemon.layout.cells)
    page.fill("#led-step", "5")
    page.select_option("#led-phase", "all")
    blur(page)
    started = time.time()
    page.keyboard.press("l")  # the shortcut starts it with the form's settings
    where = page.locator("#led-where")
    expect(where).to_contain_text("each LED")
    expect(where).to_have_text("done", timeout=90000)
    assert page.locator("#led-progress").get_attribute("max") == str(8 * cells)  # 7 LEDs, then the cell

    frames = [f for f in live.get("/api/trace?limit=2000") if f["t"] >= started - 0.5]
    lit = []  # (cell, facing) the host lit white, in order: what set_cells asked for
    steps = []  # where in the trace each of those frames is
    for n, f in enumerate(frames):
        if f["type"] == "set_cells" and f["dir"] == "out":
            for e in (f["cells"][i:i + 8] for i in range(0, len(f["cells"]), 8)):
                if int(e[4:6], 16) == white and int(e[7], 16) == m.SOLID:
                    lit.append((int(e[:4], 16), int(e[6], 16)))
                    steps.append(n)
    chain = list(range(cells))  # the layout lists its cells in chain order
    leds = [(c, f) for c in chain for f in (m.NO_FACING, *range(6))]
    assert lit[:8 * cells] == leds + [(c, m.NO_FACING) for c in chain]

    # the board's own reports (STATE) while the test ran: one white cell at most, the rest
    # dark, side LEDs included. Only answers to polls sent after the first step count.
    first = next(n for n in range(steps[0], len(frames)) if frames[n]["type"] == "get_state")
    reported = set()
    for f in frames[first:steps[8 * cells - 1] + 1]:
        if f["type"] == "state" and f["dir"] == "in":
            raw = bytes.fromhex(f["cells"])
            on = [(f["start"] + i // 2, raw[i], raw[i + 1]) for i in range(0, len(raw), 2)
                  if raw[i + 1] & 0x0F != m.OFF]
            assert len(on) <= 1, f"the board showed more than the cell under test: {on}"
            reported |= {(cell, look >> 4) for cell, palette, look in on if palette == white}
    assert len(reported) > 3, reported
    assert any(facing != m.NO_FACING for _, facing in reported)  # a side LED, as the board renders it
    # and afterwards the board shows what it showed before
    wait_for(lambda: live.get("/api/cells")["cells"] == before["cells"], 10, "the cells restored")
    assert live.status()["tools"]["led_test"]["running"] is False


def test_reader_test_lists_live_reads_per_slot(page: Page, live: LiveDaemon) -> None:
    """Slots 22 and 23: no other console test uses them (their pages load the same trace)."""
    page.click("#readers-box summary")
    row = page.locator("#readers tbody tr").nth(23)
    cols = row.locator("td")
    owner = next(s["name"] for s in live.get("/api/layout")["stations"] if 23 in s["slots"])
    expect(cols.nth(1)).to_have_text(owner)
    reads = live.get("/api/tools/readers")["slots"][23]["reads"]
    page.select_option("#tile-kind", "R")
    page.select_option("#tile-colour", "yellow")
    page.fill("#tile-serial", "5")
    catalogue = games.catalogue(live.daemon.game_name)
    slot = page.locator("#stations .slot[data-slot='23']")
    try:
        for n in (1, 2):  # in and out twice: each arrival is one more read
            slot.click()
            expect(row).to_have_class("present")
            expect(cols.nth(4)).to_have_text(str(reads + n))
            reading = live.get("/api/tools/readers")["slots"][23]
            assert reading["present"] and reading["reads"] == reads + n
            assert reading["uid"] == catalogue.virtual_uid(catalogue.make({"kind": "R", "colour": "yellow"}), 5).hex()
            expect(cols.nth(2)).to_have_text(reading["uid"])
            expect(cols.nth(3)).to_have_text("yellow R (Turn right) #5")
            slot.click()
            expect(row).not_to_have_class("present")
            expect(cols.nth(2)).to_have_text("–")
            expect(cols.nth(3)).to_have_text("–")

        page.check("#tile-blank")  # a tag without a tile on it: the reader test says so
        page.click("#stations .slot[data-slot='22']")
        blank = page.locator("#readers tbody tr").nth(22).locator("td")
        expect(blank.nth(6)).to_contain_text("no tile payload")  # the column after the reader's errors
        assert live.get("/api/tools/readers")["slots"][22]["problem"] == blank.nth(6).text_content()
        page.click("#stations .slot[data-slot='22']")
        expect(blank.nth(5)).to_have_text("")
    finally:
        page.uncheck("#tile-blank")
        page.fill("#tile-serial", "1")
        page.click("#readers-box summary")


def test_brightness_and_power_limit(page: Page, live: LiveDaemon) -> None:
    brightness, power = page.locator("#cfg-brightness"), page.locator("#cfg-power")
    live.post("/api/tools/config", {"brightness": 77, "power_ma": 1500})  # as `botboard leds config`
    expect(brightness).to_have_value("77")  # the form shows what the board was sent, from anywhere
    expect(page.locator("#cfg-brightness-out")).to_have_text("77")
    expect(power).to_have_value("1500")

    brightness.focus()
    page.keyboard.press("Home")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#cfg-brightness-out")).to_have_text("5")
    power.fill("1234")
    page.click("#config button[type='submit']")
    expect(page.locator("#notice")).to_contain_text('{"brightness":5,"power_ma":1234}')
    expect(trace_rows(page, "set_config").filter(has_text="key=1 value=5")).to_have_count(1)
    expect(trace_rows(page, "set_config").filter(has_text="key=2 value=1234")).to_have_count(1)
    sent = [(f["key"], f["value"]) for f in live.get("/api/trace?limit=300") if f["type"] == "set_config"]
    assert sent[-2:] == [(m.CONFIG_BRIGHTNESS, 5), (m.CONFIG_POWER_MA, 1234)]
    assert live.status()["tools"]["settings"] == {"brightness": 5, "power_ma": 1234}

    page.reload()  # a fresh page shows the board's settings, not the form's defaults
    expect(page.locator("#link-state")).to_have_text("connected")
    expect(brightness).to_have_value("5")
    expect(power).to_have_value("1234")
    live.post("/api/tools/config", {"brightness": 128, "power_ma": 2000})
    expect(brightness).to_have_value("128")


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
    blur(page)
    page.keyboard.press("c")  # the shortcut pulls the cable
    expect(page.locator("#link-state")).not_to_have_text("connected", timeout=ms(10))
    expect(button).to_have_text("Replug board")
    assert live.status()["tools"]["plugged"] is False
    expect(page.locator("#link dd[data-key='connected']")).to_have_text("no")
    # the mirror is dimmed and says why, and the game says the board is gone
    expect(page.locator("#arena")).to_have_class("offline")
    expect(page.locator("#arena-offline")).to_be_visible()
    wait_for(lambda: "board is not answering" in live.get("/api/game")["view"]["message"], 10,
             "the game to say the board is gone")
    button.click()  # and the button puts it back
    expect(page.locator("#link-state")).to_have_text("connected", timeout=ms(15))
    expect(page.locator("#arena")).not_to_have_class("offline")
    expect(page.locator("#arena-offline")).to_be_hidden()
    assert live.status()["link"]["reconnects"] >= 1
    wait_for(lambda: "board is back" in live.get("/api/game")["view"]["message"], 10, "the game to say it is back")


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
