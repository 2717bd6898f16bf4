"""`botboard bringup` driven through the console in real headless Chromium, on a simulated board
wired with every first-board fault at once; then a game on the layout it wrote plays right.

The test is the maker: its eyes read where the LEDs light on the board (the simulated board's
LEDs where they physically are), its hand clicks that cell on the drawn arena, moves one tile
from slot to slot and presses each button.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from bbshared import messages as m
from botboard.board import layouts
from botboard.board.tools import brightest
from botboard.link.image import CellState

from ..simboard import wait_for
from .conftest import TOKEN, LiveDaemon
from ..patience import scaled

REF = layouts.load("ttb-small")  # how the board was meant to be wired: where things physically are
FAULTS = ("swap:0,1", "reverse:1", "dead:7", "cross:9,10", "sag")
DEAD_AFTER_S = 3.0  # a maker who hears nothing for this long presses "not heard"


def lit_cells(live: LiveDaemon) -> list[int]:
    """The cells lit on the board, by where they physically are (the reference wiring's order)."""
    leds = asyncio.run_coroutine_threadsafe(live.daemon.sim_control.leds(), live.loop).result(scaled(20))
    size = 3 * REF.leds_per_cell
    return [p for p in range(len(REF.cells)) if any(leds[p * size:(p + 1) * size])]


def ask_of(page: Any) -> dict[str, Any]:
    raw = page.locator("#bringup-prompt").get_attribute("data-ask")
    return json.loads(raw) if raw else {}


def do_as_asked(page: Any, live: LiveDaemon, ask: dict[str, Any], tile_at: list[int]) -> None:
    kind = ask.get("kind")
    if kind == "cell":  # look at the board, click where it lit
        lit: list[int] = []
        wait_for(lambda: len(lit_cells_into(live, lit)) == 1, 10, "one cell lit on the board")
        q, r = REF.cells[lit[0]]
        page.locator(f'#bringup-arena polygon[data-q="{q}"][data-r="{r}"]').click()
    elif kind == "slot":  # move the tile to the slot asked (where it is physically)
        slot = REF.stations[ask["station"]].slots[ask["position"]]
        if tile_at:
            live.post("/api/sim/remove", {"slot": tile_at.pop()})
        live.post("/api/sim/place", {"slot": slot, "game": 1, "kind": 0, "colour": 2, "serial": 1})
        tile_at.append(slot)
        until = time.monotonic() + DEAD_AFTER_S
        while ask_of(page).get("n") == ask["n"] and time.monotonic() < until:
            time.sleep(0.1)
        if ask_of(page).get("n") == ask["n"]:
            page.locator("#bringup-none").click()
    elif kind == "button":
        live.post("/api/sim/button", {"button": REF.stations[ask["station"]].buttons[ask["role"]]})


def lit_cells_into(live: LiveDaemon, out: list[int]) -> list[int]:
    out[:] = lit_cells(live)
    return out


def test_bringup_names_every_fault_and_its_layout_plays_right(browser: Any, tmp_path: Path) -> None:
    written = tmp_path / "ttb-small.json"
    live = LiveDaemon(tmp_path / "data", layout="ttb-small", faults=FAULTS, bringup=str(written))
    live.start()
    try:
        bring_up(browser, live)
    finally:
        live.stop()
    fixed = layouts.load(str(written))
    game = LiveDaemon(tmp_path / "game", layout=str(written), faults=FAULTS)
    game.start()
    try:
        plays_right(game, fixed)
    finally:
        game.stop()


def bring_up(browser: Any, live: LiveDaemon) -> None:
    """The whole flow in the console, as a maker does it; every injected fault is named."""
    from playwright.sync_api import expect

    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{live.base}/bringup?token={TOKEN}")
    expect(page.locator("#bringup-arena polygon")).to_have_count(len(REF.cells))
    page.locator("#bringup-start").click()
    done, acted, tile_at = "", None, []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        state = page.locator("#bringup-state").text_content()
        if state in ("done", "failed"):
            done = state
            break
        ask = ask_of(page)
        if ask.get("n") not in (None, acted):  # each question answered once
            acted = ask["n"]
            do_as_asked(page, live, ask, tile_at)
        time.sleep(0.05)
    assert done == "done", page.locator("#bringup-prompt").text_content()
    faults = page.locator("#bringup-faults li")
    named = {faults.nth(i).get_attribute("data-fault"): faults.nth(i).text_content()
             for i in range(faults.count())}
    assert set(named) == {"reversed-chain", "swapped-readers", "dead-reader", "cross-reading",
                          "undersized-supply"}, named
    assert "LED chain 1" in named["reversed-chain"]
    assert "slot 0 of station north and slot 1 of station north" in named["swapped-readers"]
    assert "reader 7" in named["dead-reader"] and "reader 9" in named["cross-reading"]
    expect(page.locator("#bringup-diff")).to_contain_text('"power_ma"')
    assert not errors, errors
    page.close()


def plays_right(live: LiveDaemon, fixed: layouts.Layout) -> None:
    """A tile laid in a slot is that slot to the game; a cell the host lights lights there."""
    for slot in (0, 1, 6, 12):  # the swapped pair, and slots wired as designed
        live.post("/api/sim/place", {"slot": slot, "game": 1, "kind": 0, "colour": 2, "serial": 5})
        wait_for(lambda: any(r["present"] for r in live.get("/api/slots")), 10, "the tile")
        readers = [i for i, r in enumerate(live.get("/api/slots")) if r["present"]]
        assert [fixed.slot_owner(r) for r in readers] == [REF.slot_owner(slot)], (slot, readers)
        live.post("/api/sim/remove", {"slot": slot})
        wait_for(lambda: not any(r["present"] for r in live.get("/api/slots")), 10, "empty")
    conn = live.daemon.conn
    for at in (0, 31, 33, 60):  # cells of the chain wired as designed and of the reversed one
        coord = REF.cells[at]
        white = CellState(brightest(conn.image.palette), m.NO_FACING, m.SOLID)
        live.call(lambda: conn.set_cells({i: CellState() for i in range(len(fixed.cells))}
                                         | {fixed.cell_index(coord): white}))
        wait_for(lambda: lit_cells(live) == [at], 10, f"cell {coord} lit where it is")
