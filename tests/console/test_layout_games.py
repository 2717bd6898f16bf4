"""Every game's console and phone fit the screen: no sideways scroll at 1400 px or 390 px, station
labels that never overlap, and the station being played beside the arena."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from botboard import games

from .conftest import LiveDaemon, open_console, running
from .test_small_screens import OVERLAPS

GAMES = games.table_names()
WIDTHS = (1400, 390)


@pytest.fixture(scope="module", params=GAMES)
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveDaemon]:
    for daemon in running(tmp_path_factory, game=request.param):
        daemon.post("/api/game/speed", {"speed": 0})
        daemon.post("/api/game/new", {"players": 2, "seed": 3})
        yield daemon


@pytest.fixture(scope="module")
def page(browser: Any, live: LiveDaemon) -> Iterator[Page]:
    yield from open_console(browser, live)


def _wide(page: Page) -> list[str]:
    """Elements wider than the page (what makes it scroll sideways)."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                     && getComputedStyle(e).position !== 'fixed' && !e.closest('[hidden], details:not([open]), dialog:not([open])'))
      .slice(0, 5).map((e) => e.tagName + '#' + e.id + '.' + e.className)""")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_console_never_scrolls_sideways(page: Page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    expect(page.locator("#now-line")).not_to_have_text("no game yet")
    expect(page.locator("#game-view dd[data-key='phase']")).to_be_visible()
    page.wait_for_timeout(200)
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{scroll} px wide on a {width} px screen: {_wide(page)}"


@pytest.mark.parametrize("width", WIDTHS)
def test_station_labels_never_overlap(page: Page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    expect(page.locator("#stations .station").first).to_be_visible()
    for station in range(page.locator("#stations .station").count()):
        box = f"#stations .station[data-station='{page.locator('#stations .station').nth(station).get_attribute('data-station')}']"
        assert page.evaluate(OVERLAPS, f"{box} .slot, {box} .buttons button") == [], (width, station)
        assert page.evaluate(OVERLAPS, f"{box} .slot-no") == [], (width, station)


def test_the_station_being_played_sits_beside_the_arena(page: Page) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    playing = page.locator("#stations .station.turn").first
    expect(playing).to_be_visible()
    arena, station = page.locator("#arena").bounding_box(), playing.bounding_box()
    assert arena and station
    assert station["x"] >= arena["x"] + arena["width"] - 1  # to its right...
    assert station["y"] < arena["y"] + arena["height"] and station["y"] + station["height"] > arena["y"]  # ...level with it


def test_a_phone_never_scrolls_sideways(browser: Any, live: LiveDaemon) -> None:
    phone = browser.new_page()
    try:
        phone.set_viewport_size({"width": 390, "height": 844})
        links = {s["seat"]: s["url"] for s in live.get("/api/seats")["seats"]}
        phone.goto(links[0].replace(links[0].split("/seat/")[0], live.base))
        expect(phone.locator("#your-message")).not_to_be_empty()
        phone.wait_for_timeout(200)
        scroll = phone.evaluate("document.documentElement.scrollWidth")
        assert scroll <= 390, f"{scroll} px wide: {_wide(phone)}"
        rows = phone.locator("#private-facts dt")
        assert rows.count() > 0  # the seat's own facts, in words
    finally:
        phone.close()
