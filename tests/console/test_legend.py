"""The console's LED legend: every colour of the game at the table with its meaning, from the palette
file, and the palette choice that relights the board (a real chromium against a real daemon)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from botboard import games
from botboard.session.palette import colours

from ..simboard import wait_for
from .conftest import LiveDaemon, open_console


@pytest.fixture(scope="module")
def page(browser: Any, live: LiveDaemon) -> Iterator[Page]:
    yield from open_console(browser, live)


def test_the_legend_lists_the_running_games_palette(page: Page, live: LiveDaemon) -> None:
    mapping = games.table(live.daemon.game_name)
    lit = [e for e in mapping.palette_doc["palette"] if e["role"] != "off"]
    rows = page.locator("#legend li")
    expect(rows).to_have_count(len(lit))
    alert = page.locator("#legend li[data-name='alert']")
    expect(alert).to_contain_text("something to fix")
    r, g, b = mapping.palette_for("standard")[mapping.palette_index["alert"]]
    expect(alert.locator(".swatch")).to_have_css("background-color", f"rgb({r}, {g}, {b})")


def test_choosing_the_colourblind_palette_relights_the_board(page: Page, live: LiveDaemon) -> None:
    mapping = games.table(live.daemon.game_name)
    blind = list(colours(mapping.palette_doc, "colourblind"))
    try:
        page.select_option("#palette-choice", "colourblind")
        r, g, b = blind[mapping.palette_index["alert"]]
        expect(page.locator("#legend li[data-name='alert'] .swatch")).to_have_css(
            "background-color", f"rgb({r}, {g}, {b})")
        # what the host now sends the board (and every resync sends again)
        wait_for(lambda: live.get("/api/cells")["palette"] == ["#%02x%02x%02x" % c for c in blind], 10)
        assert live.get("/api/game/palette")["palette"] == "colourblind"
    finally:
        live.post("/api/game/palette", {"palette": "standard"})  # the package's daemon is shared
    assert live.get("/api/cells")["palette"] == ["#%02x%02x%02x" % c for c in mapping.palette]
